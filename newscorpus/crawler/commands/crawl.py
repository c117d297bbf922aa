"""`scrapy crawl`, checking the site config, the stage settings, the database and Redis (when set) before the
reactor starts, so that a missing config, a bad setting, a bad DSN or an unreachable server is one clear line and
exit code 2, not a traceback. A crawl that could not save every page it fetched (the database away for too long),
or could not write to its JOBDIR (a full disk), exits with code 1."""

from __future__ import annotations

import gc
import sys
from urllib.parse import urlsplit

# Imported here, first: Scrapy's deprecated TLS class aliases in these modules each call inspect.stack() at import,
# which reads the source of every frame above and scans every loaded module; imported later, from deep in the
# engine's start with the stages' ~200 more modules loaded, they would cost each crawl's start more (python -X
# importtime).
import scrapy.core.downloader.contextfactory  # noqa: F401
from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.utils.misc import load_object

from newscorpus.core.warc import WarcPathError, warc_paths
from newscorpus.crawler.distributed.connection import RedisSettingError, checked_redis_client
from newscorpus.crawler.extensions.collector import check_collector_settings
from newscorpus.crawler.extensions.crawl_database import DATABASE_UNAVAILABLE, CrawlDatabase, prepare_in_background
from newscorpus.crawler.jobdir_scheduler import WRITE_FAILED_STAT
from newscorpus.crawler.scope import resolves_internal
from newscorpus.crawler.setting_rules import check_settings
from newscorpus.crawler.site_config import SiteConfigError
from newscorpus.crawler.spiders.site import site_config_of
from newscorpus.crawler.stage_settings import SettingError, check_stage_settings
from newscorpus.store.connection import connect
from newscorpus.store.errors import DatabaseError


def resume_hint(jobdir: str | None) -> str:
    """What a person who stopped a crawl (Ctrl-C) can do next."""
    kept = (f"the request queue in {jobdir} is kept too" if jobdir else
            "add -s JOBDIR=DIR to keep the request queue across runs as well")
    return ("crawl stopped before the end (Ctrl-C or a stop signal); run the same command again to continue: "
            f"articles already stored are not fetched again; {kept}")


class Command(ScrapyCrawlCommand):
    crawler = None

    def run(self, args, opts) -> None:
        if args and args[0] == "warc":
            try:
                warc_paths([part for part in opts.spargs.get("path", "").split(",") if part]
                           or ["(-a path=FILE[,FILE...] is missing)"])
                check_stage_settings(self.settings)
                self.check_database()
            except (WarcPathError, SettingError, DatabaseError) as error:
                print(f"scrapy crawl warc: error: {error}", file=sys.stderr)
                self.exitcode = 2
                return
        if args and args[0] == "site":
            try:
                config = site_config_of(opts.spargs.get("site"), opts.spargs.get("url"),
                                        self.settings.getlist("NEWSCORPUS_SITES_DIRS"))
                check_settings(self.settings)
                check_stage_settings(self.settings)
                check_collector_settings(self.settings)
                self.check_extensions()
                self.check_database()
                self.check_redis()
                self.check_adhoc_host(opts.spargs.get("url"))
            except (SiteConfigError, SettingError, DatabaseError, RedisSettingError) as error:
                print(f"scrapy crawl site: error: {error}", file=sys.stderr)
                self.exitcode = 2
                return
            # Migrations (or the embedded server's start) run while Scrapy imports and builds the engine and stages,
            # not after the spider opens (a noticeable part of a crawl's start on a fresh schema).
            prepare_in_background(self.settings.get("NEWSCORPUS_DB_DSN"), self.settings.get("NEWSCORPUS_DB_DATA_DIR"))
            if opts.spargs.get("url"):  # the name its articles are stored under, and `--site` takes
                print(f"ad-hoc crawl of {opts.spargs['url']} as site {config.name}", file=sys.stderr)
        super().run(args, opts)
        # The crawl is over and everything it wrote is closed: the objects left are only freed at exit, where a last
        # full collection over all of them would cost the process a pause; frozen, it is skipped.
        gc.freeze()
        stats = self.crawler.stats if self.crawler is not None else None
        if stats is not None and stats.get_value("finish_reason") == "shutdown":
            print(resume_hint(self.settings.get("JOBDIR")), file=sys.stderr)
        if stats is not None and (stats.get_value("newscorpus/storage/pages_unsaved")
                                  or stats.get_value("finish_reason") == DATABASE_UNAVAILABLE
                                  or stats.get_value(WRITE_FAILED_STAT)):
            self.exitcode = 1

    def _create_crawler(self, spidercls):
        self.crawler = super()._create_crawler(spidercls)
        return self.crawler

    def check_extensions(self) -> None:
        """The spider and every stage store through the database extension: an EXTENSIONS setting that leaves it
        out (``-s EXTENSIONS='{...}'`` replaces the project's) is one line, not a traceback when the first stage
        opens."""
        enabled = {load_object(name) if isinstance(name, str) else name
                   for name, priority in self.settings.get_component_priority_dict_with_base("EXTENSIONS").items()
                   if priority is not None}
        if CrawlDatabase not in enabled:
            raise SettingError("EXTENSIONS: newscorpus.crawler.extensions.crawl_database.CrawlDatabase must stay "
                               "enabled (the crawl stores every page through it); add it to the EXTENSIONS you set")

    def check_adhoc_host(self, url: str | None) -> None:
        """An ad-hoc crawl of a loopback or private host would fetch nothing (the scope middleware refuses every
        request): refused before the crawl opens, so no empty site row is written."""
        if url and not self.settings.getbool("NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES") \
                and resolves_internal(urlsplit(url).hostname or ""):
            raise SiteConfigError(f"-a url={url}: the host is on a loopback or private network; add "
                                  "-s NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES=True to crawl it")

    def check_redis(self) -> None:
        url = self.settings.get("NEWSCORPUS_REDIS_URL")
        if url:
            checked_redis_client(url).close()

    def check_database(self) -> None:
        dsn = self.settings.get("NEWSCORPUS_DB_DSN")
        if dsn:  # the embedded server is started (and checked) when the crawl opens
            connect(dsn).close()
