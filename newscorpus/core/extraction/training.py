"""Fit the block model (supports, PSO weights and threshold) and the punctuation ratio p on labelled pages.

A block (or line) is labelled body when at least half of its tokens lie in lines found in the gold
text: lines of >= 4 tokens by their 4-token shingles, shorter lines by exact token sequence.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from newscorpus.core.decoding import decode_html
from newscorpus.core.extraction import block_scoring
from newscorpus.core.extraction.block_scoring import FEATURES, MODEL_PATH, BlockModel
from newscorpus.core.extraction.block_tree import Block, build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.pso import maximise
from newscorpus.core.extraction.punctuation import punctuation_ratio
from newscorpus.core.text import tokenize

DEFAULT_MODEL_PATH = MODEL_PATH
SHINGLE = 4
# A line is "in the gold" when half of its shingles are (label noise from gold re-wrapping is small).
LINE_MATCH_SHARE = 0.5
# Laplace smoothing of the supports: (body + 1) / (count + 2).
SMOOTHING = 1.0
# Paper 004: particle range [0, 3] for the weights; the threshold searched in [0, 1].
WEIGHT_RANGE = (0.0, 3.0)
# Grid for p (paper 000 swept 0.01..0.9 by 0.01; above 0.5 nothing changes on the dev data).
P_GRID = tuple(round(0.02 * i, 2) for i in range(1, 26))


@dataclass
class LabelledPage:
    dataset: str
    site: str
    lang: str
    blocks: list[Block]
    block_tokens: np.ndarray  # tokens per block
    block_matched: np.ndarray  # tokens per block lying in gold lines
    lines: list[tuple[int, float, int, int]]  # (block index, punctuation ratio, tokens, matched tokens)
    gold_tokens: int


def _shingles(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + SHINGLE]) for i in range(len(tokens) - SHINGLE + 1)}


def label_page(html: bytes, gold: str, dataset: str = "", site: str = "", lang: str = "") -> LabelledPage | None:
    root = parse_html(decode_html(html).text)
    if root is None:
        return None
    clean_tree(root)
    blocks = build_blocks(root)
    block_tokens, block_matched, lines = match_gold(blocks, gold)
    return LabelledPage(dataset, site, lang, blocks, block_tokens, block_matched, lines, len(tokenize(gold)))


def match_gold(blocks: list[Block], gold: str) -> tuple[np.ndarray, np.ndarray, list[tuple[int, float, int, int]]]:
    """Per block: its tokens and those lying in gold lines; and per line (block index, punctuation ratio,
    tokens, matched tokens)."""
    gold_tokens = tokenize(gold)
    gold_shingles = _shingles(gold_tokens)
    gold_joined = " " + " ".join(gold_tokens) + " "
    block_tokens = np.zeros(len(blocks))
    block_matched = np.zeros(len(blocks))
    lines = []
    for index, block in enumerate(blocks):
        if not block.chars:
            continue
        for line in block.text.split("\n"):
            tokens = tokenize(line)
            if not tokens:
                continue
            if len(tokens) >= SHINGLE:
                line_shingles = [tuple(tokens[i : i + SHINGLE]) for i in range(len(tokens) - SHINGLE + 1)]
                hit = sum(s in gold_shingles for s in line_shingles) / len(line_shingles) >= LINE_MATCH_SHARE
            else:
                hit = (" " + " ".join(tokens) + " ") in gold_joined
            matched = len(tokens) if hit else 0
            block_tokens[index] += len(tokens)
            block_matched[index] += matched
            lines.append((index, punctuation_ratio(line), len(tokens), matched))
    return block_tokens, block_matched, lines


def label_items(items: Iterable) -> list[LabelledPage]:
    """Items are `newscorpus.evaluation.extraction_eval.PageItem`s (html_path, gold_path, ...)."""
    pages = []
    for item in items:
        gold = item.gold_path.read_text(encoding="utf-8", errors="replace")
        page = label_page(item.html_path.read_bytes(), gold, item.dataset, item.site, item.group)
        if page is not None and page.gold_tokens:
            pages.append(page)
    return pages


def _mean_f1(selected_tokens: np.ndarray, selected_matched: np.ndarray, gold: np.ndarray) -> float:
    precision = np.divide(selected_matched, selected_tokens, out=np.zeros_like(gold), where=selected_tokens > 0)
    recall = selected_matched / gold
    f1 = np.divide(2 * precision * recall, precision + recall, out=np.zeros_like(gold), where=(precision + recall) > 0)
    return float(f1.mean())


class _Stack:
    """All pages' blocks in flat arrays so a PSO fitness call is a few numpy operations."""

    def __init__(self, pages: list[LabelledPage], names: tuple[str, ...]) -> None:
        self.values = np.vstack([block_scoring.feature_matrix(p.blocks, names) for p in pages])
        self.page = np.concatenate([np.full(len(p.blocks), i) for i, p in enumerate(pages)])
        self.tokens = np.concatenate([p.block_tokens for p in pages])
        self.matched = np.concatenate([p.block_matched for p in pages])
        self.gold = np.array([float(p.gold_tokens) for p in pages])
        self.labels = (self.tokens > 0) & (self.matched >= 0.5 * self.tokens)
        self.pages = len(pages)

    def supports(self, sizes: list[int]) -> list[list[float]]:
        out = []
        nonempty = self.tokens > 0
        for column, size in enumerate(sizes):
            table = []
            for value in range(size):
                mask = nonempty & (self.values[:, column] == value)
                table.append(float((self.labels[mask].sum() + SMOOTHING) / (mask.sum() + 2 * SMOOTHING)))
            out.append(table)
        return out

    def f1(self, selected: np.ndarray) -> float:
        tokens = np.bincount(self.page, weights=self.tokens * selected, minlength=self.pages)
        matched = np.bincount(self.page, weights=self.matched * selected, minlength=self.pages)
        return _mean_f1(tokens, matched, self.gold)


