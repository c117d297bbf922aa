"""Evaluate the line-noise filter on labelled sites with several pages: extraction P/R/F1 without the filter,
with it as a crawl applies it (each page cleaned when it arrives), and after the cold-start re-clean (every
page cleaned again with the site's final statistics); precision by page position as a learning curve; content
lost: the removed lines that the gold text keeps, as a share of the gold's lines."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from newscorpus.core.line_noise import InMemoryLineStats, LineNoiseConfig, normalise_line
from newscorpus.evaluation.extraction_eval import PageItem, load_items
from newscorpus.evaluation.extraction_scoring import PRF, bag_of_tokens

VARIANTS = ("extracted", "online", "recleaned")
VARIANT_LABELS = {
    "extracted": "extraction only",
    "online": "line noise, as crawled",
    "recleaned": "line noise, re-cleaned after warm-up",
}
# Gold texts that say the page has no article (cleanportaleval bbc.co.uk_news_04: "<!-- this page contains no
# article -->", _05: empty): fed through the filter (they are part of the site's order) but not scored.
_NO_ARTICLE_GOLD = re.compile(r"\A\s*(<!--.*?-->)?\s*\Z", re.DOTALL)
# The acceptance rule: the filter must not lower recall by more than 1 point.
MAX_RECALL_LOSS = 0.01
# A removed line this long (normalised characters) counts as gold content when the gold holds it inside a longer
# line (the gold and the extractor may cut paragraphs differently).
CONTAINED_LINE_CHARS = 10


def content_lines_removed(removed: Iterable[str], gold: str) -> list[str]:
    """The removed lines that the gold (reference) text keeps: the same normalised line, or inside a longer one."""
    gold_lines = [normalise_line(line) for line in gold.split("\n")]
    exact = set(gold_lines)
    joined = "\n".join(gold_lines)
    found = []
    for line in removed:
        normalised = normalise_line(line)
        if normalised and (normalised in exact or (len(normalised) >= CONTAINED_LINE_CHARS and normalised in joined)):
            found.append(line)
    return found


@dataclass
class SitePages:
    site: str
    pages: list[PageItem] = field(default_factory=list)


@dataclass
class PageScore:
    site: str
    stem: str
    position: int                      # 0-based, in the order pages were fed
    scores: dict[str, PRF]             # per variant
    lines_removed: dict[str, int]
    content_removed: dict[str, int] = field(default_factory=dict)  # removed lines the gold keeps, per variant
    gold_lines: int = 0


def site_groups(directories: Iterable[str | Path], min_pages: int = 2) -> list[SitePages]:
    """Labelled pages grouped by site (the manifest's ``site`` when given, else the URL host), in a fixed
    order (dataset, stem); pages without a URL or site are left out (their site is unknown)."""
    directories = [Path(d) for d in directories]
    declared: dict[tuple[str, str], str] = {}
    for directory in directories:
        manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
        name = manifest.get("name") or directory.name
        for entry in manifest.get("items", []):
            if entry.get("site"):
                declared[(name, entry["stem"])] = entry["site"]
    groups: dict[str, SitePages] = {}
    for item in sorted(load_items(directories), key=lambda i: (i.dataset, i.stem)):
        site = declared.get((item.dataset, item.stem)) or (item.site if item.url else None)
        if site:
            groups.setdefault(site, SitePages(site)).pages.append(item)
    return [group for _, group in sorted(groups.items()) if len(group.pages) >= min_pages]


def extract_body(item: PageItem, method: str = "default") -> tuple[str, str | None]:
    """The page's body by one of the extractor's methods ("punctuation" is the research base's own, which
    leaves the most line noise for this stage), with its line kinds."""
    from newscorpus.core.extraction import extract

    result = extract(item.html_path.read_bytes(), item.url, method=method)
    return result.body, result.line_kinds


def evaluate_site(group: SitePages, config: LineNoiseConfig, method: str = "default") -> list[PageScore]:
    """Feed the site's pages through the filter in order, then re-clean them all with the final statistics."""
    stats = InMemoryLineStats(config)
    extracted = [extract_body(page, method) for page in group.pages]
    online = [stats.process(group.site, body, kinds) for body, kinds in extracted]
    recleaned = [stats.reclean(group.site, body, kinds) for body, kinds in extracted]
    results = []
    for position, (page, (body, _), first, again) in enumerate(zip(group.pages, extracted, online, recleaned,
                                                                    strict=True)):
        gold = page.gold_path.read_text(encoding="utf-8", errors="replace")
        if _NO_ARTICLE_GOLD.match(gold):
            continue
        results.append(PageScore(
            group.site, page.stem, position,
            {"extracted": bag_of_tokens(body, gold), "online": bag_of_tokens(first.body, gold),
             "recleaned": bag_of_tokens(again.body, gold)},
            {"online": len(first.removed), "recleaned": len(again.removed)},
            {variant: len(content_lines_removed([line for _, line in cleaning.removed], gold))
             for variant, cleaning in (("online", first), ("recleaned", again))},
            sum(1 for line in gold.split("\n") if line.strip()),
        ))
    return results


def mean_prf(scores: list[PageScore], variant: str) -> PRF:
    n = max(len(scores), 1)
    return PRF(sum(s.scores[variant].precision for s in scores) / n,
               sum(s.scores[variant].recall for s in scores) / n,
               sum(s.scores[variant].f1 for s in scores) / n)


def run(directories: Iterable[str | Path], config: LineNoiseConfig | None = None,
        min_pages: int = 2, method: str = "default") -> dict[str, list[PageScore]]:
    """Per site (in name order), the scores of each page."""
    config = config or LineNoiseConfig()
    return {group.site: evaluate_site(group, config, method) for group in site_groups(directories, min_pages)}


def format_report(results: dict[str, list[PageScore]]) -> str:
    lines = [f"{'site':<26}{'pages':>6}" + "".join(f"{v[:9]:>24}" for v in VARIANTS) + f"{'removed':>9}"
             + f"{'content lost':>20}",
             f"{'':<32}" + "   P     R     F1       " * len(VARIANTS)]
    every: list[PageScore] = []
    multi: list[PageScore] = []
    for site, scores in results.items():
        every.extend(scores)
        if len(scores) >= 3:
            multi.extend(scores)
        lines.append(_row(site, scores))
    lines.append(_row("ALL (macro over pages)", every))
    if multi:
        lines.append(_row("sites with >= 3 pages", multi))
    return "\n".join(lines)


def _row(label: str, scores: list[PageScore]) -> str:
    cells = ""
    for variant in VARIANTS:
        prf = mean_prf(scores, variant)
        cells += f"  {prf.precision:.3f} {prf.recall:.3f} {prf.f1:.3f}    "
    removed = sum(s.lines_removed["recleaned"] for s in scores)
    content, gold = sum(s.content_removed.get("recleaned", 0) for s in scores), sum(s.gold_lines for s in scores)
    lost = f"{content}/{gold} = {content / gold:.2%}" if gold else "-"
    return f"{label[:26]:<26}{len(scores):>6}{cells}{removed:>7}{lost:>22}"


def check_recall(results: dict[str, list[PageScore]]) -> list[str]:
    """Problems with the issue's rule: recall must not drop more than 1 point, precision must not drop."""
    every = [score for scores in results.values() for score in scores]
    problems = []
    base = mean_prf(every, "extracted")
    for variant in ("online", "recleaned"):
        got = mean_prf(every, variant)
        if base.recall - got.recall > MAX_RECALL_LOSS:
            problems.append(f"{variant}: recall {got.recall:.3f} vs {base.recall:.3f} without the filter")
        if got.precision < base.precision:
            problems.append(f"{variant}: precision {got.precision:.3f} below {base.precision:.3f}")
    return problems


def learning_curve(results: dict[str, list[PageScore]], min_pages: int = 3) -> dict[str, list[float]]:
    """Mean precision at each position over the sites with at least ``min_pages`` pages, per variant."""
    by_position: dict[str, dict[int, list[float]]] = {v: defaultdict(list) for v in VARIANTS}
    for scores in results.values():
        if len(scores) < min_pages:
            continue
        for score in scores:
            for variant in VARIANTS:
                by_position[variant][score.position].append(score.scores[variant].precision)
    return {variant: [sum(v) / len(v) for _, v in sorted(positions.items())]
            for variant, positions in by_position.items()}


def format_learning_curve(results: dict[str, list[PageScore]], min_pages: int = 3) -> str:
    """`learning_curve` as one line per variant."""
    return "\n".join(f"precision by position, {variant:<10} " + " ".join(f"{v:.3f}" for v in values)
                     for variant, values in learning_curve(results, min_pages).items())


def plot_learning_curve(results: dict[str, list[PageScore]], path: str | Path, min_pages: int = 3) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    curve = learning_curve(results, min_pages)
    sites = [site for site, scores in results.items() if len(scores) >= min_pages]
    figure, (left, right) = pyplot.subplots(1, 2, figsize=(12, 4.5))
    for variant, style in zip(VARIANTS, ("o-", "s--", "^-"), strict=True):
        left.plot(range(1, len(curve[variant]) + 1), curve[variant], style, label=VARIANT_LABELS[variant])
    left.set(xlabel="page position in the site's order", ylabel="precision (mean over sites)",
             title=f"Learning curve, {len(sites)} sites with >= {min_pages} pages")
    left.legend()
    left.grid(alpha=0.3)
    for index, site in enumerate(sites):
        scores = results[site]
        positions = [s.position + 1 for s in scores]
        for variant, style in (("online", ":"), ("recleaned", "-")):
            gain = [s.scores[variant].precision - s.scores["extracted"].precision for s in scores]
            label = f"{site}, {VARIANT_LABELS[variant].split(', ')[1]}"
            right.plot(positions, gain, "." + style, color=f"C{index % 10}", label=label)
    right.set(xlabel="page position", ylabel="precision gain over extraction only",
              title="Per site: the re-clean lifts the first pages")
    right.legend(fontsize=7)
    right.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
