"""The near-duplicate index in Postgres: same candidates as the in-memory index, decisions recorded once per
text, promotion of a more complete reprint, the resolution pass, both keyword layouts."""

from __future__ import annotations

import random

import numpy as np
import psycopg
import pytest

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import DocumentFeatures, build_features
from newscorpus.core.near_duplicate.index import InMemoryNearDuplicateIndex, find_duplicates
from newscorpus.core.near_duplicate.shingle_sketch import ShingleSketch
from newscorpus.core.near_duplicate.simhash import pigeonhole_keys
from newscorpus.core.text import source_hash
from newscorpus.store.array_literals import number_array_literal, text_array_literal
from newscorpus.store.near_duplicate.index import (
    BigintArrayBinary,
    NewArticleRow,
    PostgresNearDuplicateIndex,
    cached_sketch,
    insert_new_rows,
    list_clusters,
    lock_keys,
    resolve_duplicates,
    sketch_hashes,
    use_binary_bigint_arrays,
)
from newscorpus.store.near_duplicate.records import ArticleToRecord, record_article, record_articles
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
DOCS = [  # (url, lang, title, body)
    ("https://a.example/zh/1", "zh", ZH_TITLE, "\n".join(ZH_PARAGRAPHS)),
    ("https://b.example/zh/2", "zh", *zh_reprint()),
    ("https://c.example/zh/3", "zh", ZH_FOLLOWUP_TITLE, "\n".join(ZH_FOLLOWUP_PARAGRAPHS)),
    ("https://a.example/en/1", "en", EN_TITLE, "\n\n".join(EN_PARAGRAPHS)),
    ("https://b.example/en/2", "en", *en_reprint()),
    ("https://c.example/en/3", "en", EN_FOLLOWUP_TITLE, "\n\n".join(EN_FOLLOWUP_PARAGRAPHS)),
    ("https://d.example/en/4", "en", EN_TITLE, "\n".join(EN_PARAGRAPHS)),  # format-only: exact
]


@pytest.fixture
def connection(migrated_connection):
    migrated_connection.execute("INSERT INTO sites (name) VALUES ('news'), ('other')")
    return migrated_connection


def features_of(doc):
    _, lang, title, body = doc
    return build_features(title, body, lang, CONFIG)


def record(connection, doc, site_id=1, layout="table"):
    url, _, title, body = doc
    return record_article(connection, url, site_id, source_hash(title, body), features_of(doc), CONFIG, layout)


def test_postgres_index_returns_the_same_candidates_as_the_in_memory_one(connection):
    memory, postgres = InMemoryNearDuplicateIndex(CONFIG.simhash_distance), PostgresNearDuplicateIndex(connection, 3)
    url_of = {}
    for doc in DOCS:
        features = features_of(doc)
        memory_decision = find_duplicates(features, memory, CONFIG)
        postgres_decision = find_duplicates(features, postgres, CONFIG)
        as_urls = [(url_of[j.candidate_id], j.method, round(j.score, 6)) for j in postgres_decision.judgements]
        assert as_urls == [(j.candidate_id, j.method, round(j.score, 6)) for j in memory_decision.judgements]
        assert [url_of[i] for i in postgres.exact_candidates(features.body_hash)] == \
            memory.exact_candidates(features.body_hash)
        assert [url_of[i] for i in postgres.simhash_candidates(features.simhash, 3)] == \
            memory.simhash_candidates(features.simhash, 3)
        assert [(url_of[i], n) for i, n in postgres.keyword_candidates(features.keywords, 30)] == \
            memory.keyword_candidates(features.keywords, 30)
        memory.add(doc[0], features)
        url_of[postgres.add(doc[0], features)] = doc[0]
    stored = postgres.features(list(url_of))
    assert {url_of[i]: f for i, f in stored.items()} == {doc[0]: features_of(doc) for doc in DOCS}


def test_gin_layout_finds_the_same_keyword_candidates(connection):
    connection.execute("CREATE INDEX near_duplicate_features_keywords_gin ON near_duplicate_features "
                       "USING gin (keywords)")
    table, gin = PostgresNearDuplicateIndex(connection, 3), PostgresNearDuplicateIndex(connection, 3, layout="gin")
    for doc in DOCS:
        table.add(doc[0], features_of(doc))
    for doc in DOCS:
        keywords = features_of(doc).keywords
        assert gin.keyword_candidates(keywords, 30) == table.keyword_candidates(keywords, 30)


