"""`newscorpus seed|frontier`: start a site's distributed run with its seeds, and show a run's frontier."""

from __future__ import annotations

import time

from newscorpus.cli.main import CommandError


def register(subparsers) -> None:
    seed = subparsers.add_parser("seed", help="start a new distributed run of a site and push its seeds to Redis")
    _add_options(seed)
    seed.set_defaults(func=run_seed)
    frontier = subparsers.add_parser("frontier", help="show a site's distributed run: queue, filter, workers")
    _add_options(frontier)
    frontier.set_defaults(func=run_frontier)


def _add_options(parser) -> None:
    parser.add_argument("--site", required=True, help="site name (newscorpus/crawler/sites/NAME.toml) or a .toml path")
    parser.add_argument("--redis-url", help="Redis URL (default: $NEWSCORPUS_REDIS_URL)")
    parser.add_argument("--key-prefix", help="Redis key prefix (default: NEWSCORPUS_REDIS_KEY_PREFIX, newscorpus)")


def _open(args):
    from newscorpus.crawler.distributed.connection import RedisSettingError, checked_redis_client
    from newscorpus.crawler.distributed.keys import SiteKeys
    from newscorpus.crawler.runner import project_settings
    from newscorpus.crawler.site_config import SiteConfigError, load_site_config

    overrides = {"NEWSCORPUS_REDIS_URL": args.redis_url, "NEWSCORPUS_REDIS_KEY_PREFIX": args.key_prefix}
    settings = project_settings({name: value for name, value in overrides.items() if value})
    url = settings.get("NEWSCORPUS_REDIS_URL")
    if not url:
        raise CommandError("no Redis: give --redis-url or set NEWSCORPUS_REDIS_URL")
    try:
        config = load_site_config(args.site, settings.getlist("NEWSCORPUS_SITES_DIRS"))
        server = checked_redis_client(url)
        SiteKeys(config.name, settings.get("NEWSCORPUS_REDIS_KEY_PREFIX"))
    except (SiteConfigError, RedisSettingError, ValueError) as error:
        raise CommandError(str(error)) from None
    return settings, config, server


def run_seed(args) -> int:
    from newscorpus.crawler.distributed.seeding import seed_run

    settings, config, server = _open(args)
    result = seed_run(config, server, settings)
    print(f"site {config.name}: run {result.run_id} started, {result.pushed} seed request(s) pushed "
          f"({result.offered} offered); start workers with: scrapy crawl site -a site={args.site}")
    return 0


def run_frontier(args) -> int:
    from newscorpus.crawler.distributed.connection import persistence_warning
    from newscorpus.crawler.distributed.keys import SiteKeys
    from newscorpus.crawler.distributed.ledger import in_flight
    from newscorpus.crawler.distributed.runs import current_run

    settings, config, server = _open(args)
    warning = persistence_warning(server)
    if warning:
        print(warning)
    run = current_run(server, SiteKeys(config.name, settings.get("NEWSCORPUS_REDIS_KEY_PREFIX")))
    if run is None:
        print(f"site {config.name}: no run in Redis")
        return 0
    pipe = server.pipeline(transaction=False)
    pipe.zcard(run.requests).scard(run.dupefilter).hgetall(run.workers).get(run.finished).get(run.pages)
    pipe.ttl(run.dupefilter)
    queued, seen, workers, finished, pages, ttl = pipe.execute()
    now = time.time()
    print(f"site {config.name}: run {run.run_id} ({'finished' if finished else 'open'})")
    print(f"  queued requests: {queued}\n  in flight (popped, not yet stored): {in_flight(server, run)}\n"
          f"  fingerprints seen: {seen} (expire in {ttl} s)\n  page requests admitted: {int(pages or 0)}")
    for worker, last in sorted(workers.items()):
        print(f"  worker {worker.decode()}: last active {now - float(last):.0f} s ago")
    return 0
