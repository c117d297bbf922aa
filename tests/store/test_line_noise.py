"""Line statistics in a real Postgres: one call per article, idempotent re-counts, moved counts, pruning,
samples, the allow-list and cleaning stored articles again (newscorpus.store.derivation)."""

from __future__ import annotations

import uuid

import pytest

from newscorpus.core.line_noise import LineNoiseConfig, article_hashes
from newscorpus.core.text import body_hash
from newscorpus.store import line_noise as store
from newscorpus.store.derivation import DerivationSettings, derive_site
from newscorpus.store.sql import query

CONFIG = LineNoiseConfig(prune_interval=0)
CLEAN_ONLY = DerivationSettings(site_aware=None, line_noise=CONFIG, near_duplicate=None)


@pytest.fixture
def connection(migrated_connection):
    migrated_connection.execute("INSERT INTO sites (name) VALUES ('demo'), ('other')")
    return migrated_connection


def count(connection, url: str, body: str, config: LineNoiseConfig = CONFIG, site_id: int = 1):
    hashes, samples = article_hashes(body)
    return store.count_article(connection, site_id, url, body_hash(body), hashes, samples, config)


def line_counts(connection) -> dict:
    return dict(connection.execute("SELECT line_hash, articles FROM line_counts").fetchall())


def digest(text: str) -> uuid.UUID:
    return article_hashes(text)[0][0]


def test_the_repository_sorts_hashes_and_keeps_samples_aligned(connection):
    hashes, samples = article_hashes('one line\nanother line\n第三行\n"quoted", {braced}\\ \x00and NUL\nNULL')
    reversed_params = store.count_params(1, "u", "b", hashes[::-1], samples[::-1], CONFIG)
    assert reversed_params["hashes"] == hashes
    assert [h.bytes for h in reversed_params["hashes"]] == sorted(h.bytes for h in hashes)
    # the arrays go as literals: the server reads back the sorted hashes and their samples (NUL dropped), aligned
    sent = connection.execute("SELECT %(hash_array)s::uuid[], %(sample_array)s::text[]", reversed_params).fetchone()
    assert sent == (hashes, [sample.replace("\x00", "") for sample in samples])
    assert "NULL" in sent[1] and '"quoted", {braced}\\ and NUL' in sent[1]


def test_counts_rc_and_lc_once_per_article(connection):
    first = count(connection, "u1", "Body one.\n责任编辑：李明")
    assert (first.articles_seen, first.status) == (0, "new")
    assert first.counts == {digest("Body one."): 1, digest("责任编辑：李明"): 1}
    count(connection, "u2", "Body two.\n责任编辑：李明\n责任编辑：李明")   # twice in one article: counted once
    third = count(connection, "u3", "Body three.\n责任编辑:李明")         # same line after normalisation
    assert third.articles_seen == 2 and third.counts[digest("责任编辑：李明")] == 3
    assert connection.execute("SELECT articles_seen FROM site_line_stats").fetchone()[0] == 3
    samples = dict(connection.execute("SELECT line_hash, sample FROM line_samples").fetchall())
    assert list(samples) == [digest("责任编辑：李明")]  # single lines keep no sample


def test_an_unchanged_article_is_not_counted_again_and_a_changed_one_moves_its_counts(connection):
    count(connection, "u1", "Old line.\nShared line.")
    count(connection, "u2", "Other.\nShared line.")
    again = count(connection, "u1", "Old line.\nShared line.")
    assert again.status == "unchanged" and again.articles_seen == 2
    assert line_counts(connection)[digest("Shared line.")] == 2
    changed = count(connection, "u1", "New line.\nShared line.")
    assert changed.status == "changed"
    counts = line_counts(connection)
    assert digest("Old line.") not in counts and counts[digest("New line.")] == 1
    assert counts[digest("Shared line.")] == 2
    assert connection.execute("SELECT articles_seen FROM site_line_stats").fetchone()[0] == 2


def test_sites_are_counted_apart(connection):
    count(connection, "a/1", "Same line.", site_id=1)
    other = count(connection, "b/1", "Same line.", site_id=2)
    assert other.articles_seen == 0 and other.counts == {digest("Same line."): 1}


