"""`newscorpus ingest PATH...`: the HTML pages of WARC files through the crawl's stages into the corpus."""

from __future__ import annotations

import logging
import os
import sys
import time

from newscorpus.cli.database_options import add_database_options, open_database
from newscorpus.cli.main import CommandError

# The command's own lines: progress every few seconds while it runs (the crawl's progress extension), then a summary.
INGEST_SETTINGS = {"LOG_LEVEL": "WARNING", "NEWSCORPUS_CRAWL_SUMMARY": False}


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "ingest", help="store the HTML pages of WARC files (.warc, .warc.gz) as a crawl would",
        description="Read the response records of WARC files (files, folders, globs, or list files of paths: "
                    "*.txt, *.paths) and send their HTML pages through the crawl's stages: extraction, line noise, "
                    "near-duplicates, storage. See docs/warc.md.")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="a WARC file, a folder, a glob or a list file")
    parser.add_argument("--shared", metavar="NAME",
                        help="share the files through Redis with every `ingest --shared NAME`: each file is ingested "
                             "once, by one of them; without PATH, join the list")
    parser.add_argument("--redis", metavar="URL", help="the Redis of --shared (default: $NEWSCORPUS_REDIS_URL)")
    parser.add_argument("--site", action="append", default=[], metavar="NAME",
                        help="a site config (NAME or path) tried first for the pages' hosts (may be repeated)")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a crawl setting, as `scrapy crawl -s` takes it (may be repeated)")
    add_database_options(parser)
    parser.set_defaults(func=run_ingest)


def _settings(pairs: list[str]) -> dict:
    settings = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise CommandError(f"-s {pair}: need NAME=VALUE")
        settings[name] = value
    return settings


def run_ingest(args) -> int:
    from newscorpus.core.warc import WarcPathError, warc_paths
    from newscorpus.crawler.distributed.connection import RedisSettingError, checked_redis_client
    from newscorpus.crawler.runner import ingest_warc, project_settings
    from newscorpus.crawler.site_config import SiteConfigError, load_site_config
    from newscorpus.crawler.stage_settings import SettingError, check_stage_settings

    # Redis holds the shared file list only: the crawl's Redis frontier (NEWSCORPUS_REDIS_URL) stays off.
    overrides = {**INGEST_SETTINGS, **_settings(args.set), "NEWSCORPUS_REDIS_URL": None}
    redis_url = args.redis or os.environ.get("NEWSCORPUS_REDIS_URL")
    if not args.paths and not args.shared:
        raise CommandError("give a WARC file, folder, glob or list file (or --shared NAME to join a shared list)")
    if args.shared and not redis_url:
        raise CommandError("--shared needs a Redis: --redis URL or $NEWSCORPUS_REDIS_URL")
    try:
        paths = warc_paths(args.paths) if args.paths else []
        if args.shared:
            checked_redis_client(redis_url).close()
        settings = project_settings(overrides)
        configs = [load_site_config(name, settings.getlist("NEWSCORPUS_SITES_DIRS")) for name in args.site]
        check_stage_settings(settings)
    except (WarcPathError, SiteConfigError, SettingError, RedisSettingError) as error:
        raise CommandError(str(error)) from None
    dsn = open_database(args, create=True)
    progress = logging.getLogger("newscorpus.crawler.extensions.crawl_progress")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    progress.addHandler(handler)
    progress.setLevel(logging.INFO)
    progress.propagate = False
    started = time.perf_counter()
    try:
        stats = ingest_warc(paths, {**overrides, "NEWSCORPUS_DB_DSN": dsn}, site_configs=configs,
                            install_root_handler=False, shared=args.shared, redis_url=redis_url)
    finally:
        progress.removeHandler(handler)
    seconds = time.perf_counter() - started
    print(summary(stats, stats.get("newscorpus/warc/files", 0), seconds))
    reason = stats.get("finish_reason")
    if reason != "finished" or stats.get("newscorpus/storage/pages_unsaved"):
        print(f"ingest ended with {reason}", file=sys.stderr)
        return 1
    return 0


def summary(stats: dict, files: int, seconds: float) -> str:
    records = stats.get("newscorpus/warc/records", 0)
    outcomes = ", ".join(f"{name.rsplit('/', 1)[1]}={value}" for name, value in sorted(stats.items())
                         if name.startswith("newscorpus/outcome/"))
    return (f"ingested {files} WARC file(s): {records} response record(s) in {seconds:.1f}s "
            f"({records / max(seconds, 1e-9):.1f}/s); unreadable: {stats.get('newscorpus/warc/corrupt_records', 0)}, "
            f"truncated: {stats.get('newscorpus/warc/truncated', 0)}\noutcomes: {outcomes or 'none'}\n"
            f"articles new: {stats.get('newscorpus/storage/articles_new', 0)}, "
            f"unchanged: {stats.get('newscorpus/storage/articles_unchanged', 0)}, "
            f"updated: {stats.get('newscorpus/storage/articles_updated', 0)}")
