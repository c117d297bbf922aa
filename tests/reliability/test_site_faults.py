"""A site that misbehaves: answers slower than DOWNLOAD_TIMEOUT, 5xx bursts (cured by retries or not), resets
the connection mid-answer (always, or once), redirects without end or in a circle, streams a body past
DOWNLOAD_MAXSIZE, and has a sitemap larger than DOWNLOAD_MAXSIZE (sitemaps may be 50 MB). Retries and limits
apply, the crawl finishes, every outcome is a row in `pages` and a counter in the run's stats, and the good
articles are stored."""

from __future__ import annotations

import threading

import pytest

from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl, last_run_counters, outcomes, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html, reset, send, slow

RETRY_TIMES = 2           # 3 attempts per request
REDIRECT_MAX_TIMES = 5
DOWNLOAD_TIMEOUT = 1      # the slow page answers after 3 s

GOOD = [f"/2026/05/1{n}/good-{n}.html" for n in range(5)]
SLOW, BURST, ALWAYS_500 = "/2026/05/01/slow.html", "/2026/05/02/burst.html", "/2026/05/03/always-500.html"
RESET, RESET_ONCE, LOOP = "/2026/05/04/reset.html", "/2026/05/05/reset-once.html", "/2026/05/06/loop-0.html"
CYCLE_A, CYCLE_B = "/2026/05/07/cycle-a.html", "/2026/05/07/cycle-b.html"
STREAMED = "/2026/05/08/streamed.html"               # 4 MB, chunked: no Content-Length announces it
BIG_SITEMAP = "/sitemap-big.xml"                     # 3 MB, over the tests' DOWNLOAD_MAXSIZE of 2 MB
IN_BIG_SITEMAP = [f"/2026/05/2{n}/mapped-{n}.html" for n in range(3)]


def failing_then(failures: int, fail, succeed):
    """A route that answers with ``fail`` ``failures`` times, then with ``succeed``."""
    left, lock = [failures], threading.Lock()

    def answer(handler) -> None:
        with lock:
            failing, left[0] = left[0] > 0, left[0] - 1
        (fail if failing else succeed)(handler)
    return answer


def loop(handler) -> None:
    number = int(handler.path.rsplit("-", 1)[1].split(".")[0])
    send(handler, 302, {"Location": f"/2026/05/06/loop-{number + 1}.html"}, b"")


def streamed(handler, chunks: int = 64) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", HTML)
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b"<p>" + b"streamed " * 7280 + b"</p>"   # 64 KB
    try:
        for _ in range(chunks):
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        handler.wfile.write(b"0\r\n\r\n")
    except ConnectionError:  # the crawler stopped reading at the limit
        pass


