import psycopg

from newscorpus.core.site_aware.cascade import METHOD_TEMPLATE, SiteAwareExtractor
from newscorpus.store.migrations import migrate
from newscorpus.store.site_aware import SiteTemplateStore
from tests.core.site_aware.pages import article, url

SITE = "news.example.com"


def _migrated(dsn: str) -> str:
    with psycopg.connect(dsn) as connection:
        migrate(connection)
    return dsn


def test_templates_and_skeletons_survive_a_restart_with_counts_added(database_dsn):
    store = SiteTemplateStore(_migrated(database_dsn))
    first = SiteAwareExtractor()
    for n in range(1, 7):
        first.extract(article(n), url(n))
    first.extract(article(20, relaid=True), url(20))  # one repair
    assert store.save(first) == 1
    [row] = store.list(SITE)
    assert row.hits == first.templates()[0].hits >= 1 and row.repairs == 1
    assert len(row.template.fields["body"].xpaths) == 2  # the repaired XPath is stored

    second = SiteAwareExtractor()
    assert store.load(second, SITE) == 1
    assert second.sites[SITE].clusters  # reference skeletons came back
    assert second.extract(article(21, relaid=True), url(21)).method == METHOD_TEMPLATE
    assert second.counts.repairs == 0  # read by the stored repaired XPath
    store.save(second)
    [row] = store.list()
    assert row.hits == first.templates()[0].hits + 1  # the second process added its one hit
    assert row.repairs == 1
    assert store.list("other.example.com") == []


def test_a_dropped_template_is_deleted_and_not_loaded_again(database_dsn):
    store = SiteTemplateStore(_migrated(database_dsn))
    extractor = SiteAwareExtractor()
    for n in range(1, 7):
        extractor.extract(article(n), url(n))
    store.save(extractor)
    [template] = extractor.templates()
    state = extractor.state(SITE)
    state.templates.remove(template)  # as the cascade drops a template that stopped agreeing
    state.dropped.append(template)
    store.save(extractor)
    assert store.list(SITE) == [] and state.dropped == []
    again = SiteAwareExtractor()
    assert store.load(again, SITE) == 0 and again.templates() == []
