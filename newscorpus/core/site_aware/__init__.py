"""Site-aware extraction: self-repairing per-site templates and same-site structure clustering.

Pure cores: no Scrapy, Twisted or psycopg imports (a test checks it).
"""
