"""The crawl's downloader middlewares: scope, refetch, back-off retries, redirect loops."""
