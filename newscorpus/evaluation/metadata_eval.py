"""Evaluate metadata extraction (publication date, title, author) on labelled sets, beside anchor tools.

Gold comes from each set's `manifest.json`: per item `title`, `author`, `date` (null or `UNKNOWN` = none); when an
item says `gold_has_title`, the first line of its gold text is the headline (l3s_gn1_train). Every system runs in
this process on the same page bytes; its CPU time per page (`time.process_time`) gives pages per CPU-second.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from newscorpus.evaluation.metadata_scoring import author_exact, date_scores, gold_value, title_scores


@dataclass(frozen=True)
class MetaItem:
    dataset: str
    stem: str
    html_path: Path
    url: str | None
    lang: str
    title: str | None
    author: str | None
    date: str | None
    domain: str | None = None  # the manifest's `domain`, for the site folds (extraction_eval.site_key)

    @property
    def site(self) -> str:
        host = urlsplit(self.url).hostname or "" if self.url else ""
        return host.removeprefix("www.") or f"{self.dataset}/{self.stem}"


@dataclass
class Answer:
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    date: str | None = None
    modified: str | None = None  # the modification date, when the system gives one


# (page bytes, url) -> what a system says
System = Callable[[bytes, "str | None"], Answer]


class DatasetError(ValueError):
    """A data directory that is not a labelled set."""


def _first_line(path: Path) -> str | None:
    if not path.is_file():
        return None
    return next((line.strip() for line in path.read_text("utf-8", errors="replace").splitlines() if line.strip()), None)


def load_items(directories: Iterable[str | Path]) -> list[MetaItem]:
    items: list[MetaItem] = []
    for directory in map(Path, directories):
        manifest_path = directory / "manifest.json"
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise DatasetError(f"{directory}: no readable manifest.json ({error})") from error
        name = manifest.get("name") or directory.name
        for entry in manifest.get("items", []):
            html_path = directory / f"{entry['stem']}.html"
            if not html_path.is_file():
                continue
            title = gold_value(entry.get("title"))
            if title is None and entry.get("gold_has_title"):
                title = _first_line(directory / f"{entry['stem']}.txt")
            items.append(MetaItem(name, entry["stem"], html_path, entry.get("url"), entry.get("lang") or "", title,
                                  gold_value(entry.get("author")), gold_value(entry.get("date")),
                                  entry.get("domain")))
    if not items:
        raise DatasetError("no labelled pages found")
    return items


@dataclass
class PageScore:
    system: str
    dataset: str
    stem: str
    site: str
    answer: Answer
    gold_title: str | None
    gold_author: str | None
    gold_date: str | None
    date_exact: bool
    date_near: bool
    date_either: bool  # the gold day is the published or the modified date given
    title_exact: bool
    title_f1: float
    title_is_site: bool  # the title is a name the page gives its site (og:site_name, logo heading, host)
    author_exact: bool
    cpu_seconds: float
    error: str | None = None


def page_site_keys(html: bytes, url: str | None) -> set[str]:
    """Keys of the names a page gives its site: og:site_name and kin, JSON-LD WebSite/publisher, logo headings, the
    host's name. A title equal to one of them is a site name given as a title."""
    from newscorpus.core.decoding import decode_html
    from newscorpus.core.extraction import titles
    from newscorpus.core.extraction.markup import read_markup
    from newscorpus.core.extraction.parse import parse_html

    root = parse_html(decode_html(html).text)
    names = [] if root is None else titles.site_names(read_markup(root), url) + titles.logo_texts(read_markup(root))
    keys = {titles.key(name) for name in names}
    host = titles._host_words(url)
    return {k for k in keys | {host} if len(k) >= 3}


def run_system(name: str, system: System, items: list[MetaItem], sites: dict[str, set[str]] | None = None
               ) -> list[PageScore]:
    """Score one system; `sites` caches each page's site-name keys across systems."""
    from newscorpus.core.extraction.titles import key

    sites = {} if sites is None else sites
    scores = []
    for item in items:
        html = item.html_path.read_bytes()
        error = None
        start = time.process_time()
        try:
            answer = system(html, item.url)
        except Exception as exc:  # noqa: BLE001 - an anchor failing on a page answers nothing there
            answer, error = Answer(), f"{type(exc).__name__}: {exc}"[:200]
        cpu = time.process_time() - start
        exact, near = date_scores(answer.date, item.date)
        either = exact or date_scores(answer.modified, item.date)[0]
        title_exact, title_f1 = title_scores(answer.title, item.title) if item.title else (False, 0.0)
        if item.html_path not in sites:
            sites[item.html_path] = page_site_keys(html, item.url)
        is_site = bool(answer.title) and key(answer.title) in sites[item.html_path] and not (
            item.title and key(item.title) == key(answer.title))
        scores.append(PageScore(name, item.dataset, item.stem, item.site, answer, item.title, item.author, item.date,
                                exact, near, either, title_exact, title_f1, is_site,
                                author_exact(answer.authors, item.author) if item.author else False, cpu, error))
    return scores


@dataclass(frozen=True)
class Summary:
    pages: int
    dated: int  # pages with a gold date
    date_exact: float  # exact day / dated pages
    date_near: float  # within one day / dated pages
    date_coverage: float  # answered / dated pages
    date_precision: float  # exact / answered, on dated pages
    date_either: float  # the gold day is the published or the modified date given / dated pages
    date_undated_answers: float  # answered / pages without a gold date
    titled: int
    title_exact: float
    title_f1: float
    titles_are_site: int  # pages whose title is the site's name (count)
    authored: int
    author_exact: float
    author_coverage: float
    author_precision: float
    author_unauthored_answers: float  # answered / pages without a gold author
    pages_per_cpu_second: float


