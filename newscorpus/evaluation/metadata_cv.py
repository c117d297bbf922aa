"""Cross-validation by site of the metadata choices set on the labelled pages: the order of the date sources
(structured, then visible) and of the author sources. Each fold picks the orders that score best on the other
folds' pages and is scored with them on its own pages; the pooled held-out figure stands beside the in-sample
figure of the orders shipped in date_sources.py and bylines.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from newscorpus.core.extraction import PageFailure, page_lines, page_region, prepare_page
from newscorpus.core.extraction.bylines import AUTHOR_ORDER, choose_authors
from newscorpus.core.extraction.date_sources import STRUCTURED_SOURCES, VISIBLE_SOURCES, choose_dates
from newscorpus.core.extraction.metadata import Metadata, byline_metadata
from newscorpus.evaluation.extraction_eval import site_folds
from newscorpus.evaluation.metadata_eval import MetaItem
from newscorpus.evaluation.metadata_scoring import author_exact, date_scores

# Author sources whose order is searched; JSON-LD stays first, lines after the body and editors last.
SEARCHED_AUTHOR_SOURCES = ("itemprop", "meta", "rel", "line", "href", "marked")


@dataclass
class PageCandidates:
    item: MetaItem
    meta: Metadata


def page_candidates(items: list[MetaItem]) -> list[PageCandidates]:
    """Every page's candidates, read as extraction reads them (the default method's region, with the page's site and
    hidden blocks, gives the byline window)."""
    pages = []
    for item in items:
        page = prepare_page(item.html_path.read_bytes(), url=item.url)
        if isinstance(page, PageFailure):
            continue
        body = page_region(page).lines
        pages.append(PageCandidates(item, byline_metadata(page_lines(page.blocks), page.head, body or None)))
    return pages


def date_orders() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [(s, v) for s in itertools.permutations(STRUCTURED_SOURCES) for v in itertools.permutations(VISIBLE_SOURCES)]


def author_orders() -> list[tuple[str, ...]]:
    return [("jsonld", *middle, "tail", "editor") for middle in itertools.permutations(SEARCHED_AUTHOR_SOURCES)]


def date_exact(pages: list[PageCandidates], order: tuple[tuple[str, ...], tuple[str, ...]]) -> int:
    return sum(date_scores(choose_dates(p.meta.date_candidates, *order).published, p.item.date)[0]
               for p in pages if p.item.date)


def author_hits(pages: list[PageCandidates], order: tuple[str, ...]) -> int:
    return sum(author_exact(list(choose_authors(p.meta.author_candidates, set(p.meta.site_names), order)),
                            p.item.author) for p in pages if p.item.author)


def author_hits_by_set(pages: list[PageCandidates], order: tuple[str, ...]) -> dict[str, int]:
    hits: dict[str, int] = {}
    for page in pages:
        if page.item.author:
            hits[page.item.dataset] = hits.get(page.item.dataset, 0) + author_hits([page], order)
    return hits


def cross_validate(items: list[MetaItem], folds: int = 5, seed: int = 20240601) -> Iterator[str]:
    """Printable lines: each fold's chosen orders and held-out exact shares, then pooled held-out vs shipped, then
    the held-out author share of each set (the Chinese set's own figure: its 31 authored pages are lost in the
    pooled one)."""
    pages = page_candidates(items)
    by_item = {id(p.item): p for p in pages}
    dated = sum(1 for p in pages if p.item.date)
    authored = sum(1 for p in pages if p.item.author)
    shipped_dates = date_exact(pages, (STRUCTURED_SOURCES, VISIBLE_SOURCES))
    shipped_authors = author_hits(pages, AUTHOR_ORDER)
    held_dates = held_authors = 0
    held_by_set: dict[str, int] = {}
    for name, train_items, test_items in site_folds(items, folds, seed):
        train = [by_item[id(i)] for i in train_items if id(i) in by_item]
        test = [by_item[id(i)] for i in test_items if id(i) in by_item]
        best_dates = max(date_orders(), key=lambda order: date_exact(train, order))
        best_authors = max(author_orders(), key=lambda order: author_hits(train, order))
        fold_dates, fold_authors = date_exact(test, best_dates), author_hits(test, best_authors)
        held_dates += fold_dates
        held_authors += fold_authors
        for dataset, hits in author_hits_by_set(test, best_authors).items():
            held_by_set[dataset] = held_by_set.get(dataset, 0) + hits
        yield (f"{name}: dates {'>'.join(best_dates[0])} | {'>'.join(best_dates[1])} held-out {fold_dates}/"
               f"{sum(1 for p in test if p.item.date)}; authors {'>'.join(best_authors[1:-2])} held-out "
               f"{fold_authors}/{sum(1 for p in test if p.item.author)}")
    yield (f"pooled held-out: date exact {held_dates / dated:.3f}, author exact {held_authors / authored:.3f} "
           f"(shipped orders, in sample: {shipped_dates / dated:.3f}, {shipped_authors / authored:.3f}; "
           f"{dated} dated, {authored} authored pages)")
    shipped_by_set = author_hits_by_set(pages, AUTHOR_ORDER)
    for dataset in sorted(shipped_by_set):
        count = sum(1 for p in pages if p.item.author and p.item.dataset == dataset)
        yield (f"{dataset}: held-out author exact {held_by_set.get(dataset, 0) / count:.3f} (shipped order, in "
               f"sample: {shipped_by_set[dataset] / count:.3f}; {count} authored pages)")


def date_source_lines(items: list[MetaItem]) -> Iterator[str]:
    """Printable lines: for each set, the source each of our publication dates came from (choose_dates' source, as
    extraction chooses it), how many dated pages it answered and how many of them exactly; "none" for no answer."""
    tallies: dict[str, dict[str, list[int]]] = {}
    for page in page_candidates(items):
        if not page.item.date:
            continue
        chosen = choose_dates(page.meta.date_candidates)
        source = (chosen.source or "none") if chosen.published else "none"
        tally = tallies.setdefault(page.item.dataset, {}).setdefault(source, [0, 0])
        tally[0] += 1
        tally[1] += date_scores(chosen.published, page.item.date)[0]
    yield f"{'dataset':<20}{'source':<10}{'pages':>6}{'exact':>7}{'share':>8}"
    for dataset in sorted(tallies):
        for source, (pages, exact) in sorted(tallies[dataset].items(), key=lambda entry: -entry[1][0]):
            yield f"{dataset:<20}{source:<10}{pages:>6}{exact:>7}{100 * exact / pages:>7.1f}%"
