"""`newscorpus extract` through the real process, as a trafilatura user would run it: folders and files, a URL list
fetched from a local server, standard input; every output format read back with its parser; the mistakes refused
in one line with exit code 2."""

from __future__ import annotations

import csv
import http.server
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from xml.etree import ElementTree

import pytest

from newscorpus.cli.extraction_commands import OUTPUT_FORMATS
from tests.cli.test_user_errors import NEWSCORPUS, one_line_error
from tests.local_crawl import PROJECT_ROOT

EN_PAGE = (
    "<html><head><title>Bridge opens to traffic - Riverside Daily</title>"
    "<meta name='author' content='Jane Roe'><meta property='article:published_time' content='2026-11-02'></head>"
    "<body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article><h1>Bridge opens to traffic</h1>"
    "<p>The new bridge over the river opened on Monday morning, cutting the trip across town to ten minutes.</p>"
    "<p>Engineers said the work had taken three years, and that traffic would be watched for a month.</p>"
    "</article></body></html>"
)
ZH_PAGE = (
    "<html><head><meta charset='{charset}'><title>大桥通车_新闻</title><meta name='author' content='李四'></head>"
    "<body><div><a href='/'>首页</a></div><div><h1>大桥通车</h1>"
    "<p>记者今天获悉，跨江大桥于上午正式通车，全长三公里，是本市第一座斜拉桥。</p>"
    "<p>大桥通车后，两岸通行时间由一小时缩短到十分钟，市民纷纷前来参观。</p></div></body></html>"
)
ZH_GBK = ZH_PAGE.format(charset="gbk").encode("gbk")
ZH_UTF8 = ZH_PAGE.format(charset="utf-8").encode("utf-8")
FORMAT_SUFFIX = {"txt": ".txt", "json": ".json", "markdown": ".md", "xml": ".xml", "csv": ".csv"}


def extract_command(*arguments: str, stdin: bytes | None = None, cwd: Path = PROJECT_ROOT
                    ) -> subprocess.CompletedProcess:
    return subprocess.run([*NEWSCORPUS, "extract", *arguments], cwd=cwd, input=stdin if stdin is not None else b"",
                          capture_output=True, timeout=120, env=dict(os.environ))


def summary(result: subprocess.CompletedProcess) -> str:
    return result.stderr.decode("utf-8").strip().splitlines()[-1]


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    """An en page, a GBK and a UTF-8 zh page (in a subfolder) and an empty page."""
    folder = tmp_path / "pages"
    (folder / "zh").mkdir(parents=True)
    (folder / "en.html").write_text(EN_PAGE, encoding="utf-8")
    (folder / "zh_gbk.html").write_bytes(ZH_GBK)
    (folder / "zh" / "utf8.htm").write_bytes(ZH_UTF8)
    (folder / "empty.html").write_bytes(b"")
    (folder / "notes.md").write_text("not a page", encoding="utf-8")
    return folder


