"""`newscorpus build|search|stats`: scheduled corpus builds, full-text search, corpus statistics."""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path

from newscorpus.cli.arguments import iso_date, limit, positive_int
from newscorpus.cli.database_options import add_database_options, check_site, open_database
from newscorpus.cli.main import CommandError

logger = logging.getLogger(__name__)

BUILD_SITES_VARIABLE = "NEWSCORPUS_BUILD_SITES"  # comma-separated site names: the default of --sites
EXCLUDED_BY_DEFAULT = ("demo",)                    # the offline demo's config points at 127.0.0.1:8765
DEFAULT_OUT_DIR = "snapshots"


def register(subparsers) -> None:
    build = subparsers.add_parser(
        "build", help="crawl the configured sites, run maintenance, write a snapshot and a report",
        description="One incremental build. Exit codes: 0 done, 1 failed or completed with errors, "
                    "2 bad usage, 3 another build is running.")
    build.add_argument("--sites", help=f"comma-separated site config names (default: ${BUILD_SITES_VARIABLE}, "
                                       "else every packaged config except demo)")
    build.add_argument("--site-config", action="append", default=[], metavar="PATH",
                       help="a site config file to build too (repeatable)")
    build.add_argument("--since", type=iso_date, metavar="DATE",
                       help="snapshot only articles first seen or published since DATE "
                            "(default: the whole corpus of the sites)")
    build.add_argument("--out", default=DEFAULT_OUT_DIR, help="snapshot folder (default: ./snapshots)")
    build.add_argument("--restart", action="store_true",
                       help="abandon an interrupted build instead of resuming it")
    build.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                       help="a Scrapy/newscorpus setting for the crawl (repeatable), as scrapy crawl -s")
    build.add_argument("--crawl-processes", type=positive_int, default=1, metavar="N",
                       help="crawl in N processes, each on its share of the sites, to use N cores (default 1)")
    build.add_argument("--log-every", type=float, default=30.0, metavar="SECONDS",
                       help="when stderr is not a terminal, a progress line every SECONDS (default 30)")
    build.add_argument("--json", action="store_true", help="print the report as JSON instead of a summary")
    add_database_options(build)
    build.set_defaults(func=run_build_command)

    search = subparsers.add_parser("search", help="full-text search of the corpus (Chinese and English)")
    search.add_argument("query", help="words to find (all of them), e.g. \"rail Leeds\" or \"杭州 地铁\"")
    search.add_argument("--site", help="only this site")
    search.add_argument("--since", type=iso_date, metavar="DATE", help="published (else first seen) on or after DATE")
    search.add_argument("--until", type=iso_date, metavar="DATE", help="published (else first seen) on or before DATE")
    search.add_argument("--limit", type=limit, default=20, help="at most this many hits (default 20)")
    search.add_argument("--json", action="store_true", help="one JSON object per hit")
    add_database_options(search)
    search.set_defaults(func=run_search)

    stats = subparsers.add_parser("stats", help="articles per site and day, duplicate and noise rates")
    stats.add_argument("--site", help="only this site")
    stats.add_argument("--since", type=iso_date, metavar="DATE", help="published (else first seen) on or after DATE")
    stats.add_argument("--until", type=iso_date, metavar="DATE", help="published (else first seen) on or before DATE")
    stats.add_argument("--plot", metavar="OUT.png", help="draw articles per day per site into a PNG")
    stats.add_argument("--digest", action="store_true",
                       help="print only the published corpus's digest (equal digests: the same corpus)")
    add_database_options(stats)
    stats.set_defaults(func=run_stats)


def _check_date_range(args) -> None:
    """--since after --until selects nothing: a mistake, said so, not an empty table."""
    if args.since is not None and args.until is not None and args.since > args.until:
        raise CommandError(f"--since {args.since} is after --until {args.until}: no article can match")


def _settings(pairs: list[str]) -> dict:
    """The --set values, checked here as `scrapy crawl site` checks -s, not in the build's crawl process once the
    build has begun: each by its setting rule, and a bound on connections that fits no site."""
    from newscorpus.builds.crawl_child import sites_at_once
    from newscorpus.crawler.runner import project_settings
    from newscorpus.crawler.setting_rules import check_settings
    from newscorpus.crawler.stage_settings import SettingError

    settings = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise CommandError(f"--set {pair!r}: expected NAME=VALUE")
        settings[name.strip()] = value
    crawl = project_settings(settings)
    try:
        check_settings(crawl)
    except SettingError as error:
        raise CommandError(f"--set: {error}") from None
    try:
        sites_at_once(crawl)
    except SettingError as error:
        raise CommandError(str(error)) from None
    return settings


def build_site_configs(names: str | None, paths: list[str]) -> list:
    """The sites a build crawls: --sites names, plus --site-config files; with neither, $NEWSCORPUS_BUILD_SITES,
    else every packaged config but the demo's."""
    from newscorpus.crawler.site_config import SiteConfigError, load_site_config, site_config_dirs

    if names is None and not paths:
        names = os.environ.get(BUILD_SITES_VARIABLE) or None
    if names is None and not paths:
        packaged = site_config_dirs()[-1]
        names = ",".join(sorted(p.stem for p in packaged.glob("*.toml") if p.stem not in EXCLUDED_BY_DEFAULT))
    configs = []
    try:
        for name in [n.strip() for n in (names or "").split(",") if n.strip()]:
            configs.append(load_site_config(name))
        configs.extend(load_site_config(path) for path in paths)
    except SiteConfigError as error:
        raise CommandError(str(error)) from None
    seen: dict[str, str] = {}
    for config in configs:
        if config.name in seen and seen[config.name] != config.source:
            raise CommandError(f"two configs name the site {config.name!r}: {seen[config.name]}, {config.source}")
        seen[config.name] = config.source
    return list({config.name: config for config in configs}.values())


