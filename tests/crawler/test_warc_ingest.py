"""`newscorpus ingest`: WARC records through the crawl's stages. Every HTML response record ends as an article or a
named outcome; pages keep their record's file and offset; an unreadable record is counted and the file goes on."""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import sys
import threading
from functools import partial

import pytest

from newscorpus.store.connection import connect
from tests.crawler.warc_fixtures import (
    EN_PAGE,
    EN_PARAGRAPHS,
    ZH_GBK_PAGE,
    ZH_GBK_TITLE,
    ZH_PAGE,
    Record,
    article_html,
    write_warc,
)
from tests.local_crawl import PROJECT_ROOT

EN_URL = "http://news.example.com/2024/03/05/bridge.html"
ZH_URL = "http://www.example.cn/2024/03/06/qiao.html"
GBK_URL = "http://news.example.cn/2024/03/07/rain.html"
UPDATED_URL = "http://news.example.com/2024/03/09/bridge-update.html"
TRUNCATED_URL = "http://news.example.com/2024/03/10/bridge-cut.html"
NEWER = article_html("Bridge plans approved after a second vote", EN_PARAGRAPHS[::-1], "en", "utf-8", "2024-03-09")
OLDER = article_html("Bridge plans go to a second vote", EN_PARAGRAPHS[1:], "en", "utf-8", "2024-03-09")


def ingest(dsn: str, *arguments: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "NEWSCORPUS_DB_DSN"}
    return subprocess.run([sys.executable, "-m", "newscorpus.cli.main", "ingest", *arguments, "--dsn", dsn],
                          cwd=PROJECT_ROOT, env=environment, capture_output=True, text=True, timeout=300)


