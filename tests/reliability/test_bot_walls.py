"""A site that answers part of the crawl with challenge pages (200, "Just a moment..."): those pages are recorded
as bot_wall, never stored as articles, and the crawl warns once that the site is blocking it."""

from __future__ import annotations

from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl, last_run_counters, outcomes, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html

CHALLENGE = (b"<html><head><title>Just a moment...</title></head><body><h1>127.0.0.1</h1>"
             b"<p>Checking if the site connection is secure</p><p>Enable JavaScript and cookies to continue</p>"
             b"</body></html>")


def test_challenge_pages_are_bot_walls_counted_and_warned_about_once(postgres_server_dsn, tmp_path):
    paths = [f"/2026/06/{day:02d}/story.html" for day in range(1, 21)]
    walled = set(paths[::2])
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.routes["/"] = (200, {"Content-Type": HTML}, listing_html(paths))
        for number, path in enumerate(paths):
            site.routes[path] = (200, {"Content-Type": HTML}, CHALLENGE if path in walled else article_html(number))
        config = site_toml(tmp_path / "walled.toml", "walled", start_urls=[f"{site.base_url}/"])
        result = crawl(dsn, config, tmp_path / "crawl.log")
        recorded = outcomes(dsn, site.base_url)
        counters = last_run_counters(dsn)
    assert result.returncode == 0, result.stderr[-3000:]
    assert {path: recorded[path] for path in paths} == {
        path: "bot_wall" if path in walled else "article" for path in paths}
    assert counters["newscorpus/outcome/bot_wall"] == len(walled)
    warnings = [line for line in result.stderr.splitlines() if "are bot walls" in line]
    assert len(warnings) == 1 and "walled" in warnings[0] and "WARNING" in warnings[0]
