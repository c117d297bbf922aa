"""Scrapy settings of newscorpus: every crawl default, the stages' taken from their config dataclasses (override
with ``-s NAME=VALUE``)."""

from __future__ import annotations

import os

from scrapy.settings.default_settings import EXTENSIONS_BASE as _SCRAPY_EXTENSIONS_BASE

from newscorpus.crawler.stage_settings import stage_defaults

BOT_NAME = "newscorpus"
SPIDER_MODULES = ["newscorpus.crawler.spiders"]
NEWSPIDER_MODULE = "newscorpus.crawler.spiders"
COMMANDS_MODULE = "newscorpus.crawler.commands"        # `scrapy crawl` checks the site config and database up front

# --- Politeness -------------------------------------------------------------------------------------------
USER_AGENT = os.environ.get("NEWSCORPUS_USER_AGENT", "newscorpus/0.1 (news corpus crawler; polite)")
ROBOTSTXT_OBEY = True
ROBOTSTXT_PARSER = "newscorpus.crawler.middlewares.robots_txt.BoundedRobotParser"  # its first 500 KiB (RFC 9309)
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0   # Scrapy's recommended ceiling for being polite to one server
CONCURRENT_REQUESTS = 32
CONCURRENT_REQUESTS_PER_DOMAIN = 4
# Scrapy's, with that per-host limit held whatever the delay (newscorpus/crawler/downloader.py says why).
DOWNLOADER = "newscorpus.crawler.downloader.HostLimitDownloader"
DOWNLOAD_DELAY = 0.25
# Scrapy starts this many asyncio tasks for every response's output, whatever it holds (scrapy.utils.asyncio.
# _parallel_asyncio); a page gives one article or a list of links, so 100 (the default) only costs: 8 takes CPU
# and peak RSS off a demo crawl with every stage, with pages/s unchanged (benchmarks/crawl_rate.py); 2 slows the
# near-duplicate stage's batching.
CONCURRENT_ITEMS = 8
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024     # news pages are < 1 MB; 10 MB leaves room for inline-image pages
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
# Retries with exponential back-off (newscorpus.crawler.middlewares.backoff_retry.BackoffRetryMiddleware replaces
# Scrapy's).
RETRY_ENABLED = True
RETRY_TIMES = 3
DOWNLOADER_MIDDLEWARES = {
    # first: redirects to other hosts / internal addresses stop here
    "newscorpus.crawler.middlewares.scope.CrawlScopeMiddleware": 50,
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "newscorpus.crawler.middlewares.backoff_retry.BackoffRetryMiddleware": 550,
    # after scope, before robots.txt: stored articles cost nothing
    "newscorpus.crawler.middlewares.refetch.StoredArticleSkipMiddleware": 60,
    # a robots.txt past DOWNLOAD_MAXSIZE is fetched up to 500 KiB; its response seen before HttpCompression-
    # Middleware's (590), which then decompresses a compressed one under the usual limit
    "newscorpus.crawler.middlewares.robots_txt.RobotsTxtFetchMiddleware": 595,
    # sees a redirect before RedirectMiddleware (600)
    "newscorpus.crawler.middlewares.redirect_loop.RedirectLoopMiddleware": 650,
    # next to the downloader: each response as received, before decompression, redirects and retries
    "newscorpus.crawler.middlewares.warc_output.WarcOutputMiddleware": 990,
}
NEWSCORPUS_RETRY_BACKOFF_SECONDS = 1.0      # first wait; doubled per retry of the same request
NEWSCORPUS_RETRY_BACKOFF_MAX_SECONDS = 60.0
# Every answer is recorded in the pages table, 404 and a 500 that retries did not cure included.
HTTPERROR_ALLOW_ALL = True

# --- Scope ----------------------------------------------------------------------------------------------
DEPTH_LIMIT = 0                             # Scrapy's own limit off: the site spider applies NEWSCORPUS_MAX_DEPTH
NEWSCORPUS_MAX_DEPTH = 4                    # link hops from a start page, unless the site config says otherwise
NEWSCORPUS_MAX_PAGES = 0                    # 0 = no limit, unless the site config sets max_pages
NEWSCORPUS_SITES_DIRS: list[str] = []       # extra folders searched for NAME.toml before newscorpus/crawler/sites
# Loopback/private/link-local hosts are refused unless the site config sets allow_private_addresses; this
# setting allows them for ad-hoc `-a url=` crawls (an intranet site, a local test server).
NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES = False

