"""A crawl of the demo site with NEWSCORPUS_WARC_OUTPUT writes valid WARC files; ingesting them into a fresh schema
gives the same published corpus (the same digest) as the crawl."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from newscorpus.core.warc import WarcResponse, read_responses
from newscorpus.store.connection import connect
from newscorpus.store.derivation import corpus_digest
from tests.conftest import fresh_schema
from tests.local_crawl import PROJECT_ROOT, run_crawl


def ingest(dsn: str, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "newscorpus.cli.main", "ingest", *arguments, "--dsn", dsn],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)


def test_ingesting_a_crawls_own_warc_gives_the_crawls_corpus(demo_site, postgres_server_dsn, tmp_path):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    warc_dir = tmp_path / "warc"
    with fresh_schema(postgres_server_dsn) as crawled, fresh_schema(postgres_server_dsn) as ingested:
        result = run_crawl(crawled, f"site={config}", settings={"NEWSCORPUS_WARC_OUTPUT": str(warc_dir)})
        assert result.returncode == 0, result.stderr[-3000:]
        files = sorted(warc_dir.glob("*.warc.gz"))
        assert files
        check = subprocess.run([str(Path(sys.executable).parent / "warcio"), "check", *map(str, files)],
                               capture_output=True, text=True, timeout=120)
        assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
        records = [r for f in files for r in read_responses(str(f))]
        assert records and all(isinstance(r, WarcResponse) for r in records)   # FastWARC reads every record

        result = ingest(ingested, str(warc_dir), "--site", str(config))
        assert result.returncode == 0, result.stderr[-3000:]
        assert "ingested 1 WARC file(s)" in result.stdout
        crawl_digest, crawl_articles = corpus_digest(crawled, "demo")
        assert crawl_articles > 0
        assert corpus_digest(ingested, "demo") == (crawl_digest, crawl_articles)
        with connect(ingested) as connection:
            origins = connection.execute(
                "SELECT count(*), count(warc_file), min(warc_offset) FROM pages").fetchone()
        assert origins[0] == origins[1] and origins[2] >= 0   # every ingested page names its record
        result = subprocess.run([sys.executable, "-m", "newscorpus.cli.main", "reextract", "--dsn", ingested],
                                cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-3000:]
        assert corpus_digest(ingested, "demo") == (crawl_digest, crawl_articles)
