"""A site config with values of the wrong type is refused with one line naming the field, exit code 2, by both
`scrapy crawl site` and `newscorpus build`; nothing is fetched. Read loosely, `allow_private_addresses = "false"`
(a string, so true) would turn the private-address guard off, `follow_links = "no"` would still follow and
`max_depth = true` would become 1."""

from __future__ import annotations

import pytest

from tests.cli.test_build_commands import newscorpus
from tests.local_crawl import run_crawl
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html

WRONG = {
    "allow_private_addresses": ('"false"', "allow_private_addresses must be true or false, not 'false' (a string)"),
    "follow_links": ('"no"', "follow_links must be true or false, not 'no' (a string)"),
    "max_depth": ("true", "max_depth must be a whole number, not True (a boolean)"),
}


@pytest.fixture(scope="module")
def site():
    with HostileSite() as served:
        served.routes["/"] = (200, {"Content-Type": HTML}, listing_html(["/2026/06/01/story.html"]))
        served.routes["/2026/06/01/story.html"] = (200, {"Content-Type": HTML}, article_html(1))
        yield served


@pytest.mark.parametrize("field", sorted(WRONG))
def test_a_wrongly_typed_field_is_one_line_and_exit_2(field, site, tmp_path, postgres_server_dsn):
    value, message = WRONG[field]
    config = tmp_path / "typed.toml"
    config.write_text(f'name = "typed"\nstart_urls = ["{site.base_url}/"]\n{field} = {value}\n', encoding="utf-8")
    crawl = run_crawl(postgres_server_dsn, f"site={config}", settings={"LOG_LEVEL": "WARNING"}, timeout=120)
    build = newscorpus(postgres_server_dsn, "build", "--site-config", str(config), "--out", str(tmp_path / "out"))
    for result in (crawl, build):
        assert result.returncode == 2, result.stderr[-2000:]
        assert result.stderr.count("\n") == 1 and message in result.stderr and str(config) in result.stderr
    assert sum(site.requests.values()) == 0