def test_pruning_every_n_articles_forgets_rare_lines(connection):
    config = LineNoiseConfig(prune_interval=10, prune_divisor=5)
    pruned = 0
    for number in range(1, 21):
        pruned += count(connection, f"u{number}", f"Story {chr(96 + number)}.\nShare this", config).pruned
    counts = line_counts(connection)
    assert pruned == 20 and counts == {digest("Share this"): 20}  # LC <= RC / 5 deleted at 10 and 20
    assert connection.execute("SELECT pruned_at, lines_pruned FROM site_line_stats").fetchone() == (20, 20)


def test_allow_listed_lines_are_flagged(connection):
    line, text = store.parse_line_ref("Share this article!")
    assert text == "Share this article!" and store.parse_line_ref(str(line)) == (line, None)
    store.allow_line(connection, 1, line, text)
    result = count(connection, "u1", "Body.\nShare this article")
    assert result.allowed == {line}
    with pytest.raises(ValueError):
        store.parse_line_ref("!!!")


def test_clean_counts_stored_articles_and_cleans_them_with_the_final_statistics(connection, database_dsn):
    bodies = [f"Article {chr(97 + n)} has its own text, long enough to matter here.\nShare this article"
              for n in range(6)]
    for number, body in enumerate(bodies):
        connection.execute(
            "INSERT INTO articles (site_id, url, body, body_hash, first_seen, last_seen, updated_at) "
            "VALUES (1, %s, %s, %s, now(), now(), now())", (f"u{number}", body, body_hash(body)))
    totals = derive_site(database_dsn, "demo", CLEAN_ONLY, extract=False)
    assert totals["cleaned"] == 6 and totals["cleaned_changed"] == 6 and totals["lines_removed"] == 6
    rows = connection.execute(
        "SELECT clean_body, noise_lines, noise_hashes, cleaned_with_articles_seen FROM articles ORDER BY id").fetchall()
    assert all(row == (bodies[i].split("\n")[0], 1, [digest("Share this article")], 6) for i, row in enumerate(rows))
    assert store.noise_report(connection, 1, 5)[0] | {"line_hash": None} == {
        "line_hash": None, "removed": 6, "articles": 6, "sample": "Share this article", "allowed": False}
    # Counting again changes nothing: the statistics are counted again to the same values.
    assert derive_site(database_dsn, "demo", CLEAN_ONLY, extract=False)["changed"] == 0
    assert connection.execute("SELECT articles_seen FROM site_line_stats").fetchone()[0] == 6


def test_clean_keeps_code_by_the_stored_line_kinds_and_unpublishes_a_body_with_no_text(connection, database_dsn):
    """The stage keeps the extractor's line kinds beside the counted body, so a clean keeps a code
    line the whole site repeats; a body the clean leaves with no text leaves corpus_articles."""
    shared_code = "print_banner(stdout)"  # no ; { }: only the markup says it is code
    stored = []
    for number in range(6):
        body = f"Post {chr(97 + number)} explains one small trick in its own words.\n{shared_code}\nShare this post"
        stored.append((f"u{number}", body, "pcp"))
    stored.append(("u-braces", "Share this post\n}\n}", "pcc"))
    for url, body, kinds in stored:
        connection.execute(
            "INSERT INTO articles (site_id, url, body, body_hash, first_seen, last_seen, updated_at) "
            "VALUES (1, %s, %s, %s, now(), now(), now())", (url, body, body_hash(body)))
        hashes, samples = article_hashes(body)
        connection.execute(query("line_noise.count_article"),
                           store.count_params(1, url, body_hash(body), hashes, samples, CONFIG, kinds))
    assert connection.execute("SELECT count(*) FROM line_noise_line_kinds").fetchone()[0] == 7
    derive_site(database_dsn, "demo", CLEAN_ONLY, extract=False)
    cleaned = dict(connection.execute("SELECT url, clean_body FROM articles").fetchall())
    assert cleaned["u0"] == f"Post a explains one small trick in its own words.\n{shared_code}"
    assert cleaned["u-braces"] == ""  # "}\n}" is not text
    published = {url for (url,) in connection.execute("SELECT url FROM corpus_articles")}
    assert "u0" in published and "u-braces" not in published