def test_reprints_are_linked_to_the_canonical_and_a_recrawl_changes_nothing(connection):
    outcomes = [record(connection, doc) for doc in DOCS]
    assert [o.status for o in outcomes] == ["canonical", "duplicate", "canonical",
                                            "canonical", "duplicate", "canonical", "duplicate"]
    assert outcomes[1].canonical_url == DOCS[0][0] and outcomes[1].method == "keywords"
    assert outcomes[4].canonical_url == DOCS[3][0]
    assert outcomes[6].canonical_url == DOCS[3][0] and outcomes[6].method == "exact" and outcomes[6].score == 1.0
    before = connection.execute("SELECT count(*) FROM near_duplicate_keywords").fetchone()[0]
    again = [record(connection, doc) for doc in DOCS]
    assert [o.status for o in again] == ["unchanged"] * len(DOCS)
    assert [o.canonical_url for o in again] == [o.canonical_url for o in outcomes]
    assert connection.execute("SELECT count(*) FROM near_duplicate_keywords").fetchone()[0] == before
    assert connection.execute("SELECT count(*) FROM near_duplicate_features").fetchone()[0] == len(DOCS)
    duplicates = connection.execute("SELECT url, canonical_url, duplicate_method FROM article_duplicates "
                                    "ORDER BY url").fetchall()
    assert duplicates == [(DOCS[4][0], DOCS[3][0], "keywords"), (DOCS[1][0], DOCS[0][0], "keywords"),
                          (DOCS[6][0], DOCS[3][0], "exact")]


def test_a_changed_text_is_decided_again_without_stale_postings(connection):
    record(connection, DOCS[3])
    assert record(connection, DOCS[4]).status == "duplicate"
    changed = (DOCS[4][0], "en", EN_FOLLOWUP_TITLE, "\n\n".join(EN_FOLLOWUP_PARAGRAPHS))
    assert record(connection, changed).status == "canonical"
    keywords = connection.execute(
        "SELECT array_agg(keyword ORDER BY keyword) FROM near_duplicate_keywords k "
        "JOIN near_duplicate_features f ON f.id = k.article_id WHERE f.url = %s", (DOCS[4][0],)).fetchone()[0]
    assert keywords == sorted(features_of(changed).keywords)


def test_a_clearly_longer_reprint_becomes_the_canonical_and_the_cluster_follows(connection):
    short_title, short_body = ZH_TITLE, "\n".join(ZH_PARAGRAPHS[:4])
    record(connection, ("https://a.example/short", "zh", short_title, short_body))
    record(connection, ("https://b.example/copy", "zh", "快讯：" + short_title, short_body + "\n责任编辑：王五"))
    full = record(connection, ("https://c.example/full", "zh", ZH_TITLE, "\n".join(ZH_PARAGRAPHS)))
    assert full.status == "canonical" and full.promoted
    links = dict(connection.execute("SELECT url, canonical_url FROM article_duplicates").fetchall())
    assert links == {"https://a.example/short": "https://c.example/full",
                     "https://b.example/copy": "https://c.example/full"}


def test_resolution_merges_two_canonicals_of_one_story(connection, database_dsn):
    index = PostgresNearDuplicateIndex(connection, 3)
    index.add(DOCS[0][0], features_of(DOCS[0]), site_id=1)  # both indexed as canonical: a missed link
    index.add(DOCS[1][0], features_of(DOCS[1]), site_id=2)
    index.add(DOCS[2][0], features_of(DOCS[2]), site_id=1)
    assert resolve_duplicates(database_dsn) == {"checked": 3, "merged": 1}
    assert resolve_duplicates(database_dsn) == {"checked": 0, "merged": 0}
    clusters = list_clusters(database_dsn)
    assert [(c["url"], [m["url"] for m in c["members"]]) for c in clusters] == [(DOCS[0][0], [DOCS[1][0]])]
    assert list_clusters(database_dsn, site="other")[0]["url"] == DOCS[0][0]  # a member's site finds it


def to_record(doc, site_id=1):
    url, _, title, body = doc
    return ArticleToRecord(url, site_id, source_hash(title, body), features_of(doc))


def links_and_statuses(connection):
    return sorted(connection.execute(
        "SELECT f.url, c.url, f.duplicate_method FROM near_duplicate_features f "
        "LEFT JOIN near_duplicate_features c ON c.id = f.canonical_id").fetchall())


