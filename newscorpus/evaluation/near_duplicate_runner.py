"""One `newscorpus eval near-duplicate` run: ours (streamed through the in-memory index), the baselines, the
optional threshold fit with its cross-validated figure, per-pair decisions and the floors check."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.evaluation.near_duplicate_baselines import run_baselines
from newscorpus.evaluation.near_duplicate_eval import (
    NearDuplicateData,
    StreamRun,
    cross_validate,
    fit_thresholds,
    stream,
)
from newscorpus.evaluation.near_duplicate_report import LANGS, MethodResult, format_tables, score_method
from newscorpus.evaluation.near_duplicate_series import SeriesResult, format_series, generate
from newscorpus.evaluation.near_duplicate_series import score as score_series

BASELINES = ("chunk-md5", "simhash-k3", "simhash-k7", "minhash-lsh")
OURS = "ours"
# (window, m) pairs tried by --tune: the paper gives no values; small windows keep jieba cheap.
WINDOW_GRID = ((3, 1), (5, 1), (5, 2), (10, 2), (10, 3))


@dataclass
class NearDuplicateRun:
    config: NearDuplicateConfig
    results: list[MethodResult]
    notes: list[str] = field(default_factory=list)
    stream_run: StreamRun | None = None  # our pass, for --jsonl
    series: SeriesResult | None = None  # the generated same-site cases (near_duplicate_series.py)

    def ours(self) -> MethodResult:
        return next(r for r in self.results if r.name == OURS)

    def report(self) -> str:
        head = [f"Our configuration: {json.dumps(asdict(self.config))}", ""]
        tail = ["", format_series(self.series)] if self.series is not None else []
        return "\n".join(head + self.notes + ["", format_tables(self.results)] + tail)


def _tune(data: NearDuplicateData, config: NearDuplicateConfig, notes: list[str]
          ) -> tuple[NearDuplicateConfig, StreamRun]:
    best_run, best_score = None, -1.0
    for window, m in WINDOW_GRID:
        run = stream(data.docs, replace(config, window=window, min_cooccurrence=m))
        fit = fit_thresholds(run, data.pairs)
        notes.append(
            f"- tune w={window} m={m}: {fit.config.overlap} tau={fit.config.tau} "
            f"body_tau={fit.config.body_tau} mean F1 {fit.score:.4f} (in-sample)"
        )
        if fit.score > best_score + 1e-9:
            best_run, best_score = replace(run, config=fit.config), fit.score
    assert best_run is not None
    pooled, fits = cross_validate(best_run, data)
    folds = "; ".join(f"{f.config.overlap} tau={f.config.tau} body_tau={f.config.body_tau}" for f in fits)
    notes.append(
        f"- 2-fold cross-validation by cluster (fits: {folds}): "
        + ", ".join(
            f"{lang} F1 {c.f1:.4f} CE {c.ce:.4f} ({c.fp} FP) EE {c.ee:.4f}" for lang, c in sorted(pooled.items())
        )
    )
    return best_run.config, best_run


def run_near_duplicate_eval(data: NearDuplicateData, config: NearDuplicateConfig, compare: list[str], tune: bool
                            ) -> NearDuplicateRun:
    notes: list[str] = []
    if tune:
        config, run = _tune(data, config, notes)
        run = stream(data.docs, config)  # timed again at the chosen configuration alone
    else:
        run = stream(data.docs, config)
    same_methods = run.judged_same(config)
    links = run.canonical_links(config)
    results = [score_method(OURS, set(same_methods), run.seconds, data, links)]
    by_method: dict[str, int] = {}
    for method in same_methods.values():
        by_method[method] = by_method.get(method, 0) + 1
    notes.append(
        f"- ours: pairs judged same by method {dict(sorted(by_method.items()))}; "
        f"{run.too_short} bodies too short to fingerprint"
    )
    notes.append(f"- canonical rule: {_canonical_share(links, data)} of multi-document clusters keep the original")
    for name, (same, seconds) in run_baselines(data.docs, compare, time.process_time).items():
        results.append(score_method(name, same, seconds, data))
    series = generate(data.docs, data.kind_of)
    return NearDuplicateRun(config, results, notes, run, score_series(series, stream(series.docs, config), config))


def _canonical_share(links: dict[str, str], data: NearDuplicateData) -> str:
    clusters = {c for d, c in links.items() if c != d}
    originals = sum(1 for c in clusters if data.kind_of.get(c) == "original")
    return f"{originals}/{len(clusters)}"


def write_decisions(path: Path, run: StreamRun, config: NearDuplicateConfig, data: NearDuplicateData) -> None:
    """One line per labelled pair and per pair we judged same that is not labelled (error analysis)."""
    measured = {tuple(sorted((new, old))): m for new, rows in run.compared.items() for old, m in rows}
    same = run.judged_same(config)
    labelled = {(p["a"], p["b"]) for p in data.pairs}
    rows = list(data.pairs) + [
        {"a": a, "b": b, "label": int(data.cluster_of[a] == data.cluster_of[b]), "type": "unlabelled"}
        for a, b in same
        if (a, b) not in labelled
    ]
    with path.open("w", encoding="utf-8") as out:
        for p in rows:
            key = (p["a"], p["b"])
            m = measured.get(key)
            out.write(
                json.dumps(
                    {
                        "a": p["a"],
                        "b": p["b"],
                        "label": p["label"],
                        "type": p.get("type"),
                        "lang": p.get("lang"),
                        "strength": p.get("strength"),
                        "compared": m is not None,
                        "judged_same": key in same,
                        "method": same.get(key),
                        "measures": asdict(m) if m else None,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )


def check_floors(result: MethodResult, floors: dict, series: SeriesResult | None = None) -> list[str]:
    """Failures of our labelled-pair F1 / CE against the pinned floors ({lang: {f1_min, ce_max}}), and of the
    generated same-site cases against theirs ({"same_site": {ce_max, recall_min}})."""
    failures = []
    pinned = floors.get("same_site")
    if pinned and series is not None:
        negatives, positives = series.by_label(0), series.by_label(1)
        if negatives.ce > pinned["ce_max"]:
            failures.append(f"same-site cases: CE {negatives.ce:.4f} above ceiling {pinned['ce_max']}")
        if positives.recall < pinned["recall_min"]:
            failures.append(f"same-site cases: recall {positives.recall:.4f} below floor {pinned['recall_min']}")
    for lang in LANGS:
        pinned = floors.get(lang)
        if not pinned or lang not in result.langs:
            continue
        counts = result.langs[lang].labelled
        if counts.f1 < pinned["f1_min"]:
            failures.append(f"{lang}: F1 {counts.f1:.4f} below floor {pinned['f1_min']}")
        if counts.ce > pinned["ce_max"]:
            failures.append(f"{lang}: CE {counts.ce:.4f} above ceiling {pinned['ce_max']}")
    return failures