def read_back(data: bytes, fmt: str) -> list[dict]:
    """Each page of an output file, parsed by its format's own reader, as {title, body} (and url, author)."""
    text = data.decode("utf-8")
    if fmt == "json":
        return [json.loads(line) for line in text.splitlines()]
    if fmt == "csv":
        return list(csv.DictReader(io.StringIO(text, newline="")))
    if fmt == "xml":
        root = ElementTree.fromstring(data)
        docs = [root] if root.tag == "doc" else list(root)
        assert all(doc.tag == "doc" for doc in docs)
        return [{**doc.attrib, "body": "\n".join(p.text for p in doc.find("main"))} for doc in docs]
    if fmt == "markdown":
        title, *rest = text.split("\n\n")
        assert title.startswith("# ")
        meta = dict(line[2:].split(": ", 1) for line in rest[0].splitlines())
        return [{"title": title[2:], **meta, "body": "\n".join(part.strip() for part in rest[1:])}]
    title, body = text.split("\n\n", 1)
    return [{"title": title, "body": body.strip()}]


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
def test_an_input_dir_gives_one_file_per_page_in_each_format(pages: Path, tmp_path: Path, fmt: str):
    out = tmp_path / "out"
    result = extract_command("--input-dir", str(pages), "--output-dir", str(out), "--output-format", fmt)
    assert result.returncode == 0, result.stderr
    assert summary(result).startswith("extract: 4 page(s) read: 3 extracted, 1 no body (empty 1), 0 error(s)")
    suffix = FORMAT_SUFFIX[fmt]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == sorted(
        [f"en{suffix}", f"zh/utf8{suffix}", f"zh_gbk{suffix}"])  # the empty page has no file, notes.md is no page
    assert "newscorpus: empty: " in result.stderr.decode("utf-8")
    for name, title, words in (("en", "Bridge opens to traffic", "cutting the trip across town"),
                               ("zh_gbk", "大桥通车", "跨江大桥于上午正式通车"),
                               ("zh/utf8", "大桥通车", "两岸通行时间")):
        [page] = read_back((out / f"{name}{suffix}").read_bytes(), fmt)
        assert page["title"] == title
        assert words in page["body"]
    if fmt != "txt":
        [en] = read_back((out / f"en{suffix}").read_bytes(), fmt)
        assert "Jane Roe" in str(en.get("author") or en.get("authors"))


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
def test_one_output_file_of_many_pages_parses_in_each_format(pages: Path, tmp_path: Path, fmt: str):
    target = tmp_path / f"corpus{FORMAT_SUFFIX[fmt]}"
    result = extract_command(str(pages), str(pages / "zh" / "utf8.htm"), "-o", str(target))
    assert result.returncode == 0, result.stderr
    read = read_back(target.read_bytes(), fmt) if fmt not in ("txt", "markdown") else None
    if fmt in ("json", "csv"):  # every page, the empty one with its reason
        assert [Path(r["path"]).name for r in read] == ["empty.html", "en.html", "zh_gbk.html", "utf8.htm"]
        assert [r["reason"] for r in read] == ["empty", "", "", ""] if fmt == "csv" else ["empty", None, None, None]
    elif fmt == "xml":
        assert [doc["title"] for doc in read] == ["Bridge opens to traffic", "大桥通车", "大桥通车"]
    else:
        text = target.read_text(encoding="utf-8")
        assert text.count("跨江大桥于上午正式通车") == 2 and "Bridge opens to traffic" in text


def test_no_metadata_leaves_the_body(pages: Path):
    result = extract_command(str(pages / "en.html"), "--no-metadata")
    record = json.loads(result.stdout)
    assert set(record) == {"path", "url", "body", "reason"} and "ten minutes" in record["body"]
    text = extract_command(str(pages / "en.html"), "--no-metadata", "--output-format", "txt").stdout.decode()
    assert text.startswith("The new bridge") and "Bridge opens to traffic" not in text
    doc = ElementTree.fromstring(extract_command(str(pages / "en.html"), "--no-metadata", "--output-format", "xml")
                                 .stdout)
    assert "title" not in doc.attrib and doc.find("main/p").text.startswith("The new bridge")


def test_a_page_on_stdin_with_its_url(tmp_path: Path):
    result = extract_command("-u", "https://news.example.cn/1.html", "--output-format", "markdown", stdin=ZH_GBK)
    assert result.returncode == 0, result.stderr
    [page] = read_back(result.stdout, "markdown")
    assert page["title"] == "大桥通车" and page["url"] == "https://news.example.cn/1.html"
    assert "跨江大桥于上午正式通车" in page["body"]
    record = json.loads(extract_command(stdin=EN_PAGE.encode()).stdout)
    assert record["title"] == "Bridge opens to traffic" and record["path"] is None
    out = tmp_path / "out"
    assert extract_command("-u", "https://news.example.cn/1.html", "--output-dir", str(out), stdin=ZH_GBK
                           ).returncode == 0
    assert [p.name for p in out.iterdir()] == ["news.example.cn_1.json"]


