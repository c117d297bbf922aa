"""Feed exports of the crawl (`-o FILE`, `-O FILE`, FEEDS): Scrapy's FeedExporter, handed one article record per
stored article (newscorpus.crawler.article_record) instead of the page item, whose raw bytes no feed format can
hold (JSON refused them with a TypeError per page; CSV wrote them as text). Pages without an article (listings,
sitemaps, errors) are not in the feed; they are in the pages table. ``.parquet`` is one more format
(ParquetFeedExporter)."""

from __future__ import annotations

from scrapy.exporters import BaseItemExporter
from scrapy.extensions.feedexport import FeedExporter

from newscorpus.core.record_files import RecordWriter
from newscorpus.crawler.article_record import ARTICLE_FIELDS, ARTICLE_SCHEMA, article_record
from newscorpus.crawler.items import PageItem


class ArticleFeedExporter(FeedExporter):
    """Replaces scrapy.extensions.feedexport.FeedExporter (settings.EXTENSIONS_BASE); every feed option (format,
    fields, item_filter, batches, storages) works as Scrapy documents it, on the article records."""

    def item_scraped(self, item, spider) -> None:
        if isinstance(item, PageItem):
            item = article_record(item)
            if item is None:
                return
        super().item_scraped(item, spider)


class ParquetFeedExporter(BaseItemExporter):
    """The ``parquet`` feed format (FEED_EXPORTERS): the article records in the schema of
    newscorpus.crawler.article_record.ARTICLE_SCHEMA, zstd-compressed columns, in row groups."""

    def __init__(self, file, **kwargs):
        super().__init__(dont_fail=True, **kwargs)
        self.file = file
        self.writer: RecordWriter | None = None

    def start_exporting(self) -> None:
        self.writer = RecordWriter(self.file, "parquet", ARTICLE_FIELDS, schema=ARTICLE_SCHEMA)

    def export_item(self, item) -> None:
        self.writer.write({name: item.get(name) for name in ARTICLE_FIELDS})

    def finish_exporting(self) -> None:
        if self.writer is not None:
            self.writer.close()
