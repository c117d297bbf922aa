"""The README's offline path on the embedded Postgres: `newscorpus demo`, then `newscorpus articles`.

Always runs on the embedded server (no DSN), also in CI, so that path is exercised at least once."""

from __future__ import annotations

import os
import subprocess
import sys

from newscorpus.demo.pages import generate_articles

NEWSCORPUS = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())"]


def run(*args: str, cwd) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NEWSCORPUS_DB_DSN"}
    return subprocess.run([*NEWSCORPUS, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_demo_stores_the_site_in_the_embedded_database_and_a_second_run_adds_nothing(tmp_path):
    data_dir = str(tmp_path / "pg")
    first = run("demo", "--port", "0", "--data-dir", data_dir, cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "articles new: 31" in first.stdout
    assert first.stderr == ""  # no warning on a clean crawl of the demo site, nothing printed twice
    assert "too_large: recorded, not stored" in first.stdout  # the oversized page is explained
    listing = run("articles", "--data-dir", data_dir, "--limit", "100", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr[-3000:]
    for article in generate_articles(30):
        assert article.title in listing.stdout
    assert "31 article(s)" in listing.stderr
    # A fresh process on the same data directory finds the stopped server's data intact.
    status = run("db", "status", "--data-dir", data_dir, cwd=tmp_path)
    assert "articles: 31" in status.stdout, status.stderr[-2000:]
