"""The near-duplicate decisions of a batch, without a database: linking to a stored cluster, promoting a longer
copy over a truncated canonical, unchanged articles, and articles of one batch deciding against each other."""

from __future__ import annotations

import pytest

from newscorpus.core.near_duplicate.batch import (
    ArticleToRecord,
    Candidate,
    Link,
    LockedRoots,
    Lookup,
    NearDuplicateOutcome,
    Promotion,
    StoredArticle,
    link_batch,
    match_batch,
)
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import DocumentFeatures, build_features
from newscorpus.core.near_duplicate.simhash import hamming_distance
from newscorpus.core.text import source_hash
from tests.core.near_duplicate.texts import (
    EN_FOLLOWUP_PARAGRAPHS,
    EN_FOLLOWUP_TITLE,
    EN_PARAGRAPHS,
    EN_TITLE,
    ZH_FOLLOWUP_PARAGRAPHS,
    ZH_FOLLOWUP_TITLE,
    ZH_PARAGRAPHS,
    ZH_TITLE,
    en_reprint,
    zh_reprint,
)

CONFIG = NearDuplicateConfig()
STORIES = {  # language -> (the full story, a reprint of it, a truncated copy (half the paragraphs), another story)
    "zh": ((ZH_TITLE, "\n".join(ZH_PARAGRAPHS)), zh_reprint(), (ZH_TITLE, "\n".join(ZH_PARAGRAPHS[:3])),
           (ZH_FOLLOWUP_TITLE, "\n".join(ZH_FOLLOWUP_PARAGRAPHS))),
    "en": ((EN_TITLE, "\n\n".join(EN_PARAGRAPHS)), en_reprint(), (EN_TITLE, "\n\n".join(EN_PARAGRAPHS[:3])),
           (EN_FOLLOWUP_TITLE, "\n\n".join(EN_FOLLOWUP_PARAGRAPHS))),
}


def article(url: str, lang: str, text: tuple[str, str]) -> ArticleToRecord:
    return ArticleToRecord(url, 1, source_hash(*text), build_features(*text, lang, CONFIG))


def candidate(article_id: int, features: DocumentFeatures, of: ArticleToRecord, root: int | None = None
              ) -> Candidate:
    """A stored article as the batch lookup returns it for ``of``: found through the keys the two share."""
    near = (features.simhash is not None and of.features.simhash is not None
            and hamming_distance(features.simhash, of.features.simhash) <= CONFIG.simhash_distance)
    return Candidate(article_id, features.body_hash == of.features.body_hash, near,
                     len(features.keywords & of.features.keywords), root or article_id, features)


def decide(batch, lookups, new_ids, locked_rows: dict[int, tuple[str, DocumentFeatures]] = None):
    matches = match_batch(batch, lookups, new_ids, CONFIG)
    locked = LockedRoots()
    for root in matches.roots_to_lock():
        url, features = locked_rows[root]
        locked.root_now[root], locked.url[root], locked.features[root] = root, url, features
    return matches, link_batch(matches, locked, CONFIG)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_reprint_links_to_the_stored_canonical(lang):
    full, reprint, _, _ = STORIES[lang]
    stored = article("https://a.example/1", lang, full)
    new = article("https://b.example/2", lang, reprint)
    matches, plan = decide([new], [Lookup(None, [candidate(7, stored.features, new)])], [20],
                           {7: (stored.url, stored.features)})
    assert matches.roots_to_lock() == [7]
    assert plan.outcomes == [NearDuplicateOutcome("duplicate", 20, stored.url, "keywords", plan.outcomes[0].score)]
    assert plan.outcomes[0].score >= CONFIG.tau
    [row] = plan.rows
    assert row.link == Link(7, "keywords", plan.outcomes[0].score, 7) and not row.match.stored
    assert plan.promotions == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_duplicate_joins_the_cluster_of_its_match_at_the_clusters_canonical(lang):
    full, reprint, _, _ = STORIES[lang]
    member = article("https://c.example/3", lang, full)  # stored as a member of the cluster of article 5
    canonical = article("https://a.example/1", lang, full)
    new = article("https://b.example/2", lang, reprint)
    _, plan = decide([new], [Lookup(None, [candidate(9, member.features, new, root=5)])], [20],
                     {5: (canonical.url, canonical.features)})
    assert plan.outcomes[0].status == "duplicate" and plan.outcomes[0].canonical_url == canonical.url
    assert plan.rows[0].link.canonical_id == 5 and plan.rows[0].link.matched_id == 9


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_longer_copy_is_promoted_over_a_truncated_canonical(lang):
    full, _, truncated, _ = STORIES[lang]
    stored = article("https://a.example/1", lang, truncated)
    new = article("https://b.example/2", lang, full)
    _, plan = decide([new], [Lookup(None, [candidate(7, stored.features, new)])], [20],
                     {7: (stored.url, stored.features)})
    assert plan.outcomes == [NearDuplicateOutcome("canonical", 20, None, None, None, promoted=True)]
    assert plan.rows[0].link == Link()
    [promotion] = plan.promotions
    assert (promotion.old_canonical_id, promotion.new_canonical_id, promotion.method) == (7, 20, "keywords")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_same_text_again_is_unchanged_and_a_changed_text_waits_for_its_own_transaction(lang):
    full, _, _, other = STORIES[lang]
    same = article("https://a.example/1", lang, full)
    changed = article("https://a.example/2", lang, other)
    stored_same = StoredArticle(3, same.text_hash, "https://x.example/0", "exact", 1.0)
    stored_changed = StoredArticle(4, "an older text", None, None, None)
    matches, plan = decide([same, changed], [Lookup(stored_same), Lookup(stored_changed)], [20, 21])
    assert plan.outcomes == [NearDuplicateOutcome("unchanged", 3, "https://x.example/0", "exact", 1.0), None]
    assert matches.deferred == [1] and plan.rows == [] and plan.promotions == []
    # alone, the changed article is decided again under its stored id, and its row is updated
    _, plan = decide([changed], [Lookup(stored_changed)], [22])
    assert plan.outcomes == [NearDuplicateOutcome("canonical", 4, None, None, None)]
    assert plan.rows[0].match.stored and plan.rows[0].match.article_id == 4


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_articles_of_one_batch_decide_against_the_earlier_ones(lang):
    full, reprint, truncated, other = STORIES[lang]
    batch = [article("https://a.example/1", lang, full), article("https://b.example/2", lang, reprint),
             article("https://c.example/3", lang, other)]
    matches, plan = decide(batch, [Lookup()] * 3, [20, 21, 22])
    assert matches.roots_to_lock() == []  # nothing stored to lock
    assert [o.status for o in plan.outcomes] == ["canonical", "duplicate", "canonical"]
    assert plan.outcomes[1].canonical_url == "https://a.example/1"
    assert [row.link.canonical_id for row in plan.rows] == [None, 20, None]

    # a truncated copy first, the full story second, a reprint third: the full story takes the cluster over, and
    # the reprint, which matches the truncated copy or the full story, joins the cluster at its new canonical
    batch = [article("https://a.example/1", lang, truncated), article("https://b.example/2", lang, full),
             article("https://c.example/3", lang, reprint)]
    _, plan = decide(batch, [Lookup()] * 3, [20, 21, 22])
    assert [o.status for o in plan.outcomes] == ["canonical", "canonical", "duplicate"]
    assert plan.outcomes[1].promoted and plan.promotions == [Promotion(20, 21, "keywords",
                                                                       plan.promotions[0].score)]
    assert plan.outcomes[2].canonical_url == "https://b.example/2" and plan.rows[2].link.canonical_id == 21
