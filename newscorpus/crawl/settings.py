"""Scrapy settings of newscorpus, with every NEWSCORPUS_* default in one place (override with ``-s NAME=VALUE``)."""

from __future__ import annotations

import os

BOT_NAME = "newscorpus"
SPIDER_MODULES = ["newscorpus.crawl.spiders"]
NEWSPIDER_MODULE = "newscorpus.crawl.spiders"
COMMANDS_MODULE = "newscorpus.crawl.commands"        # `scrapy crawl` checks the site config and database up front

# --- Politeness -------------------------------------------------------------------------------------------
USER_AGENT = os.environ.get("NEWSCORPUS_USER_AGENT", "newscorpus/0.1 (news corpus crawler; polite)")
ROBOTSTXT_OBEY = True
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0   # Scrapy's recommended ceiling for being polite to one server
CONCURRENT_REQUESTS = 32
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_DELAY = 0.25
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024     # news pages are < 1 MB; 10 MB leaves room for inline-image pages
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
# Retries with exponential back-off (newscorpus.crawl.middlewares.BackoffRetryMiddleware replaces Scrapy's).
RETRY_ENABLED = True
RETRY_TIMES = 3
DOWNLOADER_MIDDLEWARES = {
    # first: redirects to other hosts / internal addresses stop here
    "newscorpus.crawl.scope.CrawlScopeMiddleware": 50,
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "newscorpus.crawl.middlewares.BackoffRetryMiddleware": 550,
    # after scope, before robots.txt: stored articles cost nothing
    "newscorpus.crawl.refetch.StoredArticleSkipMiddleware": 60,
    "newscorpus.crawl.middlewares.RedirectLoopMiddleware": 650,  # sees a redirect before RedirectMiddleware (600)
}
NEWSCORPUS_RETRY_BACKOFF_SECONDS = 1.0      # first wait; doubled per retry of the same request
NEWSCORPUS_RETRY_BACKOFF_MAX_SECONDS = 60.0
# Every answer is recorded in the pages table, 404 and a 500 that retries did not cure included.
HTTPERROR_ALLOW_ALL = True

# --- Scope ----------------------------------------------------------------------------------------------
DEPTH_LIMIT = 0                             # Scrapy's own limit off: the site spider applies NEWSCORPUS_MAX_DEPTH
NEWSCORPUS_MAX_DEPTH = 4                    # link hops from a start page, unless the site config says otherwise
NEWSCORPUS_MAX_PAGES = 0                    # 0 = no limit, unless the site config sets max_pages
NEWSCORPUS_SITES_DIRS: list[str] = []       # extra folders searched for NAME.toml before newscorpus/crawl/sites
# Loopback/private/link-local hosts are refused unless the site config sets allow_private_addresses; this
# setting allows them for ad-hoc `-a url=` crawls (an intranet site, a local test server).
NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES = False