def _share(part: int, whole: int) -> float:
    return part / whole if whole else float("nan")


def summarise(scores: list[PageScore], key: Callable[[PageScore], str] = lambda s: s.dataset) -> dict[str, Summary]:
    groups: dict[str, list[PageScore]] = defaultdict(list)
    for score in scores:
        groups[key(score)].append(score)
        groups["all"].append(score)
    return {group: _summary(rows) for group, rows in groups.items()}


def _summary(rows: list[PageScore]) -> Summary:
    cpu = sum(r.cpu_seconds for r in rows)
    return Summary(
        pages=len(rows),
        **_date_measures(rows),
        **_title_measures(rows),
        **_author_measures(rows),
        pages_per_cpu_second=len(rows) / cpu if cpu > 0 else float("inf"),
    )


def _date_measures(rows: list[PageScore]) -> dict:
    """Over the pages with a gold date: exact, within a day, answered, right when answered, published or
    modified; and how often a page without one got a date."""
    dated = [r for r in rows if r.gold_date]
    answered = [r for r in dated if r.answer.date]
    undated = [r for r in rows if not r.gold_date]
    return {
        "dated": len(dated),
        "date_exact": _share(sum(r.date_exact for r in dated), len(dated)),
        "date_near": _share(sum(r.date_near for r in dated), len(dated)),
        "date_coverage": _share(len(answered), len(dated)),
        "date_precision": _share(sum(r.date_exact for r in answered), len(answered)),
        "date_either": _share(sum(r.date_either for r in dated), len(dated)),
        "date_undated_answers": _share(sum(bool(r.answer.date) for r in undated), len(undated)),
    }


def _title_measures(rows: list[PageScore]) -> dict:
    titled = [r for r in rows if r.gold_title]
    return {
        "titled": len(titled),
        "title_exact": _share(sum(r.title_exact for r in titled), len(titled)),
        "title_f1": _share(sum(r.title_f1 for r in titled), len(titled)) if titled else float("nan"),
        "titles_are_site": sum(r.title_is_site for r in rows),
    }


def _author_measures(rows: list[PageScore]) -> dict:
    """As the dates: over the pages with a gold author, and the answers given where there is none."""
    authored = [r for r in rows if r.gold_author]
    answered = [r for r in authored if r.answer.authors]
    unauthored = [r for r in rows if not r.gold_author]
    return {
        "authored": len(authored),
        "author_exact": _share(sum(r.author_exact for r in authored), len(authored)),
        "author_coverage": _share(len(answered), len(authored)),
        "author_precision": _share(sum(r.author_exact for r in answered), len(answered)),
        "author_unauthored_answers": _share(sum(bool(r.answer.authors) for r in unauthored), len(unauthored)),
    }


COLUMNS = (
    ("date_exact", "date"), ("date_near", "±1d"), ("date_coverage", "cov"), ("date_precision", "prec"),
    ("date_undated_answers", "undated"), ("date_either", "pub|mod"), ("title_exact", "title"), ("title_f1", "tF1"),
    ("author_exact", "author"), ("author_coverage", "cov"), ("author_precision", "prec"),
    ("author_unauthored_answers", "no-auth"),
)  # fmt: skip


def format_table(rows: dict[str, dict[str, Summary]]) -> str:
    """One line per dataset and system; shares in %, pages per CPU-second, and our speed ÷ theirs."""
    header = f"{'dataset':<20}{'system':<14}{'pages':>6}{'dated':>6}" + "".join(f"{label:>8}" for _, label in COLUMNS)
    lines = [header + f"{'t=site':>7}{'pages/cpu-s':>12}{'ours/x':>8}"]
    ours = rows.get("newscorpus", {})
    groups = sorted({group for summary in rows.values() for group in summary}, key=lambda g: (g == "all", g))
    for group in groups:
        for name, summary in rows.items():
            s = summary.get(group)
            if s is None:
                continue
            cells = "".join(f"{_percent(getattr(s, attribute)):>8}" for attribute, _ in COLUMNS)
            mine = ours.get(group)
            ratio = f"{mine.pages_per_cpu_second / s.pages_per_cpu_second:.2f}" if mine else "-"
            lines.append(f"{group:<20}{name:<14}{s.pages:>6}{s.dated:>6}{cells}{s.titles_are_site:>7}"
                         f"{s.pages_per_cpu_second:>12.1f}{ratio:>8}")
    return "\n".join(lines)


def _percent(value: float) -> str:
    return "-" if value != value else f"{100 * value:.1f}"


def check_floors(summary: dict[str, Summary], floors: dict) -> list[str]:
    """Messages for every measure below its floor: `floors[measure][dataset]`, measures being Summary fields."""
    failures = []
    for measure, per_dataset in floors.items():
        if measure in ("comment", "measured") or not isinstance(per_dataset, dict):
            continue
        for dataset, floor in per_dataset.items():
            got = summary.get(dataset)
            value = getattr(got, measure, None) if got is not None else None
            if value is None or value != value:
                failures.append(f"{dataset} {measure}: not measured (floor {floor:.3f})")
            elif value < floor:
                failures.append(f"{dataset} {measure}: {value:.3f} below floor {floor:.3f}")
    return failures


def write_jsonl(scores: list[PageScore], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for score in scores:
            handle.write(json.dumps(asdict(score), ensure_ascii=False, default=str) + "\n")
