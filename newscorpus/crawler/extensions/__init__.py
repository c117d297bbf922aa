"""The crawl's Scrapy extensions: the crawl database, the JOBDIR crash guard, the garbage collector's settings."""
