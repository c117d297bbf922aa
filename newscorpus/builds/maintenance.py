"""The build's maintenance steps, in the order `newscorpus build` runs them after crawling.

Each step is ``(name, "module:function")``; the function is called as ``function(dsn, sites)`` (``sites``: the
build's site names) and returns a dict of counters, which go into the build report under the step's name. A
step must be safe to run again (a resumed build re-runs the steps it had not finished). Order matters:
steps that change the published text (derivation, near-duplicate resolution) come before the
search index, which indexes the text as published (the ``corpus_articles`` view).

Stages register here by adding one line above ``search_index``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module


@dataclass(frozen=True)
class MaintenanceStep:
    name: str
    target: str  # "module:function", imported when the step runs (the registry itself imports nothing heavy)

    def function(self) -> Callable[[str, list[str]], dict]:
        module_name, _, function_name = self.target.partition(":")
        return getattr(import_module(module_name), function_name)

    def run(self, dsn: str, sites: list[str]) -> dict:
        return dict(self.function()(dsn, sites))


MAINTENANCE_STEPS: tuple[MaintenanceStep, ...] = (
    MaintenanceStep("derivation", "newscorpus.builds.reextraction:clean_step"),
    MaintenanceStep("near_duplicates", "newscorpus.store.near_duplicate.index:resolve_duplicates_step"),
    MaintenanceStep("search_index", "newscorpus.builds.search_index:index_search_step"),
)
