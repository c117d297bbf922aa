"""`newscorpus near-duplicates` on a fresh schema of the real server: clusters with their canonical and members."""

from __future__ import annotations

import psycopg
import pytest

from newscorpus.cli.main import main
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import build_features
from newscorpus.core.text import source_hash
from newscorpus.store.migrations import migrate
from newscorpus.store.near_duplicate.records import record_article
from tests.core.near_duplicate.texts import EN_PARAGRAPHS, EN_TITLE, ZH_PARAGRAPHS, ZH_TITLE, en_reprint, zh_reprint


def store(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as connection:
        migrate(connection)
        connection.execute("INSERT INTO sites (name) VALUES ('people'), ('herald')")
        for url, site_id, lang, title, body in (
            ("https://people.example/1", 1, "zh", ZH_TITLE, "\n".join(ZH_PARAGRAPHS)),
            ("https://herald.example/2", 2, "zh", *zh_reprint()),
            ("https://herald.example/3", 2, "en", EN_TITLE, "\n\n".join(EN_PARAGRAPHS)),
            ("https://people.example/4", 1, "en", *en_reprint()),
        ):
            features = build_features(title, body, lang, NearDuplicateConfig())
            record_article(connection, url, site_id, source_hash(title, body), features, NearDuplicateConfig())


def test_near_duplicates_lists_clusters_with_method_and_score(database_dsn, capsys):
    store(database_dsn)
    assert main(["near-duplicates", "--dsn", database_dsn]) == 0
    out = capsys.readouterr().out
    assert "canonical [people] https://people.example/1" in out
    assert "duplicate [herald] https://herald.example/2  keywords" in out
    assert "canonical [herald] https://herald.example/3" in out
    assert main(["near-duplicates", "--dsn", database_dsn, "--site", "people", "--limit", "1"]) == 0
    assert len([line for line in capsys.readouterr().out.splitlines() if "canonical [" in line]) == 1


def test_near_duplicates_on_an_empty_corpus_and_a_bad_limit(database_dsn, capsys):
    assert main(["near-duplicates", "--dsn", database_dsn]) == 0
    assert "no near-duplicate clusters" in capsys.readouterr().out
    assert main(["near-duplicates", "--dsn", database_dsn, "--site", "nosuchsite"]) == 2
    assert "no site named 'nosuchsite' in the corpus" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["near-duplicates", "--dsn", database_dsn, "--limit", "0"])
    assert exit_.value.code == 2
