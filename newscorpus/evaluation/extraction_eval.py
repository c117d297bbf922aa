"""Evaluate body extraction on labelled sets (`<stem>.html` + gold `<stem>.txt` + `manifest.json`)."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit

from newscorpus.core.domains import registrable_domain
from newscorpus.evaluation.extraction_scoring import bag_of_tokens, shingle_scores

REPORTED_LANGUAGES = ("zh", "en")
# (page bytes, url, manifest lang) -> extracted body text, or (title, body)
System = Callable[[bytes, "str | None", "str | None"], "str | tuple[str | None, str]"]
# Pages that hold no article (wcxb_listing): scored apart, as how often a system returns an article for them.
NOT_ARTICLE_TYPES = frozenset({"listing"})


@dataclass(frozen=True)
class PageItem:
    dataset: str
    stem: str
    html_path: Path
    gold_path: Path
    url: str | None
    lang: str
    gold_has_title: bool = False  # the gold's first line is the headline (the set's own convention)
    page_type: str = "article"
    domain: str | None = None  # the manifest's `domain`, when it gives one

    @property
    def group(self) -> str:
        return self.lang if self.lang in REPORTED_LANGUAGES else "other"

    @property
    def site(self) -> str:
        """Host without "www." when the manifest has a url, else the dataset name."""
        if self.url:
            host = urlsplit(self.url).hostname or ""
            return host.removeprefix("www.") or self.dataset
        return self.dataset


@dataclass
class PageResult:
    """Scores of one page. precision/recall/f1 follow the set's gold convention (title + body against the gold
    when the gold holds the headline, else body); body_* score the body alone against the gold without its
    headline line."""

    system: str
    dataset: str
    stem: str
    site: str
    url: str | None
    lang: str
    precision: float
    recall: float
    f1: float
    shingle_precision: float
    shingle_recall: float
    shingle_f1: float
    seconds: float
    predicted_chars: int
    gold_chars: int
    error: str | None = None
    body_precision: float = 0.0
    body_recall: float = 0.0
    body_f1: float = 0.0
    page_type: str = "article"
    title: str | None = None


class DatasetError(ValueError):
    """A data directory that is not a labelled set."""


def load_items(directories: Iterable[str | Path]) -> list[PageItem]:
    items: list[PageItem] = []
    for directory in map(Path, directories):
        manifest_path = directory / "manifest.json"
        if not manifest_path.is_file():
            raise DatasetError(f"{directory}: no manifest.json")
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise DatasetError(f"{manifest_path}: {error}") from error
        name = manifest.get("name") or directory.name
        set_has_title = gold_has_title(manifest)
        for entry in manifest.get("items", []):
            stem = entry["stem"]
            html_path, gold_path = directory / f"{stem}.html", directory / f"{stem}.txt"
            if html_path.is_file() and gold_path.is_file():
                has_title = entry.get("gold_has_title")
                items.append(
                    PageItem(
                        name,
                        stem,
                        html_path,
                        gold_path,
                        entry.get("url"),
                        entry.get("lang") or "",
                        set_has_title if has_title is None else bool(has_title),
                        entry.get("page_type") or "article",
                        entry.get("domain"),
                    )
                )
    if not items:
        raise DatasetError("no labelled pages found")
    return items


def gold_has_title(manifest: dict) -> bool:
    """Whether a set's gold starts with the headline, as its manifest states in `gold_title` ("included ...",
    "excluded ..."); items may override it with `gold_has_title`. A manifest that states nothing counts as no:
    magic_html_article's `gold_format` says "title usually first line", but its first gold line matches our
    title on 5 of its 76 zh/en pages and begins our body on 37 (it is the page's own headline or dek), so
    adding the title there lowers its F1 (`newscorpus eval extraction`)."""
    return str(manifest.get("gold_title") or "").lower().startswith("included")


def without_headline(gold: str) -> str:
    """The gold without its first non-empty line (the headline, for sets whose gold holds it)."""
    lines = gold.strip().split("\n")
    return "\n".join(lines[1:])


def run_system(name: str, system: System, items: list[PageItem]) -> list[PageResult]:
    """Run one system over the pages; time only the extraction call, in this process."""
    results = []
    for item in items:
        html = item.html_path.read_bytes()
        gold = item.gold_path.read_text(encoding="utf-8", errors="replace")
        error = None
        start = time.perf_counter()
        try:
            output = system(html, item.url, item.lang)
        except Exception as exc:  # noqa: BLE001 - an anchor failing on a page scores 0 there
            output, error = "", f"{type(exc).__name__}: {exc}"[:200]
        seconds = time.perf_counter() - start
        title, body = output if isinstance(output, tuple) else (None, output)
        body = body or ""
        predicted = f"{title}\n{body}" if item.gold_has_title and title and body else body
        bag, shingle = bag_of_tokens(predicted, gold), shingle_scores(predicted, gold)
        body_bag = bag_of_tokens(body, without_headline(gold)) if item.gold_has_title else bag
        results.append(
            PageResult(
                name,
                item.dataset,
                item.stem,
                item.site,
                item.url,
                item.group,
                bag.precision,
                bag.recall,
                bag.f1,
                shingle.precision,
                shingle.recall,
                shingle.f1,
                seconds,
                len(body),
                len(gold),
                error,
                body_bag.precision,
                body_bag.recall,
                body_bag.f1,
                item.page_type,
                title,
            )
        )
    return results


@dataclass(frozen=True)
class Summary:
    pages: int
    precision: float
    recall: float
    f1: float
    shingle_f1: float
    pages_per_second: float
    body_f1: float = 0.0


def summarise(results: list[PageResult], key: Callable[[PageResult], str] = lambda r: r.lang) -> dict[str, Summary]:
    """Macro means per group (default: per language group), plus "all"; article pages only (listing pages are
    counted by `not_article_rate`)."""
    groups: dict[str, list[PageResult]] = defaultdict(list)
    for result in results:
        if result.page_type in NOT_ARTICLE_TYPES:
            continue
        groups[key(result)].append(result)
        groups["all"].append(result)
    summary = {}
    for group, rows in groups.items():
        n = len(rows)
        seconds = sum(r.seconds for r in rows)
        summary[group] = Summary(
            n,
            sum(r.precision for r in rows) / n,
            sum(r.recall for r in rows) / n,
            sum(r.f1 for r in rows) / n,
            sum(r.shingle_f1 for r in rows) / n,
            n / seconds if seconds > 0 else float("inf"),
            sum(r.body_f1 for r in rows) / n,
        )
    return summary


def not_article_rate(results: list[PageResult]) -> tuple[int, int]:
    """(pages given an article, pages) over the pages that hold no article (listing pages)."""
    rows = [r for r in results if r.page_type in NOT_ARTICLE_TYPES]
    return sum(1 for r in rows if r.predicted_chars > 0), len(rows)


def write_jsonl(results: list[PageResult], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for result in results:
            handle.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")


def check_floors(summary: dict[str, Summary], floors: dict, results: list[PageResult] | None = None) -> list[str]:
    """Messages for every per-language F1 below its pinned floor, and with `results`, every per-set floor
    (`"sets": {dataset: {lang: floor}}`) and the cap on articles returned for listing pages
    (`"listing_article_share"`); empty list when all pass."""
    failures = []
    for lang, floor in floors.get("f1", {}).items():
        got = summary.get(lang)
        if got is None:
            failures.append(f"{lang}: no pages evaluated (floor {floor:.3f})")
        elif got.f1 < floor:
            failures.append(f"{lang}: F1 {got.f1:.3f} below floor {floor:.3f}")
    if results is None:
        return failures
    by_set = summarise(results, key=lambda r: f"{r.dataset} {r.lang}")
    for dataset, per_lang in floors.get("sets", {}).items():
        for lang, floor in per_lang.items():
            got = by_set.get(f"{dataset} {lang}")
            if got is None:
                failures.append(f"{dataset} {lang}: no pages evaluated (floor {floor:.3f})")
            elif got.f1 < floor:
                failures.append(f"{dataset} {lang}: F1 {got.f1:.3f} below floor {floor:.3f}")
    cap = floors.get("listing_article_share")
    given, pages = not_article_rate(results)
    if cap is not None and pages and given / pages > cap:
        failures.append(f"listing pages: an article returned for {given / pages:.3f} of them, above {cap:.3f}")
    return failures


def newscorpus_system(method: str = "default", model=None, learned: object = True) -> System:
    """Our extraction; `learned`: the default method's learned block model (True: the shipped one, False: the rules
    alone, or a model)."""
    from newscorpus.core.extraction import extract

    def run(html: bytes, url: str | None, lang: str | None) -> tuple[str | None, str]:
        result = extract(html, url, method=method, model=model, learned=learned)
        return result.title, result.body

    return run


def cross_validate(items: list[PageItem], seed: int, methods: Iterable[str] = ("blocks", "punctuation", "default")):
    """Leave-one-dataset-out: fit the block model and p on the other datasets, score the held-out one.

    Yields printable lines; the last ones are the pooled held-out F1 per method and language.
    """
    from newscorpus.core.extraction import training

    pooled: dict[str, list[PageResult]] = defaultdict(list)
    datasets = sorted({item.dataset for item in items})
    for held_out in datasets:
        train = [item for item in items if item.dataset != held_out]
        test = [item for item in items if item.dataset == held_out]
        model = training.model_from_dict(training.fit_model(train, seed=seed))
        for method in methods:
            results = run_system(f"newscorpus-{method}", newscorpus_system(method, model), test)
            pooled[method].extend(results)
            summary = summarise(results)
            yield f"held out {held_out:<20} {method:<12} " + "  ".join(
                f"{lang} F1 {summary[lang].f1:.3f} (n={summary[lang].pages})"
                for lang in ("zh", "en")
                if lang in summary
            )
    for method, results in pooled.items():
        summary = summarise(results)
        yield f"pooled held-out {method:<12} " + "  ".join(
            f"{lang} F1 {summary[lang].f1:.3f} (n={summary[lang].pages})"
            for lang in ("zh", "en", "all")
            if lang in summary
        )


def format_table(rows: dict[str, dict[str, Summary]], languages: Iterable[str]) -> str:
    """One line per system and language: P, R, F1 (the sets' gold convention), body-only F1, shingle F1,
    pages/s, and F1/speed ratios to ours."""
    ours = rows.get("newscorpus", {})
    lines = [
        f"{'system':<28}{'lang':<7}{'pages':>6}{'P':>7}{'R':>7}{'F1':>7}{'body F1':>9}{'sh-F1':>7}"
        f"{'pages/s':>9}{'F1 ours/x':>11}{'speed ours/x':>14}"
    ]
    for lang in languages:
        for name, summary in rows.items():
            s = summary.get(lang)
            if s is None:
                continue
            mine = ours.get(lang)
            f1_ratio = f"{mine.f1 / s.f1:.3f}" if mine and s.f1 else "-"
            speed_ratio = f"{mine.pages_per_second / s.pages_per_second:.2f}" if mine and s.pages_per_second else "-"
            lines.append(
                f"{name:<28}{lang:<7}{s.pages:>6}{s.precision:>7.3f}{s.recall:>7.3f}{s.f1:>7.3f}{s.body_f1:>9.3f}"
                f"{s.shingle_f1:>7.3f}{s.pages_per_second:>9.1f}{f1_ratio:>11}{speed_ratio:>14}"
            )
    return "\n".join(lines)


def format_per_set(results: list[PageResult], systems: list[str]) -> str:
    """F1 per set and language for every system, side by side (the gold convention's F1 / body-only F1), with
    ours minus the best anchor."""
    by: dict[tuple[str, str], dict[str, list[PageResult]]] = defaultdict(lambda: defaultdict(list))
    for result in results:
        if result.page_type not in NOT_ARTICLE_TYPES and result.lang in REPORTED_LANGUAGES:
            by[(result.dataset, result.lang)][result.system].append(result)
    lines = [f"{'set':<24}{'lang':<5}{'pages':>6}" + "".join(f"{name[:22]:>24}" for name in systems) + "  ours-best"]
    for (dataset, lang), per_system in sorted(by.items()):
        cells, f1s = [], {}
        for name in systems:
            rows = per_system.get(name, [])
            if not rows:
                cells.append(f"{'-':>24}")
                continue
            f1s[name] = sum(r.f1 for r in rows) / len(rows)
            body = sum(r.body_f1 for r in rows) / len(rows)
            cells.append(f"{f1s[name]:>17.3f} / {body:.3f}")
        anchors = [f1 for name, f1 in f1s.items() if name != "newscorpus"]
        gap = f"{f1s['newscorpus'] - max(anchors):+.3f}" if anchors and "newscorpus" in f1s else "-"
        pages = len(next(iter(per_system.values())))
        lines.append(f"{dataset[:23]:<24}{lang:<5}{pages:>6}" + "".join(cells) + f"  {gap:>9}")
    return "\n".join(lines)


def worst_pages(results: list[PageResult], n: int) -> list[PageResult]:
    """Our n lowest-F1 article pages."""
    rows = [r for r in results if r.page_type not in NOT_ARTICLE_TYPES]
    return sorted(rows, key=lambda r: r.f1)[:n]


def report_lines(rows: dict[str, dict[str, Summary]], results: list[PageResult], header: str,
                 by: Iterable[str] = (), worst: int = 0) -> Iterator[str]:
    """The lines of `newscorpus eval extraction`: `header`, the table per language, each system's input and
    answers on listing pages, then ours per `by` key ("dataset": every system per set) and our `worst` pages."""
    from newscorpus.evaluation.anchors import INPUTS

    ours = [r for r in results if r.system == "newscorpus"]
    yield header
    yield "# F1: each set's gold convention (title + body where the gold holds the headline); body F1: body only"
    yield format_table(rows, ("zh", "en", "other", "all"))
    yield "# input: " + "; ".join(f"{name}: {INPUTS.get(name, '?')}" for name in rows)
    for name in rows:
        given, pages = not_article_rate([r for r in results if r.system == name])
        if pages:
            yield f"# {name}: an article returned for {given} of {pages} pages that hold none (listing pages)"
    for key in by:
        if key == "dataset":
            yield "\n# F1 / body F1 per set and language (article pages)"
            yield format_per_set(results, list(rows))
            continue
        yield f"\n# newscorpus F1 by {key}"
        for group, summary in sorted(summarise(ours, key=lambda r, k=key: getattr(r, k)).items()):
            yield (f"{group:<40}{summary.pages:>5}  F1 {summary.f1:.3f}  P {summary.precision:.3f}  "
                   f"R {summary.recall:.3f}")
    if worst:
        yield f"\n# newscorpus: {worst} lowest-F1 pages"
        for r in worst_pages(ours, worst):
            yield f"{r.f1:.3f}  P {r.precision:.2f} R {r.recall:.2f}  {r.dataset}/{r.stem[:16]}  {r.url or r.site}"


# The default method's constants chosen by sweeps on the dev data, and the grid searched again inside
# every cross-validation fold (fit on the training pages, score the held-out ones), so the reported
# held-out figure does not profit from choosing them on the test pages.
DEFAULT_GRID: dict[str, tuple[float, ...]] = {
    "EXPAND_PROSE_SHARE": (0.6, 0.67, 0.75, 0.8),
    "SIBLING_SHARE": (0.35, 0.5),
    "SIMILAR_FROM_SHARE": (0.0, 0.1, 0.2),
}


def site_key(item: PageItem) -> str:
    """Site of a page for grouped folds: the registrable domain of the manifest's `domain` or url; pages without
    either (zh_web_content_69) are their own group."""
    if item.domain or item.url:
        host = item.domain or urlsplit(item.url or "").hostname or ""
        if host:
            return registrable_domain(host)
    return f"{item.dataset}/{item.stem}"


def dataset_folds(items: list[PageItem]) -> list[tuple[str, list[PageItem], list[PageItem]]]:
    names = sorted({item.dataset for item in items})
    return [(name, [i for i in items if i.dataset != name], [i for i in items if i.dataset == name]) for name in names]


def site_folds(items: list[PageItem], k: int, seed: int) -> list[tuple[str, list[PageItem], list[PageItem]]]:
    """k folds with every site's pages in one fold (same-site pairs never straddle train and test)."""
    import random

    sites = sorted({site_key(item) for item in items})
    random.Random(seed).shuffle(sites)
    fold_of = {site: index % k for index, site in enumerate(sites)}
    return [
        (
            f"site fold {fold + 1}/{k}",
            [i for i in items if fold_of[site_key(i)] != fold],
            [i for i in items if fold_of[site_key(i)] == fold],
        )
        for fold in range(k)
    ]


def _with_constants(values: dict[str, float], system: System) -> System:
    from newscorpus.core.extraction import region

    def run(html: bytes, url: str | None, lang: str | None) -> str:
        # the grid point holds for every page: the per-language values are set aside meanwhile
        saved = {name: getattr(region, name) for name in [*values, "LANGUAGE_CONSTANTS"]}
        region.LANGUAGE_CONSTANTS = {}
        for name, value in values.items():
            setattr(region, name, value)
        try:
            return system(html, url, lang)
        finally:
            for name, value in saved.items():
                setattr(region, name, value)

    return run


def _grid_points(grid: dict[str, tuple[float, ...]]) -> list[dict[str, float]]:
    import itertools

    names = list(grid)
    return [dict(zip(names, point, strict=True)) for point in itertools.product(*(grid[name] for name in names))]


def _best_point(results_by_point: list[dict[tuple[str, str], PageResult]], pages: list[PageItem]) -> int:
    """Index of the grid point with the best mean page F1 over `pages` (ties: the first in grid order)."""
    best, best_f1 = 0, -1.0
    for index, results in enumerate(results_by_point):
        f1 = sum(results[(item.dataset, item.stem)].f1 for item in pages) / max(len(pages), 1)
        if f1 > best_f1 + 1e-9:
            best, best_f1 = index, f1
    return best


def tune_default(train: list[PageItem], grid: dict[str, tuple[float, ...]] = DEFAULT_GRID) -> dict[str, float]:
    """The grid point with the best mean page F1 over the training pages."""
    points = _grid_points(grid)
    results = [_results_by_page(values, train) for values in points]
    return points[_best_point(results, train)]


def _results_by_page(values: dict[str, float], items: list[PageItem]) -> dict[tuple[str, str], PageResult]:
    system = _with_constants(values, newscorpus_system("default", learned=False))  # the rules' constants alone
    return {(r.dataset, r.stem): r for r in run_system("newscorpus-default", system, items)}


def language_choice(results_by_point: list[dict[tuple[str, str], PageResult]], train: list[PageItem]) -> dict[str, int]:
    """Per language group: the grid point (index) with the best mean page F1 over the training pages of that
    language; "zh" from the zh pages, "en" from the en pages, other pages take the en choice. A language without
    training pages takes the choice over all of them."""
    pooled = _best_point(results_by_point, train)
    choice = {}
    for lang in REPORTED_LANGUAGES:
        pages = [item for item in train if item.group == lang]
        choice[lang] = _best_point(results_by_point, pages) if pages else pooled
    choice["other"] = choice["en"]
    return choice


def _point_text(values: dict[str, float]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _language_figures(results: list[PageResult]) -> str:
    summary = summarise(results)
    return "  ".join(
        f"{lang} F1 {summary[lang].f1:.3f} / body {summary[lang].body_f1:.3f} (n={summary[lang].pages})"
        for lang in ("zh", "en", "all")
        if lang in summary
    )


def cross_validate_default(folds, grid: dict[str, tuple[float, ...]] = DEFAULT_GRID):
    """Tune the default method's constants on each fold's training pages, score its held-out pages.

    A page's output under one grid point is the same in every fold, so every article page is extracted once per
    grid point and each fold chooses its point from its training pages' results: the same figures as tuning
    inside each fold from scratch, at 1/k of the cost. Two choices are reported: one point for all pages
    ("pooled choice"), and one per language (`language_choice`, each held-out page scored at its language's
    point).
    Yields printable lines: one per fold, then per set and language, then per language.
    """
    folds = [
        (name, [i for i in train if i.page_type not in NOT_ARTICLE_TYPES],
         [i for i in test if i.page_type not in NOT_ARTICLE_TYPES])
        for name, train, test in folds
    ]
    unique = {(i.dataset, i.stem): i for _, train, test in folds for i in train + test}
    points = _grid_points(grid)
    results_by_point = [_results_by_page(values, list(unique.values())) for values in points]
    yield from cross_validation_report(folds, points, results_by_point)


def cross_validation_report(folds, points: list[dict[str, float]],
                            results_by_point: list[dict[tuple[str, str], PageResult]]) -> Iterator[str]:
    """The lines of `cross_validate_default` from every page's results at every grid point (no extraction)."""
    pooled: list[PageResult] = []
    per_language: list[PageResult] = []
    language_lines = []
    for name, train, test in folds:
        chosen_index = _best_point(results_by_point, train)
        results = [results_by_point[chosen_index][(i.dataset, i.stem)] for i in test]
        pooled.extend(results)
        summary = summarise(results)
        yield f"held out {name:<20} default ({_point_text(points[chosen_index])}) " + "  ".join(
            f"{lang} F1 {summary[lang].f1:.3f} (n={summary[lang].pages})" for lang in ("zh", "en") if lang in summary
        )
        choice = language_choice(results_by_point, train)
        results = [results_by_point[choice[i.group]][(i.dataset, i.stem)] for i in test]
        per_language.extend(results)
        summary = summarise(results)
        language_lines.append(f"held out {name:<20} per language: " + "; ".join(
            f"{lang} ({_point_text(points[choice[lang]])}) F1 {summary[lang].f1:.3f} (n={summary[lang].pages})"
            for lang in ("zh", "en")
            if lang in summary
        ))
    yield from language_lines
    by_set = summarise(pooled, key=lambda r: f"{r.dataset} {r.lang}")
    by_set_language = summarise(per_language, key=lambda r: f"{r.dataset} {r.lang}")
    for group, summary in sorted(by_set.items()):
        if group != "all" and group.split()[-1] in REPORTED_LANGUAGES:
            other = by_set_language[group]
            yield (f"pooled held-out {group:<28} F1 {summary.f1:.3f}  body F1 {summary.body_f1:.3f}  "
                   f"per language F1 {other.f1:.3f}  body F1 {other.body_f1:.3f}  (n={summary.pages})")
    yield "per-language choice, held-out default  " + _language_figures(per_language)
    yield "pooled held-out default      " + _language_figures(pooled)


def learned_gold(item: PageItem) -> str:
    """The gold body the learned block model is trained on: without the headline line where the gold holds it
    (the headline is the title, not body)."""
    gold = item.gold_path.read_text(encoding="utf-8", errors="replace")
    return without_headline(gold) if item.gold_has_title else gold


def block_rows(items: list[PageItem]) -> dict[tuple[str, str], object]:
    """Every page's training rows for the learned block model (block_training.page_rows), by (dataset, stem)."""
    from newscorpus.core.extraction import block_training

    rows = {}
    for item in items:
        page = block_training.page_rows(item.html_path.read_bytes(), learned_gold(item), item.url)
        if page is not None:
            rows[(item.dataset, item.stem)] = page
    return rows


def cross_validate_learned(folds, seed: int) -> Iterator[str]:
    """The default method with the learned block model trained inside each fold on its training pages only (each
    page weighted by its site's page count, as the shipped model is), and
    the rules alone (shipped constants), both scored on the held-out pages. Yields printable lines: per fold, per
    set and language (rules / learned), per language."""
    from newscorpus.core.extraction import block_classifier, block_training

    folds = [
        (name, [i for i in train if i.page_type not in NOT_ARTICLE_TYPES],
         [i for i in test if i.page_type not in NOT_ARTICLE_TYPES])
        for name, train, test in folds
    ]
    unique = list({(i.dataset, i.stem): i for _, train, test in folds for i in train + test}.values())
    rows = block_rows(unique)
    rules = {(r.dataset, r.stem): r for r in run_system("rules", newscorpus_system("default", learned=False), unique)}
    old: list[PageResult] = []
    new: list[PageResult] = []
    for name, train, test in folds:
        kept = [i for i in train if (i.dataset, i.stem) in rows]
        pages = [rows[(i.dataset, i.stem)] for i in kept]
        model = block_classifier.TreeModel.from_dict(block_training.fit(pages, seed, groups=list(map(site_key, kept))))
        results = run_system("learned", newscorpus_system("default", learned=model), test)
        new.extend(results)
        old.extend(rules[(i.dataset, i.stem)] for i in test)
        summary = summarise(results)
        yield f"held out {name:<20} learned blocks ({len(pages)} training pages) " + "  ".join(
            f"{lang} F1 {summary[lang].f1:.3f} (n={summary[lang].pages})" for lang in ("zh", "en") if lang in summary
        )
    by_old = summarise(old, key=lambda r: f"{r.dataset} {r.lang}")
    by_new = summarise(new, key=lambda r: f"{r.dataset} {r.lang}")
    for group, summary in sorted(by_old.items()):
        if group != "all" and group.split()[-1] in REPORTED_LANGUAGES:
            learned = by_new[group]
            yield (f"held-out {group:<28} rules F1 {summary.f1:.3f}  learned F1 {learned.f1:.3f}  "
                   f"(body F1 {summary.body_f1:.3f} / {learned.body_f1:.3f}, n={summary.pages})")
    yield "held-out rules (shipped constants)     " + _language_figures(old)
    yield "held-out rules + learned block model   " + _language_figures(new)
