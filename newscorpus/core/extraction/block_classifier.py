"""A learned correction of the default method's region: text blocks the rules left out that are body.

The rules (region.py) choose a region and trim it; a small tree ensemble then reads the features
(block_features.py) of the text blocks the rules left out (`open_positions`), the rules' own decision among them,
and adds those it scores as body. It never drops a block the rules keep (letting it drop lost held-out F1), and is
not used where the page or the rules' body is Chinese (RULES_ONLY_LANGUAGES). Trained by `block_training.py`
(LightGBM, training-time only) on labelled pages; shipped as a JSON file of tree arrays (with the data, seed,
feature list and date that made it) and evaluated here with numpy alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from newscorpus.core.extraction.block_features import FEATURES, block_features
from newscorpus.core.extraction.block_tree import Block
from newscorpus.core.text import language_of_texts

MODEL_PATH = Path(__file__).with_name("block_model.json")
# Whether the default method uses the shipped model (its held-out figures: BENCHMARKS.md).
USE_LEARNED = True


@dataclass(frozen=True)
class TreeModel:
    """A sum of regression trees over `features` (raw score; body when above `threshold`). Node arrays are
    padded to one width: a leaf (feature -1) points to itself, so `depth` steps reach every leaf."""

    features: tuple[str, ...]
    feature: np.ndarray  # (trees, nodes) int: column split on, 0 at leaves
    split: np.ndarray  # (trees, nodes) float: go left when value <= split (+inf at leaves)
    value: np.ndarray  # (trees, nodes) float: leaf output (0 on inner nodes)
    depth: int
    base: float
    threshold: float
    source: dict
    # The same trees walked with node ids doubled (id 2n is node n of the flat arrays): its split column and value
    # at 2n and 2n + 1, its right child's id at 2n and its left child's at 2n + 1, so a step is one lookup at
    # id + (value <= split) instead of two lookups and a choice (the same scores:
    # tests/core/extraction/test_fast_forms_of_block_model.py compares).
    doubled_feature: np.ndarray = field(default=None, repr=False)  # (2 * trees * nodes) int
    doubled_split: np.ndarray = field(default=None, repr=False)  # (2 * trees * nodes) float
    doubled_child: np.ndarray = field(default=None, repr=False)  # (2 * trees * nodes) int
    doubled_value: np.ndarray = field(default=None, repr=False)  # (2 * trees * nodes) float
    doubled_roots: np.ndarray = field(default=None, repr=False)  # (trees,) int: each tree's root id

    @classmethod
    def from_dict(cls, data: dict) -> TreeModel:
        trees = data["trees"]
        width = max((len(tree["feature"]) for tree in trees), default=1)
        shape = (max(len(trees), 1), width)
        feature = np.zeros(shape, dtype=np.intp)
        split = np.full(shape, np.inf)
        left = np.tile(np.arange(width, dtype=np.intp), (shape[0], 1))
        right = left.copy()
        value = np.zeros(shape)
        for t, tree in enumerate(trees):
            for node, column in enumerate(tree["feature"]):
                if column >= 0:
                    feature[t, node], split[t, node] = column, tree["split"][node]
                    left[t, node], right[t, node] = tree["left"][node], tree["right"][node]
                else:
                    value[t, node] = tree["value"][node]
        starts = np.arange(shape[0])[:, None] * width
        left, right = (left + starts).ravel(), (right + starts).ravel()
        child = np.empty(2 * left.size, dtype=np.intp)
        child[0::2], child[1::2] = 2 * right, 2 * left
        return cls(tuple(data["features"]), feature, split, value, int(data["depth"]),
                   float(data.get("base", 0.0)), float(data["threshold"]), dict(data.get("source", {})),
                   np.repeat(feature.ravel(), 2), np.repeat(split.ravel(), 2), child, np.repeat(value.ravel(), 2),
                   starts.ravel() * 2)


@cache
def load_model(path: Path = MODEL_PATH) -> TreeModel | None:
    """The shipped model; None when there is none (or it is unreadable, or made for other features)."""
    try:
        model = TreeModel.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None
    return model if model.features == FEATURES else None


def tree_scores(model: TreeModel, rows: np.ndarray) -> np.ndarray:
    """Raw scores, one per row of `rows` (rows x features): every (row, tree) pair steps down at once, `depth`
    times, in flat arrays."""
    if not len(rows):
        return np.zeros(0)
    trees = model.feature.shape[0]
    flat = rows.ravel()
    offsets = np.repeat(np.arange(len(rows)) * rows.shape[1], trees)  # each pair's row start in `flat`
    node = np.tile(model.doubled_roots, len(rows))  # each pair's node, as a doubled id (TreeModel.doubled_child)
    feature, split, child = model.doubled_feature, model.doubled_split, model.doubled_child
    for _ in range(model.depth):
        node = child[node + (flat[offsets + feature[node]] <= split[node])]
    return model.doubled_value[node].reshape(len(rows), trees).sum(axis=1) + model.base


def candidates(blocks: list[Block]) -> list[int]:
    """The blocks the model decides on: every block with text."""
    return [index for index, block in enumerate(blocks) if block.chars]


# Languages whose pages keep the rules' body: on zh pages the model's additions lost held-out F1 in the site-grouped
# cross-validation (`newscorpus eval extraction`'s folds; 75 pages from 2 sets, too few to learn their corrections),
# so the model is trained on every page but used on the others.
RULES_ONLY_LANGUAGES = frozenset({"zh"})


def rules_body_only(lines: list[str]) -> bool:
    """Whether the rules' body (`lines`) is in one of RULES_ONLY_LANGUAGES. The page's language is read from all
    its blocks' text, so a Chinese article amid English chrome (menus, sidebars, a footer) can read as en or as
    undecided (coolshell.cn); the body's own language decides then. Only the lines that fill detect_language's
    sample are read (language_of_texts)."""
    return language_of_texts(lines, english=False) in RULES_ONLY_LANGUAGES  # holds no "en" (test_fast_forms_of_region)


def open_positions(blocks: list[Block], indices: list[int], kept: list[int], comments: list[bool] | None,
                   headline: int | None = None) -> list[int]:
    """Positions in `indices` of the blocks the model may add: outside the rules' body, under half links, not in
    a comment section or a <nav>/<footer>/<aside>/<header> landmark, not the stated headline (the title, never
    body). Ruling the rest out before the model costs a little held-out F1 and leaves ~22 blocks a page to score
    instead of ~140."""
    kept_set = set(kept)
    if headline is not None:
        kept_set.add(headline)
    return [position for position, index in enumerate(indices)
            if index not in kept_set and 2 * blocks[index].link_chars < blocks[index].chars
            and not blocks[index].in_chrome
            and not (comments[index] if comments is not None else blocks[index].comment)]


def additions(model: TreeModel, blocks: list[Block], kept: list[int], roots: list[int], headline: int | None,
              language: str | None, window: list[bool] | None, comments: list[bool] | None) -> list[int]:
    """Blocks the model adds to the rules' body (`kept`): open blocks (`open_positions`) scoring above the model's
    threshold, except copies of a kept block's text (hidden copies of the article repeat its blocks)."""
    indices = candidates(blocks)
    kept_texts = {blocks[index].text for index in kept}
    # a copy is never added, whatever its score: its features are not computed (a row's features do not depend on
    # which other rows are asked)
    positions = [position for position in open_positions(blocks, indices, kept, comments, headline)
                 if blocks[indices[position]].text not in kept_texts]
    if not positions:
        return []
    rows = block_features(blocks, kept, roots, headline, language, indices, window, comments, positions)
    scores = tree_scores(model, rows)
    return [indices[position] for position, score in zip(positions, scores, strict=True) if score > model.threshold]
