"""A robots.txt far past the download limit: its first 500 KiB are fetched and obeyed (RFC 9309 §2.5), the rest of
the file is never downloaded, and nothing is logged as stored that was not."""

from __future__ import annotations

from newscorpus.crawler.middlewares.robots_txt import ROBOTS_TXT_PARSE_BYTES, first_lines
from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl, last_run_counters, outcomes, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html

FILLER = b"# a comment line of a generated robots.txt, repeated to make the file large\n"
MAXSIZE = 1024 * 1024


def huge_robots_txt(size: int) -> bytes:
    head = b"User-agent: *\nDisallow: /private/\n"
    early_filler = FILLER * ((ROBOTS_TXT_PARSE_BYTES + 100_000) // len(FILLER))
    late_rule = b"User-agent: *\nDisallow: /late/\n"          # past the first 500 KiB: not read
    body = head + early_filler + late_rule
    return body + FILLER * ((size - len(body)) // len(FILLER) + 1)


def test_a_robots_txt_past_the_size_limit_is_obeyed_from_its_first_500_kib(postgres_server_dsn, tmp_path):
    robots = huge_robots_txt(3 * MAXSIZE)
    pages = ["/2026/06/01/open.html", "/private/2026/06/01/secret.html", "/late/2026/06/01/after.html"]
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.routes["/robots.txt"] = (200, {"Content-Type": "text/plain"}, robots)
        site.routes["/"] = (200, {"Content-Type": HTML}, listing_html(pages))
        for number, path in enumerate(pages):
            site.routes[path] = (200, {"Content-Type": HTML}, article_html(number))
        config = site_toml(tmp_path / "robots.toml", "robots", start_urls=[f"{site.base_url}/"])
        result = crawl(dsn, config, tmp_path / "crawl.log", {"DOWNLOAD_MAXSIZE": str(MAXSIZE)})
        counters = last_run_counters(dsn)
        recorded = outcomes(dsn, site.base_url)
    assert result.returncode == 0, result.stderr[-3000:]
    assert site.requests["/robots.txt"] == 1
    assert site.requests["/private/2026/06/01/secret.html"] == 0          # disallowed in the first 500 KiB
    assert site.requests["/2026/06/01/open.html"] == 1
    assert site.requests["/late/2026/06/01/after.html"] == 1              # the rule past 500 KiB is not read
    assert counters["newscorpus/robots_txt/truncated"] == 1
    assert counters.get("robotstxt/forbidden") == 1
    assert "/robots.txt" not in recorded and "too_large" not in result.stderr


def test_only_whole_lines_of_the_first_500_kib_are_parsed():
    body = b"User-agent: *\n" + b"x" * ROBOTS_TXT_PARSE_BYTES + b"\nDisallow: /\n"
    assert first_lines(body) == b"User-agent: *\n"
    assert first_lines(b"User-agent: *\nDisallow: /a\n") == b"User-agent: *\nDisallow: /a\n"
    assert first_lines(b"y" * (ROBOTS_TXT_PARSE_BYTES + 1)) == b""