def test_one_batch_decides_as_the_same_articles_recorded_one_by_one(connection, database_dsn):
    one_by_one = [record(connection, doc) for doc in DOCS]
    expected = links_and_statuses(connection)
    connection.execute("TRUNCATE near_duplicate_features, near_duplicate_keywords, near_duplicate_blocks")
    batched = record_articles(connection, [to_record(doc) for doc in DOCS], CONFIG)
    assert [(o.status, o.canonical_url, o.method) for o in batched] == \
        [(o.status, o.canonical_url, o.method) for o in one_by_one]
    assert links_and_statuses(connection) == expected
    assert [o.status for o in record_articles(connection, [to_record(doc) for doc in DOCS], CONFIG)] == \
        ["unchanged"] * len(DOCS)
    keywords = connection.execute("SELECT count(*) FROM near_duplicate_keywords").fetchone()[0]
    assert keywords == sum(len(features_of(doc).keywords) for doc in DOCS)


def test_a_promotion_inside_a_batch_relinks_the_batch_and_the_stored_members(connection):
    short_title, short_body = ZH_TITLE, "\n".join(ZH_PARAGRAPHS[:4])
    record(connection, ("https://a.example/short", "zh", short_title, short_body))  # stored canonical
    outcomes = record_articles(connection, [
        to_record(("https://b.example/copy", "zh", "快讯：" + short_title, short_body + "\n责任编辑：王五")),
        to_record(("https://c.example/full", "zh", ZH_TITLE, "\n".join(ZH_PARAGRAPHS))),
        to_record(("https://d.example/full-copy", "zh", ZH_TITLE, "\n".join(ZH_PARAGRAPHS) + "\n（完）")),
    ], CONFIG)
    assert [(o.status, o.promoted) for o in outcomes] == [("duplicate", False), ("canonical", True),
                                                          ("duplicate", False)]
    assert outcomes[0].canonical_url == "https://a.example/short"
    assert outcomes[2].canonical_url == "https://c.example/full"
    links = dict(connection.execute("SELECT url, canonical_url FROM article_duplicates").fetchall())
    assert links == {"https://a.example/short": "https://c.example/full",
                     "https://b.example/copy": "https://c.example/full",
                     "https://d.example/full-copy": "https://c.example/full"}


def test_a_url_twice_in_a_batch_and_a_changed_text_are_decided_after_it(connection):
    record(connection, DOCS[3])
    record(connection, DOCS[4])  # stored as a duplicate of DOCS[3]
    changed = (DOCS[4][0], "en", EN_FOLLOWUP_TITLE, "\n\n".join(EN_FOLLOWUP_PARAGRAPHS))
    outcomes = record_articles(connection, [to_record(changed), to_record(DOCS[0]), to_record(DOCS[0])], CONFIG)
    assert [o.status for o in outcomes] == ["canonical", "canonical", "unchanged"]
    assert outcomes[1].article_id == outcomes[2].article_id
    keywords = connection.execute(
        "SELECT array_agg(keyword ORDER BY keyword) FROM near_duplicate_keywords k "
        "JOIN near_duplicate_features f ON f.id = k.article_id WHERE f.url = %s", (DOCS[4][0],)).fetchone()[0]
    assert keywords == sorted(features_of(changed).keywords)
    assert connection.execute("SELECT count(*) FROM near_duplicate_features").fetchone()[0] == 3


def test_several_changed_texts_in_one_batch_are_each_decided_again(connection):
    for doc in DOCS[3:6]:
        record(connection, doc)
    changed = [(url, lang, title + " (updated)", body + "\n\nUpdated with a correction.")
               for url, lang, title, body in DOCS[3:6]]
    outcomes = record_articles(connection, [to_record(doc) for doc in changed], CONFIG)
    assert [o.status for o in outcomes] == ["canonical", "duplicate", "canonical"]
    hashes = dict(connection.execute("SELECT url, source_hash FROM near_duplicate_features").fetchall())
    assert all(hashes[url] == source_hash(title, body) for url, _, title, body in changed)


