"""Distributed crawling: `scrapy crawl site` workers share one frontier in Redis (scrapy-redis) and one Postgres."""