# --- Pipeline -------------------------------------------------------------------------------------------
ITEM_PIPELINES = {
    "newscorpus.stages.extraction.ExtractionPipeline": 100,
    "newscorpus.stages.line_noise.LineNoisePipeline": 300,
    "newscorpus.stages.near_duplicate.NearDuplicatePipeline": 500,
    "newscorpus.stages.storage.StoragePipeline": 900,
}
EXTENSIONS = {
    "newscorpus.crawl.database.CrawlDatabase": 0,
    "newscorpus.crawl.jobdir_guard.JobdirCrashGuard": 0,   # JOBDIR resume after SIGKILL loses nothing
}
NEWSCORPUS_EXTRACTION_ENABLED = True
NEWSCORPUS_EXTRACTION_MAX_SECONDS = 5.0     # per page; the slowest dev page takes < 0.5 s
NEWSCORPUS_EXTRACTION_WORKERS = 0           # 0 = in the crawl process; N = a pool of N processes (BENCHMARKS.md)
# Site-aware extraction (newscorpus.core.site_aware, issue 5; research base 001 and 003): per-site templates that
# repair themselves, then same-site cluster difference, then the generic extractor; state kept in Postgres
# (site_templates, site_skeletons), same per-page time cap. On: at or above the generic extractor on every
# multi-page dev site, with its thresholds as set and fitted leave-one-site-out (docs/site_aware_results.md).
# It needs NEWSCORPUS_EXTRACTION_WORKERS = 0 (the per-site state lives in-process): a worker pool asked for
# turns it off, asking for both is an error.
NEWSCORPUS_SITEAWARE_ENABLED = True
# Line noise (newscorpus.stages.line_noise, issue 4; research base 000 section 2.2): lines that many articles of a site
# contain are removed; a line is noise when LC > int(1 + RC / L) and LC >= MIN_ARTICLES.
NEWSCORPUS_LINENOISE_ENABLED = True
NEWSCORPUS_LINENOISE_L = 50                     # the paper's L: one more repetition allowed per 50 articles
NEWSCORPUS_LINENOISE_MIN_ARTICLES = 3           # issue 4: "with fewer than 50 articles a line seen in 3 is noise"
NEWSCORPUS_LINENOISE_PRUNE_DIVISOR = 100        # the paper: forget lines with LC <= RC / 100
NEWSCORPUS_LINENOISE_PRUNE_INTERVAL = 100       # prune every 100 articles of a site (docs/line_noise_results.md)
NEWSCORPUS_LINENOISE_WARMUP = 50                # re-clean a site's earlier articles once RC reaches L (= 50)
NEWSCORPUS_LINENOISE_GUARD_SHARE = 0.25         # a line >= 1/4 of a body needs GUARD_ARTICLES articles (ours)
NEWSCORPUS_LINENOISE_GUARD_ARTICLES = 10
NEWSCORPUS_LINENOISE_MIN_SHARE = 0.2            # issue 15: noise only in >= 1/5 of a site's articles (LineNoiseConfig)
NEWSCORPUS_LINENOISE_MID_BODY_SHARE = 0.5       # issue 15: mid-body (not start/end run, not links) only in a majority
# Near-duplicates (newscorpus.stages.near_duplicate, issue 6; research base 002): keywords around title keywords,
# simhash and a shingle sketch, looked up in a Postgres index; a duplicate is stored and linked to its canonical
# article.
NEWSCORPUS_DEDUP_ENABLED = True
NEWSCORPUS_DEDUP_WINDOW = 5                 # ±w tokens around a title keyword: `eval dedup --tune` grid best
NEWSCORPUS_DEDUP_M = 2                      # windows a body word must appear in (--tune, docs/dedup_results.md)
NEWSCORPUS_DEDUP_TAU = 0.15                 # keyword overlap |A∩B|/min(|A|,|B|): --tune fit, plateau 0.10-0.25
NEWSCORPUS_DEDUP_BODY_TAU = 0.45            # body 5-shingle containment: --tune fit, plateau 0.40-0.50
NEWSCORPUS_DEDUP_SIMHASH_DISTANCE = 3       # Hamming bound of a near copy (Manku et al. 2007)
# 0 = features computed in the stage's thread; 1 = in a process of its own, off the reactor's core (issue 18,
# benchmarks/crawl_rate.py: see BENCHMARKS.md for the measurement that set the default).
NEWSCORPUS_DEDUP_WORKERS = 0
NEWSCORPUS_DEDUP_BATCH_SIZE = 64            # per transaction at most; 64 vs 32: 261 vs 205 docs/s at 100k (BENCHMARKS)
NEWSCORPUS_STORAGE_BATCH_SIZE = 50          # rows per transaction; flushes also at the end of a crawl

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
# With a Redis URL (environment or -s), the add-on newscorpus.crawl.distributed.addon.RedisFrontier switches the
# scheduler and duplicate filter to scrapy-redis's (per site, per run keys: newscorpus/crawl/distributed/keys.py), so
# every `scrapy crawl site -a site=X` started with it, on any machine, shares one frontier and one Postgres.
# Unset: plain Scrapy, as before.
NEWSCORPUS_REDIS_URL = os.environ.get("NEWSCORPUS_REDIS_URL") or None
NEWSCORPUS_REDIS_KEY_PREFIX = "newscorpus"  # keys are PREFIX:SITE:run and PREFIX:SITE:RUN:{requests,dupefilter,...}
# A worker closes once the run's queue is empty and no worker has been active for this long. It must outlast
# the longest stall of a busy worker's heartbeat: one page's extraction (NEWSCORPUS_EXTRACTION_MAX_SECONDS, 5 s)
# plus a heartbeat; every crawl's tail waits this long once.
NEWSCORPUS_REDIS_IDLE_SECONDS = 10.0
NEWSCORPUS_REDIS_HEARTBEAT_SECONDS = 1.0    # how often a worker reports activity and reads the run's state
ADDONS = {"newscorpus.crawl.distributed.addon.RedisFrontier": 0}

# --- Scrapy plumbing ------------------------------------------------------------------------------------
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
FEED_EXPORT_ENCODING = "utf-8"
LOG_FORMATTER = "newscorpus.crawl.log_formatter.UrlLogFormatter"   # an item is logged by its URL, never dumped
LOG_LEVEL = os.environ.get("NEWSCORPUS_LOG_LEVEL", "INFO")
TELNETCONSOLE_ENABLED = False
