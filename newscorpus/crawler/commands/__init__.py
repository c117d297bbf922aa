"""Scrapy commands of the project (COMMANDS_MODULE): `crawl` with early, one-line errors."""