def test_array_literals_read_back_as_the_values(connection):
    texts = ["a", "NULL", "", 'say "hi"', "back\\slash", "{}", "a,b", " spaced ", "中文", None, "it's"]
    plain = [t for t in texts if t and '"' not in t and "\\" not in t]  # the literal joined in one call
    for values in (texts, [t for t in texts if t is not None], plain, [], [""], [None], ['"'], ["\\"]):
        assert connection.execute("SELECT %s::text[]", (text_array_literal(values),)).fetchone()[0] == values
    nested = [text_array_literal(["x", 'y"}']), text_array_literal([])]
    assert connection.execute("SELECT (%s::text[])[1]::text[], (%s::text[])[2]::text[]",
                              (text_array_literal(nested),) * 2).fetchone() == (["x", 'y"}'], [])
    numbers = [0, -1, None, 2**63 - 1, -(2**63)]
    assert connection.execute("SELECT %s::bigint[]", (number_array_literal(numbers),)).fetchone()[0] == numbers
    scores = [0.4666666666666667, 1.0, None, 1 - 3 / 64]
    assert connection.execute("SELECT %s::float8[]", (number_array_literal(scores),)).fetchone()[0] == scores
    assert connection.execute("SELECT %s::float8[]::real[] = %s::real[]",
                              (number_array_literal(scores), scores)).fetchone()[0]


def test_a_sketch_sent_by_the_server_reads_back_as_its_values(connection):
    for values in ([], [7], [-(2**63), -1, 0, 1, 2**63 - 1], list(range(-5_000_000_000, 5_000_000_000, 39_062_500))):
        data = connection.execute("SELECT array_send(%s::bigint[])", (number_array_literal(values),)).fetchone()[0]
        assert sketch_hashes(data).tolist() == values
        sketch = cached_sketch(data, 1000, 900)
        assert sketch.hashes == tuple(values) and (sketch.shingle_count, sketch.token_count) == (1000, 900)
        assert cached_sketch(bytes(data), 1000, 900) is sketch  # one object per value
    for wrong in ("ARRAY[1, NULL]::bigint[]", "ARRAY[1, 2]::integer[]", "ARRAY[[1], [2]]::bigint[]"):
        data = connection.execute(f"SELECT array_send({wrong})").fetchone()[0]
        with pytest.raises(ValueError):
            sketch_hashes(data)


def test_a_binary_bigint_array_reads_back_as_its_values_and_is_the_servers_own(connection):
    use_binary_bigint_arrays(connection)
    for values in ([], [7], [-(2**63), -1, 0, 1, 2**63 - 1], list(range(-5_000_000_000, 5_000_000_000, 39_062_500))):
        sent = BigintArrayBinary.of(np.array(values, dtype=np.int64))
        assert connection.execute("SELECT %b::bigint[]", (sent,)).fetchone()[0] == values
        literal = number_array_literal(values)
        own = connection.execute("SELECT array_send(%s::bigint[])", (literal,)).fetchone()[0]
        assert bytes(sent) == bytes(own)  # byte for byte what array_send gives
        assert connection.execute("SELECT %s::bigint[]", (values,)).fetchone()[0] == values  # lists as before


def test_the_batch_inserts_sketches_as_they_were(connection):
    """insert_features_batch slices one binary array of every row's hashes (empty sketches included)."""
    rows = [_features(hashes) for hashes in ((3, 5, 8), (), tuple(range(-300, 300, 3)), (2**63 - 1,), ())]
    config = NearDuplicateConfig()
    ids = [i for (i,) in connection.execute("SELECT nextval(pg_get_serial_sequence('near_duplicate_features', 'id')) "
                                            "FROM generate_series(1, %s)", (len(rows),)).fetchall()]
    connection.execute("INSERT INTO sites (name) VALUES ('sketches') ON CONFLICT DO NOTHING")
    site = connection.execute("SELECT id FROM sites WHERE name = 'sketches'").fetchone()[0]
    insert_new_rows(connection, [NewArticleRow(i, f"https://sketch.example/{i}", site, "h", f)
                                 for i, f in zip(ids, rows, strict=True)], config, "table")
    stored = dict(connection.execute("SELECT id, sketch FROM near_duplicate_features WHERE id = ANY(%s)",
                                     (ids,)).fetchall())
    assert [tuple(stored[i]) for i in ids] == [f.sketch.hashes for f in rows]


def _features(hashes: tuple[int, ...]) -> DocumentFeatures:
    return DocumentFeatures("en", frozenset({"alpha", "beta"}), ("alpha",), None,
                            ShingleSketch(hashes, len(hashes), len(hashes)), "x", len(hashes))