class _Site(http.server.BaseHTTPRequestHandler):
    """robots.txt forbidding /private/, two articles (one GBK), a redirect to one of them; 404 otherwise."""

    requests: list[tuple[str, str]] = []
    PAGES = {
        "/robots.txt": (b"User-agent: *\nDisallow: /private/\n", "text/plain"),
        "/news/en.html": (EN_PAGE.encode(), "text/html; charset=utf-8"),
        "/news/zh.html": (ZH_GBK, "text/html; charset=gbk"),
        "/private/secret.html": (EN_PAGE.encode(), "text/html"),
    }

    def do_GET(self):
        self.requests.append((self.path, self.headers.get("User-Agent", "")))
        if self.path == "/old-address":
            self.send_response(301)
            self.send_header("Location", "/news/en.html")
            self.end_headers()
            return
        body, content_type = self.PAGES.get(self.path, (b"not found", "text/plain"))
        self.send_response(200 if self.path in self.PAGES else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def site():
    _Site.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_url_list_is_fetched_politely_and_failures_are_counted(site: str, tmp_path: Path):
    urls = tmp_path / "urls.txt"
    urls.write_text(f"# articles\n{site}/news/en.html\n\n{site}/missing.html\n{site}/private/secret.html\n"
                    f"{site}/news/zh.html\n{site}/old-address\n", encoding="utf-8")
    target = tmp_path / "articles.csv"
    result = extract_command("-i", str(urls), "-o", str(target), "--delay", "0.01", "--user-agent", "probe-bot/1.0")
    err = result.stderr.decode("utf-8")
    assert result.returncode == 1, err  # some pages could not be had; the others were written
    assert summary(result) == ("extract: 5 page(s) read: 3 extracted, 0 no body, 2 error(s) (http_error 1, "
                               f"robots_disallowed 1); written to {target}")
    assert f"newscorpus: http_error (HTTP 404): {site}/missing.html" in err
    assert f"newscorpus: robots_disallowed (disallowed by robots.txt): {site}/private/secret.html" in err
    rows = read_back(target.read_bytes(), "csv")
    assert [row["url"] for row in rows] == [f"{site}/news/en.html", f"{site}/news/zh.html", f"{site}/news/en.html"]
    assert rows[1]["title"] == "大桥通车" and rows[1]["encoding"] == "gb18030"  # GBK is read as its superset
    paths = [path for path, _ in _Site.requests]
    assert paths.count("/robots.txt") == 1 and "/private/secret.html" not in paths
    assert {agent for _, agent in _Site.requests} == {"probe-bot/1.0"}


def test_a_url_list_into_an_output_dir_names_files_after_the_urls(site: str, tmp_path: Path):
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{site}/news/en.html\n{site}/news/zh.html\n", encoding="utf-8")
    out = tmp_path / "out"
    result = extract_command("-i", str(urls), "--output-dir", str(out), "--output-format", "txt", "--delay", "0")
    assert result.returncode == 0, result.stderr
    port = site.rsplit(":", 1)[1]
    assert sorted(p.name for p in out.iterdir()) == [f"127.0.0.1_{port}_news_en.txt", f"127.0.0.1_{port}_news_zh.txt"]
    assert {agent for _, agent in _Site.requests} == {"newscorpus/0.1 (news corpus crawler; polite)"}


def test_mistakes_are_one_line_and_exit_2(pages: Path, tmp_path: Path):
    page = str(pages / "en.html")
    existing = tmp_path / "existing.jsonl"
    existing.write_text("keep me\n", encoding="utf-8")
    one_line_error(_text(extract_command(page, "-o", str(existing))), "exists", "--force")
    assert existing.read_text(encoding="utf-8") == "keep me\n"
    forced = extract_command(page, "-o", str(existing), "--force")
    assert forced.returncode == 0 and json.loads(existing.read_text(encoding="utf-8"))["title"]
    one_line_error(_text(extract_command(page, "-o", "/proc/x.jsonl")), "cannot write /proc/x.jsonl")
    one_line_error(_text(extract_command("--input-dir", str(tmp_path / "missing"))), "--input-dir", "no such folder")
    one_line_error(_text(extract_command(page, "--output-format", "pdf")), "unknown value 'pdf'", "markdown")
    one_line_error(_text(extract_command(page, "-o", str(tmp_path / "x.pdf"))), "cannot tell the format", ".md")
    one_line_error(_text(extract_command(page, "-o", str(tmp_path / "x.xml.gz"))), "uncompressed")
    one_line_error(_text(extract_command("-i", str(tmp_path / "no-urls.txt"))), "cannot read the URL list")
    one_line_error(_text(extract_command(page, "--delay", "1")), "--delay", "-i URLS")
    one_line_error(_text(extract_command(page, "-o", "a.jsonl", "--output-dir", "b")), "not both")
    out = tmp_path / "out"
    assert extract_command(page, "--output-dir", str(out)).returncode == 0
    one_line_error(_text(extract_command(page, "--output-dir", str(out))), "exist in", "--force")
    assert extract_command(page, "--output-dir", str(out), "--force").returncode == 0
    assert sorted(os.listdir(tmp_path)) == ["existing.jsonl", "out", "pages"]  # no partial file anywhere


def _text(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode("utf-8"),
                                       result.stderr.decode("utf-8"))


def test_the_python_api_is_one_import_and_import_newscorpus_stays_cheap():
    probe = ("import sys, json; import newscorpus; cheap = sorted(m for m in sys.modules if m.startswith("
             "('newscorpus.', 'lxml', 'jieba')));"
             "from newscorpus import extract; r = extract(sys.argv[1].encode(), url='https://x.example/a');"
             "print(json.dumps([cheap, r.title, r.reason]))")
    result = subprocess.run([sys.executable, "-c", probe, EN_PAGE], capture_output=True, text=True, timeout=60)
    assert json.loads(result.stdout) == [[], "Bridge opens to traffic", None]