def run_counters(dsn: str) -> dict:
    with connect(dsn) as connection:
        return connection.execute("SELECT counters FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()[0]


def outcomes(counters: dict) -> dict:
    return {name.rsplit("/", 1)[1]: value for name, value in counters.items()
            if name.startswith("newscorpus/outcome/")}


def test_every_record_is_an_article_or_a_named_outcome(database_dsn, tmp_path):
    path = tmp_path / "mixed.warc.gz"
    offsets = write_warc(path, [
        Record(EN_URL, EN_PAGE.encode()),
        Record(ZH_URL, ZH_PAGE.encode()),
        Record(GBK_URL, ZH_GBK_PAGE.encode("gbk"), content_type="text/html; charset=gbk"),
        Record(EN_URL, b"", record_type="revisit", date="2024-03-08T11:00:00Z"),
        Record("http://news.example.com/missing.html", b"<html>not found</html>", status=404),
        Record("http://news.example.com/old-bridge", b"", status=301),
        Record("http://news.example.com/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64), content_type="image/png"),
        Record(UPDATED_URL, NEWER.encode(), date="2024-03-09T12:00:00Z"),
        Record(UPDATED_URL, OLDER.encode(), date="2024-03-09T08:00:00Z"),   # older capture read later
        Record(TRUNCATED_URL, EN_PAGE.replace("stone bridge", "old bridge").encode(),
               extra=(("WARC-Truncated", "length"),)),
    ])
    result = ingest(database_dsn, str(path))
    assert result.returncode == 0, result.stderr[-3000:]
    counters = run_counters(database_dsn)
    found = outcomes(counters)
    assert counters["newscorpus/warc/records"] == 10
    assert sum(found.values()) == 10, found                  # articles + outcomes = records
    assert found["warc_revisit"] == 1 and found["http_error"] == 1 and found["redirect"] == 1
    assert found["not_html"] == 1 and found["superseded"] == 1
    assert found["article"] >= 4
    assert counters["newscorpus/warc/truncated"] == 1
    with connect(database_dsn) as connection:
        articles = dict(connection.execute("SELECT url, title FROM articles").fetchall())
        sites = dict(connection.execute(
            "SELECT a.url, s.name FROM articles a JOIN sites s ON s.id = a.site_id").fetchall())
        pages = connection.execute("SELECT url, warc_file, warc_offset, fetched_at FROM pages WHERE url = %s",
                                   (EN_URL,)).fetchall()
    assert articles[GBK_URL] == ZH_GBK_TITLE                 # GBK decoded by the page's charset
    assert articles[ZH_URL] == "青石镇将重建老石桥"
    assert articles[UPDATED_URL] == "Bridge plans approved after a second vote"   # the latest capture wins
    assert sites[ZH_URL] == sites[GBK_URL] == "example.cn"    # an ad-hoc site per registered domain
    assert sites[EN_URL] == "example.com"
    origin = next(page for page in pages if page[2] == offsets[0])
    assert origin[1] == str(path) and origin[3].isoformat().startswith("2024-03-08T10:00:00")   # WARC-Date


def test_an_unreadable_record_is_counted_and_the_file_goes_on(database_dsn, tmp_path):
    path = tmp_path / "corrupt.warc.gz"
    urls = [f"http://news.example.com/2024/03/0{day}/page.html" for day in (1, 2, 3)]
    pages = [EN_PAGE, ZH_PAGE, ZH_GBK_PAGE.encode("gbk").decode("gbk")]
    offsets = write_warc(path, [Record(url, page.encode()) for url, page in zip(urls, pages, strict=True)])
    data = bytearray(path.read_bytes())
    data[offsets[1] + 40:offsets[1] + 80] = b"\xff" * 40     # inside the second record's gzip member
    path.write_bytes(bytes(data))
    result = ingest(database_dsn, str(path))
    assert result.returncode == 0, result.stderr[-3000:]
    counters = run_counters(database_dsn)
    assert counters["newscorpus/warc/corrupt_records"] == 1
    with connect(database_dsn) as connection:
        stored = {row[0] for row in connection.execute("SELECT url FROM articles")}
    assert stored == {urls[0], urls[2]}


@pytest.mark.parametrize("make", ["missing", "not_warc", "empty_folder"])
def test_a_bad_path_is_one_line_and_exit_2(database_dsn, tmp_path, make):
    target = tmp_path / make
    if make == "not_warc":
        target.write_text("<html>just a page</html>", encoding="utf-8")
    elif make == "empty_folder":
        target.mkdir()
    result = ingest(database_dsn, str(target))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("newscorpus: error: "), result.stderr
    assert "Traceback" not in result.stderr


def _wget() -> str | None:
    return shutil.which("wget")


def test_a_warc_written_by_wget_is_ingested(database_dsn, tmp_path):
    """An independent writer: GNU wget's --warc-file against a local server of our pages."""
    if _wget() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("wget is missing (.ci/run installs it)")
        pytest.skip("wget is not installed (apt-get install wget)")
    root = tmp_path / "site"
    (root / "2024/03/05").mkdir(parents=True)
    (root / "2024/03/06").mkdir(parents=True)
    (root / "2024/03/05/bridge.html").write_text(EN_PAGE, encoding="utf-8")
    (root / "2024/03/06/rain.html").write_bytes(ZH_GBK_PAGE.encode("gbk"))
    (root / "index.html").write_text('<html><body><a href="/2024/03/05/bridge.html">bridge</a> '
                                     '<a href="/2024/03/06/rain.html">rain</a></body></html>', encoding="utf-8")
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        fetched = subprocess.run([_wget(), "-q", "-r", "-l", "1", "--no-proxy", "-P", str(tmp_path / "mirror"),
                                  f"--warc-file={tmp_path / 'wget'}", f"{base}/"],
                                 capture_output=True, text=True, timeout=120)
    finally:
        server.shutdown()
        server.server_close()
    assert (tmp_path / "wget.warc.gz").exists(), fetched.stderr
    result = ingest(database_dsn, str(tmp_path / "wget.warc.gz"))
    assert result.returncode == 0, result.stderr[-3000:]
    counters = run_counters(database_dsn)
    assert sum(outcomes(counters).values()) == counters["newscorpus/warc/records"]
    with connect(database_dsn) as connection:
        titles = {row[0] for row in connection.execute("SELECT title FROM articles")}
    assert {"Elmbrook will rebuild its stone bridge", ZH_GBK_TITLE} <= titles