def test_text_array_literals_joined_at_once_are_those_escaped_one_by_one():
    def escaped(values):  # the per-element way, which every text array of two or more elements took before
        return "{" + ",".join(["NULL" if v is None else '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
                               for v in values]) + "}"
    rng = random.Random(18)
    alphabet = ['a', 'Z', '中', ' ', ',', '{', '}', 'N', '"', '\\', "'", 'é']
    for _ in range(2000):
        values = ["".join(rng.choices(alphabet, k=rng.randint(0, 6))) for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.1:
            values[rng.randrange(len(values))] = None
        assert text_array_literal(values) == escaped(values), values


def test_lock_keys_remembered_are_those_computed():
    from newscorpus.store.near_duplicate import index as near_duplicate_index
    features = build_features(ZH_TITLE, "\n".join(ZH_PARAGRAPHS), "zh", CONFIG)
    expected = {near_duplicate_index._lock_key("url", "https://lock.example/1"),
                near_duplicate_index._lock_key("exact", features.body_hash)}
    expected |= {near_duplicate_index._lock_key("block", key)
                 for key in pigeonhole_keys(features.simhash, CONFIG.simhash_distance)}
    expected |= {near_duplicate_index._lock_key("keyword", keyword) for keyword in features.keywords}
    for _ in range(2):  # computed, then remembered
        assert lock_keys("https://lock.example/1", features, CONFIG) == sorted(expected)


def test_a_batch_writes_the_rows_postings_and_blocks_of_articles_recorded_one_by_one(connection):
    def stored():
        features = connection.execute(
            "SELECT f.url, f.site_id, f.language, f.source_hash, f.body_hash, f.simhash, f.token_count, "
            "f.shingle_count, f.sketch, f.keywords, f.title_keywords, c.url, f.duplicate_method, f.duplicate_score, "
            "m.url, f.resolved FROM near_duplicate_features f "
            "LEFT JOIN near_duplicate_features c ON c.id = f.canonical_id "
            "LEFT JOIN near_duplicate_features m ON m.id = f.matched_id ORDER BY f.url").fetchall()
        postings = connection.execute("SELECT f.url, k.keyword FROM near_duplicate_keywords k "
                                      "JOIN near_duplicate_features f ON f.id = k.article_id "
                                      "ORDER BY 1, 2").fetchall()
        blocks = connection.execute("SELECT f.url, b.block_key FROM near_duplicate_blocks b "
                                    "JOIN near_duplicate_features f ON f.id = b.article_id ORDER BY 1, 2").fetchall()
        return features, postings, blocks

    for doc in DOCS:
        record(connection, doc, site_id=2)
    expected = stored()
    connection.execute("TRUNCATE near_duplicate_features, near_duplicate_keywords, near_duplicate_blocks")
    record_articles(connection, [ArticleToRecord(doc[0], 2, source_hash(doc[2], doc[3]), features_of(doc))
                                 for doc in DOCS], CONFIG)
    assert stored() == expected
    assert any(row[11] is not None for row in expected[0])  # duplicates among them: links written too


def _keywords_only(keywords, n):
    """Features that only keywords can match (no simhash), a distinct body hash and sketch per n."""
    return DocumentFeatures("en", frozenset(keywords), (), None, ShingleSketch((n,), 1, 1), f"h{n}", 1)


def _keyword_lookup(connection, probes: list[list[str]], limit: int) -> list[dict]:
    """near_duplicate_candidates_batch for a batch of new articles given by their keywords: min_shared 2,
    p_limit `limit`, keyword overlap threshold 0 (every candidate kept returns)."""
    keyword_articles = [number for number, keywords in enumerate(probes, start=1) for _ in keywords]
    nulls = "{" + ",".join(["NULL"] * len(probes)) + "}"
    return connection.cursor(row_factory=psycopg.rows.dict_row, binary=True).execute(
        "SELECT * FROM near_duplicate_candidates_batch(%s::bigint[], %s::text[], %s::text[], %s::bigint[], "
        "%s::integer[], '{}', '{}', %s::integer[], %s::text[], 3, 30, %s, 'table', 'min', 0)",
        ("{}", text_array_literal(f"https://probe.example/{n}" for n in range(1, len(probes) + 1)), nulls, nulls,
         number_array_literal([2] * len(probes)), number_array_literal(keyword_articles),
         text_array_literal([k for keywords in probes for k in keywords]), limit)).fetchall()


def test_keyword_candidates_are_the_most_shared_of_those_sharing_enough(connection):
    """The lookup keeps, per article, the candidate_limit sharing most keywords among those sharing at least
    min_shared_keywords (migrations/0007 filters before ranking; the ranking is the same)."""
    index = PostgresNearDuplicateIndex(connection, 3)
    # 40 articles sharing one keyword with the probe (more than candidate_limit), 3 sharing two, 1 sharing three.
    for n in range(40):
        index.add(f"https://one.example/{n}", _keywords_only(["common", f"own{n}"], n))
    for n in range(3):
        index.add(f"https://two.example/{n}", _keywords_only(["common", "rare", f"x{n}"], 100 + n))
    index.add("https://three.example/0", _keywords_only(["common", "rare", "rarer"], 200))
    rows = _keyword_lookup(connection, [sorted(["common", "rare", "rarer", "zzz"])], limit=30)
    assert sorted((row["url"], row["shared"]) for row in rows) == sorted(
        [("https://three.example/0", 3)] + [(f"https://two.example/{n}", 2) for n in range(3)])


def test_each_article_of_a_batch_gets_its_own_top_candidates_most_shared_then_most_recent(connection):
    """Keyword candidates are counted per article of the batch (migrations/0009): another article's postings
    never add to its counts, and of those sharing enough it keeps the p_limit sharing most, ties to the most
    recently indexed."""
    index = PostgresNearDuplicateIndex(connection, 3)
    stored = {"abc": ["a", "b", "c"], "ab-older": ["a", "b"], "ab-newer": ["a", "b"], "xy": ["x", "y"],
              "xyz": ["x", "y", "z"]}
    for n, (name, keywords) in enumerate(stored.items()):
        index.add(f"https://stored.example/{name}", _keywords_only(keywords, n))
    rows = _keyword_lookup(connection, [["a", "b", "c", "q"], ["a", "x", "y", "z"]], limit=2)
    found = sorted((row["article"], row["url"].rsplit("/", 1)[1], row["shared"]) for row in rows)
    # "a" is a keyword of both probes: counted per probe, the a-b articles share one keyword with the second
    # probe (fewer than min_shared), and ab-older loses the tie for the first probe's second place.
    assert found == [(1, "ab-newer", 2), (1, "abc", 3), (2, "xy", 2), (2, "xyz", 3)]


def test_a_weekly_series_on_one_site_stays_apart_and_its_reprint_elsewhere_is_linked(connection, database_dsn):
    """The same-site guards through the batch lookup (migrations/0012 returns each candidate's site): a site's
    series issues are different stories; the same issue on another site is a reprint; resolution decides the
    same."""
    from tests.core.near_duplicate.texts import en_quiz, zh_quiz

    connection.execute("INSERT INTO sites (name) VALUES ('third')")
    issues = [(f"https://herald.example/{lang}/quiz/{week}", lang, *quiz(week))
              for quiz, lang in ((en_quiz, "en"), (zh_quiz, "zh")) for week in range(3)]

    def with_site(doc, site_id):
        url, lang, title, body = doc
        return ArticleToRecord(url, site_id, source_hash(title, body),
                               build_features(title, body, lang, CONFIG, site_id))

    outcomes = record_articles(connection, [with_site(doc, 1) for doc in issues[:3]], CONFIG)  # a batch
    outcomes += [record_articles(connection, [with_site(doc, 1)], CONFIG)[0] for doc in issues[3:]]  # one by one
    assert [o.status for o in outcomes] == ["canonical"] * 6
    url, lang, title, body = issues[2]
    reprint = ("https://other.example/quiz", lang, title, "Republished with permission.\n" + body)
    [linked] = record_articles(connection, [with_site(reprint, 2)], CONFIG)
    assert linked.status == "duplicate" and linked.canonical_url == url
    rows = connection.execute("SELECT site_id FROM near_duplicate_candidates_batch('{}', ARRAY['x'], ARRAY[NULL], "
                              "ARRAY[NULL]::bigint[], ARRAY[1], '{}', '{}', ARRAY[1], ARRAY['quiz'], 3, 30, 30, "
                              "'table', 'min', 0.0)").fetchall()
    assert rows and {site for (site,) in rows} <= {1, 2}
    resolve_duplicates(database_dsn, config=CONFIG)
    links = dict(connection.execute("SELECT url, canonical_url FROM article_duplicates").fetchall())
    # The issues' titles hold other numbers (week 10, 11, 12): apart from the first; the reprint goes with its issue.
    assert links == {"https://other.example/quiz": url}
