"""Many sites in one build (benchmarks/many_sites.py at a small size): five generated sites on their own loopback
hosts, built with a connection bound that fits two at once. Nothing is lost, the build's Postgres connections stay
within the bound, wire reprints are linked across publishers and a weekly series is not, and no host sees more
requests at once than its limit."""

from __future__ import annotations

from benchmarks.many_sites import PER_HOST_LIMIT, run_sites
from newscorpus.builds.crawl_child import BUILD_CONNECTIONS, crawl_shares, site_connections, sites_at_once
from newscorpus.crawler.runner import project_settings

SITES = 5


def test_five_sites_built_two_at_once_keep_every_article_within_the_connection_bound(postgres_server_dsn):
    bound = BUILD_CONNECTIONS + 2 * site_connections(project_settings())
    assert sites_at_once(project_settings({"NEWSCORPUS_STORAGE_MAX_CONNECTIONS": bound})) == 2
    # no delay: the crawl takes seconds, and the per-host limit must hold without one; two crawl processes,
    # one site at once each: the bound holds across them, and reprints are linked across processes
    figures = run_sites(postgres_server_dsn, SITES, 10, max_connections=bound,
                        settings={"DOWNLOAD_DELAY": "0", "AUTOTHROTTLE_ENABLED": "0"}, crawl_processes=2)
    run = figures.run
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.crawl_processes == 2
    assert run.report["status"] == "succeeded"
    assert set(run.report["crawl"]["finish_reasons"]) == {f"site{n:03d}" for n in range(2, 2 + SITES)}
    assert figures.missing == []                           # every article served is stored
    assert 0 < run.peak_connections <= bound
    assert figures.scores["truth_pairs"] > 0 and figures.scores["recall"] >= 0.9
    assert figures.scores["precision"] == 1.0
    assert figures.scores["series_pairs"] > 0 and figures.scores["series_linked"] == 0
    assert 0 < figures.peak_in_flight <= PER_HOST_LIMIT


def test_sites_are_dealt_to_the_crawl_processes_in_turn_within_the_sites_at_once():
    configs = [f"site{n}.toml" for n in range(5)]
    assert crawl_shares(configs, 1, 8) == [(configs, 8)]
    assert crawl_shares(configs, 2, 8) == [(configs[0::2], 4), (configs[1::2], 4)]
    assert crawl_shares(configs, 2, 3) == [(configs[0::2], 2), (configs[1::2], 1)]
    assert crawl_shares(configs, 4, 2) == [(configs[0::2], 1), (configs[1::2], 1)]   # no more than at once
    assert crawl_shares(configs[:1], 3, 8) == [(configs[:1], 8)]                     # no more than sites


def test_a_bound_too_small_for_one_site_is_refused_before_the_build(postgres_server_dsn, tmp_path):
    from tests.cli.test_build_commands import build
    from tests.reliability.crawling import site_toml

    config = site_toml(tmp_path / "one.toml", "one", start_urls=["http://127.0.0.1:9/"])
    result = build(postgres_server_dsn, config, tmp_path / "out", settings={"NEWSCORPUS_STORAGE_MAX_CONNECTIONS": "3"})
    per_site = site_connections(project_settings())
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"newscorpus: error: NEWSCORPUS_STORAGE_MAX_CONNECTIONS must be >= {BUILD_CONNECTIONS + per_site} "
        f"for a build (its own {BUILD_CONNECTIONS} and {per_site} per site), not 3"]


def test_a_sites_connections_follow_its_stages():
    def per_site(**settings) -> int:
        return site_connections(project_settings({f"NEWSCORPUS_{k}": v for k, v in settings.items()}))

    assert per_site() == 6                                   # writer, line noise, lookups, near-duplicates, close 2
    assert per_site(NEAR_DUPLICATE_WORKERS=1) == 7            # and the decision's own process
    assert per_site(LINE_NOISE_ENABLED=False) == per_site(REFETCH_AFTER_HOURS=0) == 5
    assert per_site(EXTRACTION_DERIVE_AT_CLOSE=False) == 5    # the templates' save alone at the close
    bound = {"NEWSCORPUS_STORAGE_MAX_CONNECTIONS": BUILD_CONNECTIONS + 6 * 8}
    assert sites_at_once(project_settings(bound)) == 8
