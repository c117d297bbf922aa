"""Scores of one near-duplicate method on the labelled data (../shared/data/dedup), and the Markdown tables of a run."""

from __future__ import annotations

from dataclasses import dataclass, field

from newscorpus.evaluation.pair_metrics import (
    Pair,
    PairCounts,
    adjusted_rand_index,
    all_pair_counts,
    connected_components,
)

LANGS = ("zh", "en")
STRENGTHS = ("light", "medium", "heavy", "extreme")
NEGATIVE_TYPES = (
    "related-same-site",
    "related-keywords",
    "followup-vs-original",
    "followup-vs-donor",
    "template-only",
    "random",
)


@dataclass
class LangResult:
    labelled: PairCounts = field(default_factory=PairCounts)
    all_pairs: PairCounts = field(default_factory=PairCounts)
    by_strength: dict[str, PairCounts] = field(default_factory=dict)  # original-reprint pairs
    reprint_reprint: PairCounts = field(default_factory=PairCounts)
    by_negative: dict[str, PairCounts] = field(default_factory=dict)
    ari: float = 0.0
    link_ari: float | None = None  # clusters as the store links them (ours only)


@dataclass
class MethodResult:
    name: str
    seconds: float  # CPU seconds over all documents (features + matching)
    documents: int
    langs: dict[str, LangResult]

    @property
    def docs_per_second(self) -> float:
        return self.documents / self.seconds if self.seconds else float("inf")


def score_method(name: str, same: set[Pair], seconds: float, data, links: dict[str, str] | None = None) -> MethodResult:
    """`data` is a `near_duplicate_eval.NearDuplicateData`; `links` maps each document to its canonical (ours only)."""
    langs: dict[str, LangResult] = {}
    lang_of = {doc["id"]: doc["lang"] for doc in data.docs}
    for p in data.pairs:
        result = langs.setdefault(p["lang"], LangResult())
        judged = (p["a"], p["b"]) in same
        result.labelled.add(p["label"], judged)
        if p["type"] == "original-reprint":
            result.by_strength.setdefault(p.get("strength", "?"), PairCounts()).add(1, judged)
        elif p["type"] == "reprint-reprint":
            result.reprint_reprint.add(1, judged)
        elif not p["label"]:
            result.by_negative.setdefault(p["type"], PairCounts()).add(0, judged)
    for lang, result in langs.items():
        ids = [d for d, doc_lang in lang_of.items() if doc_lang == lang]
        result.all_pairs = all_pair_counts(same, data.cluster_of, ids)
        result.ari = adjusted_rand_index(data.cluster_of, connected_components(ids, same))
        if links is not None:
            result.link_ari = adjusted_rand_index(data.cluster_of, {d: links[d] for d in ids})
    return MethodResult(name, seconds, len(data.docs), langs)


def _rate(c: PairCounts) -> str:
    return f"{c.tp}/{c.tp + c.fn}" if c.tp + c.fn else "-"


def format_tables(results: list[MethodResult]) -> str:
    out = [
        "**Labelled pairs** (CE = FP / labelled negatives)",
        "",
        "| method | lang | TP | FP | FN | TN | P | R | F1 | CE | EE |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for lang in (x for x in LANGS if x in r.langs):
            c = r.langs[lang].labelled
            out.append(
                f"| {r.name} | {lang} | {c.tp} | {c.fp} | {c.fn} | {c.tn} | {c.precision:.3f} | "
                f"{c.recall:.3f} | {c.f1:.3f} | {c.ce:.3f} | {c.ee:.3f} |"
            )
    out += [
        "",
        "**All same-language pairs** (CE = FP / all different-story pairs)",
        "",
        "| method | lang | judged same | P | R | F1 | CE (FP) | EE | ARI | ARI links |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for lang in (x for x in LANGS if x in r.langs):
            x = r.langs[lang]
            c = x.all_pairs
            links = f"{x.link_ari:.3f}" if x.link_ari is not None else "-"
            out.append(
                f"| {r.name} | {lang} | {c.tp + c.fp} | {c.precision:.3f} | {c.recall:.3f} | {c.f1:.3f} | "
                f"{c.ce:.5f} ({c.fp}) | {c.ee:.3f} | {x.ari:.3f} | {links} |"
            )
    out += [
        "",
        "**Recall by edit strength** (original-reprint pairs, found/total), and reprint-reprint",
        "",
        "| method | lang | " + " | ".join(STRENGTHS) + " | reprint-reprint |",
        "|---|---|" + "---|" * 5,
    ]
    for r in results:
        for lang in (x for x in LANGS if x in r.langs):
            x = r.langs[lang]
            cells = [_rate(x.by_strength.get(s, PairCounts())) for s in STRENGTHS]
            out.append(f"| {r.name} | {lang} | " + " | ".join(cells) + f" | {_rate(x.reprint_reprint)} |")
    out += [
        "",
        "**CE by hard-negative type** (both languages, FP / pairs)",
        "",
        "| method | " + " | ".join(NEGATIVE_TYPES) + " |",
        "|---|" + "---|" * len(NEGATIVE_TYPES),
    ]
    for r in results:
        cells = []
        for t in NEGATIVE_TYPES:
            fp = sum(x.by_negative.get(t, PairCounts()).fp for x in r.langs.values())
            n = sum(
                x.by_negative.get(t, PairCounts()).fp + x.by_negative.get(t, PairCounts()).tn for x in r.langs.values()
            )
            cells.append(f"{fp} / {n}")
        out.append(f"| {r.name} | " + " | ".join(cells) + " |")
    out += [
        "",
        "**Speed** (CPU time, one process, features + matching over all documents)",
        "",
        "| method | seconds | docs/s |",
        "|---|---|---|",
    ]
    out += [f"| {r.name} | {r.seconds:.2f} | {r.docs_per_second:.0f} |" for r in results]
    return "\n".join(out)