def fit_blocks(pages: list[LabelledPage], seed: int, names: tuple[str, ...] | None = None) -> dict:
    names = names or tuple(name for name, _, _ in FEATURES)
    sizes = [size for name, size, _ in FEATURES if name in names]
    stack = _Stack(pages, names)
    supports = stack.supports(sizes)
    support_values = block_scoring.support_matrix(stack.values, tuple(map(tuple, supports)))

    def fitness(position: np.ndarray) -> float:
        weights, threshold = position[:-1], position[-1]
        total = weights.sum()
        if total <= 0:
            return 0.0
        scores = support_values @ weights / total
        return stack.f1(((scores > threshold) & (stack.tokens > 0)).astype(float))

    lower = np.array([WEIGHT_RANGE[0]] * len(names) + [0.0])
    upper = np.array([WEIGHT_RANGE[1]] * len(names) + [1.0])
    result = maximise(fitness, lower, upper, seed)
    return {
        "features": list(names),
        "supports": [[round(v, 4) for v in s] for s in supports],
        "weights": [round(float(w), 4) for w in result.position[:-1]],
        "threshold": round(float(result.position[-1]), 4),
        "blocks_f1": round(result.fitness, 4),
    }


def fit_punctuation_p(pages: list[LabelledPage]) -> tuple[float, float]:
    """The p in P_GRID maximising mean page F1 of the punctuation method (ties: smallest p)."""
    best = (0.0, -1.0)
    gold = np.array([float(p.gold_tokens) for p in pages])
    for p in P_GRID:
        tokens = np.zeros(len(pages))
        matched = np.zeros(len(pages))
        for i, page in enumerate(pages):
            for index, ratio, n, m in page.lines:
                block = page.blocks[index]
                if 0.0 < ratio <= p and block.link_chars < 0.5 * block.chars:
                    tokens[i] += n
                    matched[i] += m
        f1 = _mean_f1(tokens, matched, gold)
        if f1 > best[1] + 1e-9:
            best = (p, f1)
    return best


def fit_model(items: list, seed: int, data_dirs: Iterable[str] = ()) -> dict:
    pages = label_items(items)
    fitted = fit_blocks(pages, seed)
    p, p_f1 = fit_punctuation_p(pages)
    return {
        "features": fitted["features"],
        "supports": fitted["supports"],
        "weights": fitted["weights"],
        "threshold": fitted["threshold"],
        "punctuation_p": p,
        "fit": {"blocks_f1": fitted["blocks_f1"], "punctuation_f1": round(p_f1, 4), "pages": len(pages)},
        "source": {
            "data": [str(d) for d in data_dirs],
            "seed": seed,
            "date": datetime.date.today().isoformat(),
            "command": "newscorpus train extraction --data " + " ".join(map(str, data_dirs)) + f" --seed {seed}",
        },
    }


def save_model(model: dict, path: Path) -> None:
    path.write_text(json.dumps(model, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    block_scoring.load_model.cache_clear()


def model_from_dict(model: dict) -> BlockModel:
    return BlockModel.from_dict(model)