def big_sitemap(base: str) -> bytes:
    padding = "<!-- " + "padding " * 400_000 + " -->"   # 3.2 MB of comment around three entries
    urls = "".join(f"<url><loc>{base}{path}</loc></url>" for path in IN_BIG_SITEMAP)
    return (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{padding}{urls}</urlset>").encode()


@pytest.fixture(scope="module")
def faulty_crawl(postgres_server_dsn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("faults")
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        def ok(number):
            return lambda handler: send(handler, 200, {"Content-Type": HTML}, article_html(number))

        def error(status):
            return lambda handler: send(handler, status, {"Content-Type": HTML}, b"<html>busy</html>")

        site.routes.update({path: (200, {"Content-Type": HTML}, article_html(n)) for n, path in enumerate(GOOD)})
        site.routes.update({
            "/": (200, {"Content-Type": HTML}, listing_html([*GOOD, SLOW, BURST, ALWAYS_500, RESET, RESET_ONCE,
                                                              LOOP])),
            SLOW: slow(3),
            BURST: failing_then(2, error(503), ok(20)),
            ALWAYS_500: error(500),
            RESET: reset,
            RESET_ONCE: failing_then(1, reset, ok(21)),
        })
        site.routes.update({f"/2026/05/06/loop-{n}.html": loop for n in range(50)})
        config = site_toml(tmp / "faults.toml", "faults", start_urls=[f"{site.base_url}/"])
        result = crawl(dsn, config, tmp / "crawl.log", settings={
            "RETRY_TIMES": RETRY_TIMES, "REDIRECT_MAX_TIMES": REDIRECT_MAX_TIMES,
            "DOWNLOAD_TIMEOUT": DOWNLOAD_TIMEOUT})
        assert result.returncode == 0, result.stderr[-3000:]
        yield site, outcomes(dsn, site.base_url), last_run_counters(dsn)


def test_each_fault_ends_in_a_recorded_outcome(faulty_crawl):
    site, found, _ = faulty_crawl
    assert found[SLOW] == "fetch_error"
    assert found[ALWAYS_500] == "http_error"
    assert found[RESET] == "fetch_error"
    assert found[LOOP] == "fetch_error"             # the chain is recorded under its first URL
    assert found[BURST] == found[RESET_ONCE] == "article"          # cured by a retry
    assert all(found[path] == "article" for path in GOOD)


def test_retries_and_limits_apply(faulty_crawl):
    site, _, counters = faulty_crawl
    attempts = RETRY_TIMES + 1
    assert site.requests[SLOW] == site.requests[ALWAYS_500] == site.requests[RESET] == attempts
    assert site.requests[BURST] == 3 and site.requests[RESET_ONCE] == 2
    hops = [site.requests[f"/2026/05/06/loop-{n}.html"] for n in range(50)]
    assert hops[: REDIRECT_MAX_TIMES + 1] == [1] * (REDIRECT_MAX_TIMES + 1) and sum(hops) == REDIRECT_MAX_TIMES + 1
    assert counters["retry/max_reached"] == 3                       # slow, always-500, reset
    assert counters["retry/count"] == 3 * RETRY_TIMES + 2 + 1       # + the burst's 2 and the reset-once's 1
    assert counters["newscorpus/outcome/fetch_error"] == 3          # slow, reset, the redirect chain
    assert counters["newscorpus/outcome/http_error"] == 1
    assert counters["newscorpus/outcome/article"] == len(GOOD) + 2
    assert counters["finish_reason"] == "finished"


def test_loops_oversized_bodies_and_big_sitemaps_are_recorded_as_what_they_are(postgres_server_dsn, tmp_path):
    """Loops, oversized bodies and big sitemaps, under the default timeouts (the big bodies must not race the 1 s
    timeout of the crawl above)."""
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.routes.update({
            "/": (200, {"Content-Type": HTML}, listing_html([CYCLE_A, STREAMED, GOOD[0]])),
            GOOD[0]: (200, {"Content-Type": HTML}, article_html(0)),
            CYCLE_A: (302, {"Location": CYCLE_B}, b""), CYCLE_B: (302, {"Location": CYCLE_A}, b""),
            STREAMED: streamed, BIG_SITEMAP: (200, {"Content-Type": "application/xml"}, big_sitemap(site.base_url)),
        })
        site.routes.update({path: (200, {"Content-Type": HTML}, article_html(30 + n))
                            for n, path in enumerate(IN_BIG_SITEMAP)})
        config = site_toml(tmp_path / "sizes.toml", "sizes", start_urls=[f"{site.base_url}/"],
                           sitemap_urls=[f"{site.base_url}{BIG_SITEMAP}"])
        result = crawl(dsn, config, tmp_path / "crawl.log")
        assert result.returncode == 0, result.stderr[-3000:]
        found, counters = outcomes(dsn, site.base_url), last_run_counters(dsn)
    assert found[CYCLE_A] == "fetch_error"          # A -> B -> A: was no row at all (the filter dropped A)
    assert site.requests[CYCLE_A] == site.requests[CYCLE_B] == 1
    assert found[STREAMED] == "too_large"           # was fetch_error
    assert found[BIG_SITEMAP] == "sitemap"          # was too_large, its entries never seen
    assert all(found[path] == "article" for path in [GOOD[0], *IN_BIG_SITEMAP])
    assert counters["newscorpus/outcome/fetch_error"] == counters["newscorpus/outcome/too_large"] == 1
