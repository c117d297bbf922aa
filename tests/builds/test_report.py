"""The build report's figures, from crawl-run counters and maintenance counters (pure)."""

from __future__ import annotations

from newscorpus.builds.maintenance import MAINTENANCE_STEPS
from newscorpus.builds.report import crawl_summary, errors_by_reason, headline, human_summary

RUNS = [
    {"site": "zh", "finish_reason": "finished", "counters": {
        "response_received_count": 40, "newscorpus/storage/articles_new": 10,
        "newscorpus/storage/articles_updated": 2, "newscorpus/outcome/http_error": 1,
        "newscorpus/line_noise/lines_removed": 7, "newscorpus/near_duplicate/duplicate/simhash": 2,
        "newscorpus/near_duplicate/duplicate/keywords": 1, "newscorpus/near_duplicate/canonical": 7}},
    {"site": "en", "finish_reason": "shutdown", "counters": {
        "response_received_count": 5, "newscorpus/storage/articles_unchanged": 5,
        "newscorpus/outcome/fetch_error": 2}},
]


def test_crawl_summary_sums_per_site_and_in_total():
    summary = crawl_summary(RUNS)
    assert (summary["pages_fetched"], summary["articles_new"], summary["articles_updated"]) == (45, 10, 2)
    assert summary["by_site"]["en"]["articles_unchanged"] == 5
    assert summary["finish_reasons"] == {"zh": ["finished"], "en": ["shutdown"]}


def test_errors_are_counted_by_reason():
    errors = errors_by_reason(RUNS, 1, {"dedup": {"error": "boom"}, "search_index": {"articles_indexed": 3}})
    assert errors == {"http_error": 1, "fetch_error": 2, "crawl_finished_shutdown": 1, "crawl_process_failed": 1,
                      "maintenance_dedup_failed": 1}


def test_a_figure_no_stage_counts_is_not_available_rather_than_zero():
    assert headline(RUNS, {"reclean": {"noise_lines_removed": 3}}, "noise_lines_removed") == 10
    assert headline(RUNS, {"near_duplicates": {"duplicates": 1}}, "duplicates") == 4  # every method counts
    assert headline(RUNS[1:], {}, "duplicates") is None
    assert headline(RUNS[1:], {}, "noise_lines_removed", installed=True) == 0
    report = {"build_id": "b", "status": "succeeded", "attempts": 1, "sites": ["zh"], "crawl": crawl_summary(RUNS),
              "noise_lines_removed": None, "duplicates": None, "errors": {}}
    assert "n/a (stage off)" in human_summary(report)


def test_maintenance_steps_are_named_uniquely_importable_and_end_with_the_search_index():
    names = [step.name for step in MAINTENANCE_STEPS]
    assert len(names) == len(set(names)) and names[-1] == "search_index"
    assert all(callable(step.function()) for step in MAINTENANCE_STEPS)
