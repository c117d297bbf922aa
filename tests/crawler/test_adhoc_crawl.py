"""Ad-hoc crawls (`-a url=`) of local sites shaped as a real WordPress blog is: reply links
(`?replytocom=`), tracking parameters and fragments are the same page; comment pages, feeds and the REST API are
not fetched; two sites on two ports stay two sites; a loopback start address is refused in one line naming
the setting, and the site's name is said at the start; a depth or page budget that cuts the crawl says so, with
counts. Sites and texts are our own."""

from __future__ import annotations

import psycopg
import pytest

from newscorpus.demo.server import DemoSite
from tests.conftest import fresh_schema
from tests.local_crawl import run_crawl
from tests.reliability.hostile_server import HTML, HostileSite, article_html

POSTS = [f"/2026/07/0{n}/harbour-post-{n}/" for n in range(1, 4)]
NOT_PAGES = ["/feed/", "/comments/feed/", "/wp-json/wp/v2/posts", "/wp-login.php", "/xmlrpc.php"]
PRIVATE = {"NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES": "True"}


def blog_page(links: list[str], body: bytes = b"") -> bytes:
    anchors = "".join(f'<a href="{link}">link</a> ' for link in links)
    return b"<html><body>" + body + f"<div id='links'>{anchors}</div>".encode() + b"</body></html>"


@pytest.fixture
def blog():
    """A WordPress-like blog: every post links to reply forms, its comment pages, feeds and the REST API."""
    with HostileSite() as site:
        site.routes["/"] = (200, {"Content-Type": HTML},
                            blog_page([*POSTS, *NOT_PAGES, "/?utm_source=newsletter&utm_medium=email"]))
        for number, path in enumerate(POSTS, 1):
            links = [f"{path}?replytocom={number}#respond", f"{path}?replytocom={number + 10}#respond",
                     f"{path}#comments", f"{path}comment-page-2/#comments", f"{path}?share=twitter",
                     f"{path}?utm_source=feed", f"{path}feed/", *POSTS]
            site.routes[path] = (200, {"Content-Type": HTML}, blog_page(links, article_html(number)))
        yield site


def stored(dsn: str) -> tuple[list[str], list[str]]:
    with psycopg.connect(dsn) as connection:
        articles = [row[0] for row in connection.execute("SELECT url FROM articles ORDER BY url")]
        sites = [row[0] for row in connection.execute("SELECT name FROM sites ORDER BY name")]
    return articles, sites


def test_reply_links_and_tracking_parameters_are_one_page_and_non_pages_are_skipped(blog, postgres_server_dsn):
    with fresh_schema(postgres_server_dsn) as dsn:
        result = run_crawl(dsn, f"url={blog.base_url}/", settings=PRIVATE)
        assert result.returncode == 0, result.stderr[-3000:]
        articles, sites = stored(dsn)
    assert articles == [blog.base_url + path for path in POSTS]           # no query, no fragment, no copies
    assert all(blog.requests[path] == 1 for path in POSTS), blog.requests  # not once per reply link
    assert not any(blog.requests[path] for path in NOT_PAGES)
    assert not any("comment-page" in path or path.endswith("/feed/") for path in blog.requests)
    assert sites == [f"127.0.0.1-{blog.port}"]


def test_two_local_sites_on_two_ports_stay_two_sites(blog, postgres_server_dsn):
    with HostileSite() as other, fresh_schema(postgres_server_dsn) as dsn:
        other.routes["/"] = (200, {"Content-Type": HTML}, blog_page(["/2026/07/09/other-post/"]))
        other.routes["/2026/07/09/other-post/"] = (200, {"Content-Type": HTML}, blog_page([], article_html(9)))
        for site in (blog, other):
            result = run_crawl(dsn, f"url={site.base_url}/", settings=PRIVATE)
            assert result.returncode == 0, result.stderr[-3000:]
        _, sites = stored(dsn)
    assert sites == sorted([f"127.0.0.1-{blog.port}", f"127.0.0.1-{other.port}"])   # not one "127.0.0.1"


def test_a_loopback_start_address_is_refused_in_one_line_naming_the_setting(blog, postgres_server_dsn):
    with fresh_schema(postgres_server_dsn) as dsn:
        result = run_crawl(dsn, f"url={blog.base_url}/", settings={"LOG_LEVEL": "WARNING"})
        with psycopg.connect(dsn) as connection:
            tables = connection.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
            written = tables.fetchone()[0]
    assert result.returncode == 2, result.stderr[-3000:]
    assert sum(blog.requests.values()) == 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "loopback or private network" in lines[0], result.stderr
    assert "-s NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES=True" in lines[0]
    assert written == 0   # not even a schema: no empty site row


def test_an_adhoc_crawl_names_its_site_at_the_start(blog, postgres_server_dsn):
    with fresh_schema(postgres_server_dsn) as dsn:
        result = run_crawl(dsn, f"url={blog.base_url}/", settings={**PRIVATE, "LOG_LEVEL": "WARNING"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr.splitlines()[0] == f"ad-hoc crawl of {blog.base_url}/ as site 127.0.0.1-{blog.port}"


def test_a_depth_or_page_budget_that_cuts_the_crawl_says_so(postgres_server_dsn):
    with DemoSite(article_count=60, huge_bytes=3 * 1024 * 1024) as site, fresh_schema(postgres_server_dsn) as dsn:
        url = f"{site.base_url}/section/china/"        # listings 10 a page: depth 1 sees the first 10
        shallow = run_crawl(dsn, f"url={url}", settings={**PRIVATE, "NEWSCORPUS_MAX_DEPTH": "1"})
        budget = run_crawl(dsn, f"url={url}", settings={**PRIVATE, "NEWSCORPUS_MAX_PAGES": "5",
                                                         "NEWSCORPUS_REFETCH_AFTER_HOURS": "0"})
        with psycopg.connect(dsn) as connection:
            counters = [row[0] for row in connection.execute("SELECT counters FROM crawl_runs ORDER BY id")]
    assert shallow.returncode == budget.returncode == 0
    cut = counters[0]["newscorpus/spider/depth_cut"]
    assert cut > 0 and f"the depth limit cut the crawl: {cut} page(s) linked from pages 1 link(s) deep" \
        in shallow.stderr and "NEWSCORPUS_MAX_DEPTH" in shallow.stderr
    over = counters[1]["newscorpus/spider/page_budget_cut"]
    assert over > 0 and f"the page budget cut the crawl: {over} page(s) found after the first 5" in budget.stderr
    assert "page budget" not in shallow.stderr and "depth limit" not in budget.stderr