# --- Pipeline -------------------------------------------------------------------------------------------
ITEM_PIPELINES = {
    "newscorpus.pipelines.extraction.ExtractionPipeline": 100,
    "newscorpus.pipelines.line_noise.LineNoisePipeline": 300,
    "newscorpus.pipelines.near_duplicate.NearDuplicatePipeline": 500,
    "newscorpus.pipelines.storage.StoragePipeline": 900,
}
EXTENSIONS = {
    "newscorpus.crawler.extensions.crawl_database.CrawlDatabase": 0,
    "newscorpus.crawler.extensions.jobdir_guard.JobdirCrashGuard": 0,   # JOBDIR resume after SIGKILL loses nothing
    "newscorpus.crawler.extensions.collector.StartUpObjectsFrozen": 0,  # the collector skips what start-up made
    "newscorpus.crawler.extensions.collector.YoungGenerationThreshold": 0,  # young objects collected less often
    "newscorpus.crawler.extensions.crawl_summary.CrawlSummary": 0,      # a few lines at the end of the crawl
    "newscorpus.crawler.extensions.crawl_progress.CrawlProgress": 0,    # a progress line every few seconds
}
NEWSCORPUS_PROGRESS_SECONDS = 5.0          # a progress line this often (0 = none); Scrapy's own is every 60 s
NEWSCORPUS_CRAWL_SUMMARY = True            # the few lines at the end (`newscorpus demo` prints its own)
NEWSCORPUS_FREEZE_START_UP_OBJECTS = True   # off: every full collection goes through them again
# 0: Python's own (700); newscorpus/crawler/extensions/collector.py says why
NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD = 50_000
# Scrapy's telnet console and remote control are off (TELNETCONSOLE_ENABLED, REMOTE_CONTROL_ENABLED below) and left
# out of Scrapy's own list so that they are not even imported: their modules load aiohttp's web server and Twisted's
# conch, a tenth of a second of every crawl's start-up (python -X importtime). Setting them to None in
# EXTENSIONS would not do: Scrapy imports every key of EXTENSIONS to merge it with EXTENSIONS_BASE.
# SpiderState pickles spider.state into the JOBDIR at close, which no spider of ours uses: one write less to fail.
_NEVER_LOADED_EXTENSIONS = {"scrapy.extensions.telnet.TelnetConsole",
                            "scrapy.extensions.remote_control.RemoteControl",
                            "scrapy.extensions.spiderstate.SpiderState"}
# Feed exports (-o FILE) write one article record per stored article, never the page's bytes
# (newscorpus/crawler/extensions/article_feed.py); .parquet is one more format.
_REPLACED_EXTENSIONS = {"scrapy.extensions.feedexport.FeedExporter":
                        "newscorpus.crawler.extensions.article_feed.ArticleFeedExporter"}
EXTENSIONS_BASE = {_REPLACED_EXTENSIONS.get(name, name): order for name, order in _SCRAPY_EXTENSIONS_BASE.items()
                   if name not in _NEVER_LOADED_EXTENSIONS}
FEED_EXPORTERS = {"parquet": "newscorpus.crawler.extensions.article_feed.ParquetFeedExporter"}
# Stage settings: NEWSCORPUS_<STAGE>_ENABLED (on) and NEWSCORPUS_<STAGE>_<FIELD> for each field of the stage's config
# dataclass, whose defaults and their sources are written there only (newscorpus/crawler/stage_settings.py):
#   EXTRACTION      newscorpus.core.extraction.config.ExtractionConfig   per-page time cap, worker pool
#   SITE_AWARE      newscorpus.core.site_aware.cascade.SiteAwareConfig   per-site templates and clusters
#   LINE_NOISE      newscorpus.core.line_noise.LineNoiseConfig           per-site repeated lines
#   NEAR_DUPLICATE  newscorpus.core.near_duplicate.config.NearDuplicateConfig   reprints linked to a canonical
#   STORAGE         newscorpus.core.storage_config.StorageConfig         pages per transaction
# e.g. -s NEWSCORPUS_LINE_NOISE_PER_ARTICLES=20, -s NEWSCORPUS_NEAR_DUPLICATE_ENABLED=False. Site-aware extraction
# needs NEWSCORPUS_EXTRACTION_WORKERS = 0 (its per-site state lives in the crawl process): a worker pool asked for
# turns it off, asking for both is an error (newscorpus/pipelines/extraction.py). The former names
# (NEWSCORPUS_LINENOISE_L, NEWSCORPUS_DEDUP_M, ...) still work, with a deprecation warning.
globals().update(stage_defaults())

