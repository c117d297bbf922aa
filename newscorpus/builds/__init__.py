"""Scheduled corpus builds: crawl, maintenance, snapshot, report; full-text search and corpus statistics."""