def run_build_command(args) -> int:
    from newscorpus.builds.progress import ProgressReporter
    from newscorpus.builds.report import human_summary
    from newscorpus.builds.runner import EXIT_FAILED, EXIT_LOCKED, BuildLocked, BuildRequest, BuildSetupError, run_build
    from newscorpus.store.errors import DatabaseError

    configs = build_site_configs(args.sites, args.site_config)
    request = BuildRequest(sites=configs, out_dir=Path(args.out), since=args.since,
                           crawl_settings=_settings(args.set), restart=args.restart,
                           crawl_processes=args.crawl_processes)
    dsn = open_database(args, create=True)
    try:
        outcome = run_build(dsn, request, ProgressReporter(every_seconds=args.log_every))
    except BuildLocked as error:
        print(f"newscorpus: {error}", file=sys.stderr)
        return EXIT_LOCKED
    except (BuildSetupError, DatabaseError) as error:
        raise CommandError(str(error)) from None
    except Exception as error:  # recorded as failed in the builds table; the traceback is for the cron mail
        logger.error("build failed: %s", error, exc_info=True)
        print(f"newscorpus: build failed: {type(error).__name__}: {error}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps(outcome.report, ensure_ascii=False, indent=2, default=str))
    else:
        print(human_summary(outcome.report))
    return outcome.exit_code


def run_search(args) -> int:
    from newscorpus.builds.search_index import search
    from newscorpus.cli.terminal_progress import Counter
    from newscorpus.store.errors import DatabaseError

    if not args.query.strip():
        raise CommandError("give some words to search for")
    _check_date_range(args)
    dsn = open_database(args)
    check_site(dsn, args.site)
    bars: list[Counter] = []

    def indexing(done: int, total: int) -> None:  # a bar only when articles were queued for indexing
        if not bars:
            bars.append(Counter("indexing new articles for search", "article", total=total))
        bars[0].update(done)

    try:
        hits = search(dsn, args.query, site=args.site, since=args.since, until=args.until, limit=args.limit,
                      progress=indexing)
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    finally:
        for bar in bars:
            bar.close()
    for number, hit in enumerate(hits, 1):
        when = (hit.published_at or hit.first_seen).strftime("%Y-%m-%d")
        if args.json:
            print(json.dumps({"rank": round(hit.rank, 6), "id": hit.id, "site": hit.site, "date": when,
                              "title": hit.title, "url": hit.url, "language": hit.language,
                              "snippet": hit.snippet}, ensure_ascii=False))
        else:
            print(f"{number:>3}. [{hit.rank:.3f}] {when}  {hit.site}  {hit.title or '(no title)'}\n"
                  f"     {hit.url}\n     {hit.snippet}")
    print(f"{len(hits)} article(s)", file=sys.stderr)
    return 0


def _percent(value: float | None) -> str:
    from newscorpus.builds.corpus_stats import NO_RATE

    return NO_RATE if value is None else f"{value:.1%}"


def run_stats(args) -> int:
    from newscorpus.builds.corpus_stats import corpus_stats, plot_articles_per_day
    from newscorpus.store.errors import DatabaseError

    _check_date_range(args)
    dsn = open_database(args)
    check_site(dsn, args.site)
    if args.digest:
        from newscorpus.store.derivation import corpus_digest

        try:
            digest, count = corpus_digest(dsn, args.site)
        except DatabaseError as error:
            raise CommandError(str(error)) from None
        print(f"{digest}  {count} article(s)")
        return 0
    try:
        stats = corpus_stats(dsn, site=args.site, since=args.since, until=args.until)
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    print("articles per site and day (published, else first seen):")
    for site, days in sorted(stats.per_day.items()):
        print(f"  {site}: {stats.total(site)} article(s), {len(days)} day(s)")
        for day, count in sorted(days.items()):
            print(f"    {day}  {count:>6}")
    print("rates (all stored articles of each site):")
    for site, rates in sorted(stats.rates.items()):
        cleaned = "" if rates.cleaned_articles is None else f" of {rates.cleaned_articles} cleaned article(s)"
        print(f"  {site}: {rates.articles} article(s); exact duplicates (same body) "
              f"{_percent(rates.exact_duplicate_rate)}; near duplicates {_percent(rates.near_duplicate_rate)}; "
              f"noise lines {_percent(rates.noise_rate)}{cleaned}")
    if args.plot:
        try:
            plot_articles_per_day(stats, Path(args.plot))
        except ImportError:
            raise CommandError("--plot needs matplotlib (a dependency of newscorpus): reinstall the package") from None
        except OSError as error:
            raise CommandError(f"cannot write {args.plot}: {error}") from None
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0