# --- WARC files -----------------------------------------------------------------------------------------
# `newscorpus ingest` / `scrapy crawl warc`: records in the stages at once. About two near-duplicate batches (64
# each, NearDuplicateConfig.batch_size), so batches stay full while memory stays flat over a file of any size
# (benchmarks/warc_ingest.py).
NEWSCORPUS_WARC_IN_FLIGHT = 128
# A folder: every response a crawl receives is also written there as WARC/1.1 request + response records
# (newscorpus.crawler.middlewares.warc_output); unset: none written.
NEWSCORPUS_WARC_OUTPUT = os.environ.get("NEWSCORPUS_WARC_OUTPUT") or None
# A new WARC file once the current one holds this many bytes: about 1 GB, as Common Crawl's files.
NEWSCORPUS_WARC_OUTPUT_MAX_BYTES = 1_000_000_000

# --- Database -------------------------------------------------------------------------------------------
# A DSN (postgresql://user:pass@host/db); unset = an embedded Postgres in NEWSCORPUS_DB_DATA_DIR.
NEWSCORPUS_DB_DSN = os.environ.get("NEWSCORPUS_DB_DSN") or None
NEWSCORPUS_DB_DATA_DIR = os.environ.get("NEWSCORPUS_DB_DATA_DIR", ".newscorpus/pg")
# (environment only) NEWSCORPUS_DB_IDLE_SECONDS: the embedded server stops after this long with no live process
# using it; default 600 (newscorpus/store/embedded_server.py), 0 = when the last one exits.
# A lost or refused connection is retried this many times (waits 0.5, 1, 2, ... 30 s: 8 attempts = 61.5 s,
# newscorpus/store/retry.py); after that the crawl stops (finish reason database_unavailable), every page not saved
# counted and fetched again by the next run.
NEWSCORPUS_DB_RETRY_ATTEMPTS = 8

# --- Not fetched again ------------------------------------------------------------------------------------
# An article URL stored and seen less than this many hours ago is not fetched (one lookup on articles.url);
# listing pages, sitemaps and feeds are always fetched. A week: news pages rarely change after their first
# days, and a weekly re-check still catches corrections. 0 = always fetch again (and re-store if changed).
NEWSCORPUS_REFETCH_AFTER_HOURS = 168

# --- Distributed crawling (scrapy-redis) ----------------------------------------------------------------
# With a Redis URL (environment or -s), the add-on newscorpus.crawler.distributed.addon.RedisFrontier switches the
# scheduler and duplicate filter to scrapy-redis's (per site, per run keys: newscorpus/crawler/distributed/keys.py), so
# every `scrapy crawl site -a site=X` started with it, on any machine, shares one frontier and one Postgres.
# Unset: plain Scrapy, as before.
NEWSCORPUS_REDIS_URL = os.environ.get("NEWSCORPUS_REDIS_URL") or None
NEWSCORPUS_REDIS_KEY_PREFIX = "newscorpus"  # keys are PREFIX:SITE:run and PREFIX:SITE:RUN:{requests,dupefilter,...}
# A worker closes once the run's queue is empty and no worker has been active for this long. It must outlast
# the longest stall of a busy worker's heartbeat: one page's extraction (NEWSCORPUS_EXTRACTION_MAX_SECONDS, 5 s)
# plus a heartbeat; every crawl's tail waits this long once.
NEWSCORPUS_REDIS_IDLE_SECONDS = 10.0
NEWSCORPUS_REDIS_HEARTBEAT_SECONDS = 1.0    # how often a worker reports activity and reads the run's state
ADDONS = {"newscorpus.crawler.distributed.addon.RedisFrontier": 0}

# --- Scrapy plumbing ------------------------------------------------------------------------------------
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
FEED_EXPORT_ENCODING = "utf-8"
LOG_FORMATTER = "newscorpus.crawler.log_formatter.UrlLogFormatter"   # an item is logged by its URL, never dumped
LOG_LEVEL = os.environ.get("NEWSCORPUS_LOG_LEVEL", "INFO")
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False  # Scrapy 2.19's HTTP control endpoint, opened by every crawl: off, as telnet
