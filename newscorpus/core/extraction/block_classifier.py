"""A learned correction of the default method's region (issue 16): text blocks the rules left out that are body.

The rules (default.py) choose a region and trim it; a small tree ensemble then reads the features of the text
blocks the rules left out (`open_positions`), the rules' own decision among them, and adds those it scores as body.
It never drops a block the rules keep (letting it drop lost held-out F1; BENCHMARKS.md, round 5), and is not used
where the page or the rules' body is Chinese (RULES_ONLY_LANGUAGES). Trained by
`block_training.py` (LightGBM, training-time only) on labelled pages; shipped as a JSON file of tree arrays (with
the data, seed, feature list and date that made it) and evaluated here with numpy alone.
"""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from itertools import accumulate
from pathlib import Path

import numpy as np

from newscorpus.core.extraction.block_tree import HEADING_TAGS, Block
from newscorpus.core.extraction.punctuation import prose_value
from newscorpus.core.text import language_of_texts

_CAPTION_TAGS = frozenset({"figure", "figcaption"})

MODEL_PATH = Path(__file__).with_name("block_model.json")
# Whether the default method uses the shipped model (issue 16 round 5; see BENCHMARKS.md for the figures).
USE_LEARNED = True

# Tags read as their own feature (a tree splits an integer code badly; one flag each is cheap).
_TAG_FLAGS = ("p", "div", "li", "td", "span", "pre", "blockquote")
# The tag_* features of each tag (one lookup per row instead of seven comparisons in a generator).
_TAG_ROWS = {tag: tuple(tag == name for name in _TAG_FLAGS) for tag in _TAG_FLAGS}
_NO_TAG_ROW = (False,) * len(_TAG_FLAGS)
# Words of a block's text that mark site furniture rather than article prose (newsletter and donation boxes,
# share bars, "related" lists, legal lines); the model weighs them, no rule acts on them alone.
_FURNITURE = re.compile(
    r"subscribe|newsletter|sign up|donat|advertis|follow us|share this|related|read more|copyright|©|"
    r"all rights reserved|cookie|click here|comments?\b|log ?in|register|订阅|版权|责任编辑|相关|评论|广告|分享",
    re.IGNORECASE,
)

# ... searched in a block's first 200 characters: a box says what it is up front, and a long paragraph's later
# "related" or "comments" is prose (and searching whole paragraphs was a fifth of the features' CPU).
FURNITURE_PREFIX = 200

FEATURES: tuple[str, ...] = (
    "rule_kept",  # the rules put this block's lines in the body
    "in_region",  # inside the rules' region (a root's subtree)
    "region_side",  # -1 before the region, 0 inside, 1 after
    "region_distance",  # blocks between this one and the region, over the page's blocks
    "position",  # index over the page's blocks
    "log_chars",
    "link_density",
    "punctuation_density",
    "lines",
    "depth",
    "root_depth",  # depth below the nearest region root (-1 outside)
    "hint",  # inherited class/id hint (-1, 0, +1)
    "own_negative",  # the element's own class/id holds a negative word
    "own_positive",
    "comment",
    "in_chrome",
    "heading",
    "h1",
    *(f"tag_{tag}" for tag in _TAG_FLAGS),
    "bold",
    "br",
    "region_make",  # tag and first class shared with a kept block
    "repeat",  # the same text in an earlier block
    "furniture",  # furniture words in the text
    "before_headline",  # before the stated headline (1), after it (0), no headline (-1)
    "previous_kept",  # the previous text block's rule decision
    "next_kept",
    "siblings_kept",  # share of the parent's text blocks the rules kept
    "region_share",  # block characters over the body's
    "body_share",  # the rules' body over the page's text
    "zh",
    "prose",  # punctuation.prose_value > 0: punctuated (ratio in (0, PAPER_MAX_RATIO]), a sentence beside links
    "steps_up",  # steps from the block up to the nearest ancestor-or-self that holds or is in the region
    "anchor_height",  # how far that ancestor is above the region's root (0 inside the region)
    "parent_kept",  # share of the parent's subtree text the rules kept
    "grandparent_kept",
    "parent_log_chars",  # text in the parent's subtree
    "previous_log_chars",  # the neighbouring text blocks' length and punctuation
    "next_log_chars",
    "previous_punctuation",
    "next_punctuation",
    "in_window",  # inside the headline's item window (1), outside it (0), no headline (-1)
    "in_caption",  # inside a <figure>/<figcaption>
    "comment_section",  # inside a comment section by class/id or by a "Comments" label (default.comment_sections)
    "item_repeat",  # log(1 + siblings of the block's item of the item's make): a repeated list (0 without an item)
    "item_link_led",  # the item's first text block is mostly link (a teaser's linked title)
    "item_log_chars",  # text in the item's subtree
    "item_holds_region",  # a region root lies in the item (the article's own section)
    "item_beside_region",  # the item is a sibling of the same make as an ancestor of a region root (another entry)
    "item_linked",  # share of the item and its siblings of its make that hold a link
    "gap_blocks",  # log(1 + text blocks between this one and the nearest kept block in reading order)
    "gap_links",  # log(1 + those of them that are mostly link: menus, share bars, tag lists, teaser titles)
)

# A block's item (issue 16 round 6): its nearest ancestor-or-self, at most ITEM_STEPS up, whose parent holds at
# least ITEM_REPEAT children of its make (tag and first class) — an entry of a repeated list (teasers, events,
# horoscope signs, a ticker's items), a section of a sectioned guide, or one paragraph among many. Round 5's model
# added the other entries beside the article's (an event page's other events, .613 -> .164 held out); the item
# features let the trees tell "another entry of the list the article sits in" (beside the region, led by a link,
# short, its siblings linked) from "the article's next section". Not tuned: 6 steps reach a list entry from a
# paragraph inside it on the dev pages looked at, 3 is the smallest count that makes a list.
ITEM_STEPS = 6
ITEM_REPEAT = 3


@dataclass(frozen=True)
class TreeModel:
    """A sum of regression trees over `features` (raw score; body when above `threshold`). Node arrays are
    padded to one width: a leaf (feature -1) points to itself, so `depth` steps reach every leaf."""

    features: tuple[str, ...]
    feature: np.ndarray  # (trees, nodes) int: column split on, 0 at leaves
    split: np.ndarray  # (trees, nodes) float: go left when value <= split (+inf at leaves)
    left: np.ndarray  # (trees * nodes) int: the left child as an index into the flattened (trees x nodes) arrays
    right: np.ndarray  # (trees * nodes) int
    value: np.ndarray  # (trees, nodes) float: leaf output (0 on inner nodes)
    depth: int
    base: float
    threshold: float
    source: dict
    # The same trees walked with node ids doubled (id 2n is node n of the flat arrays): its split column and value
    # at 2n and 2n + 1, its right child's id at 2n and its left child's at 2n + 1, so a step is one lookup at
    # id + (value <= split) instead of two lookups and a choice (tree_scores 0.077 -> 0.058 ms a page on the dev sets,
    # the same scores: issue 16 round 11, 2026-11-25; tests/core/extraction/test_fast_tail.py compares).
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
        return cls(tuple(data["features"]), feature, split, left, right, value, int(data["depth"]),
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


def block_features(blocks: list[Block], kept: list[int], roots: list[int], headline: int | None,
                   language: str | None, indices: list[int], window: list[bool] | None = None,
                   comments: list[bool] | None = None, positions: list[int] | None = None) -> np.ndarray:
    """One row of FEATURES per block in `indices` (the blocks with text, ascending; with `positions`, only for the
    blocks at those positions in `indices`), from the rules' decision (`kept`: the blocks whose lines the rules
    keep, `roots`: their region, `headline`: the stated headline's block, `window`: its item window, `comments`:
    the comment sections, as default.py computes them).

    Page-wide facts are computed only as far as the chosen rows need them (the model scores ~24 open blocks of
    ~140): a text's earlier copy is looked for among the blocks of its length, a row's make among the kept blocks
    of its tag, a caption ancestor once per ancestor."""

    n = len(blocks)
    positions = list(range(len(indices))) if positions is None else positions
    if not positions:
        return np.empty((0, len(FEATURES)))
    kept_set = set(kept)
    low = roots[0] if roots else n
    high = blocks[roots[-1]].end if roots else n
    chars = [block.chars for block in blocks]
    parents = [block.parent for block in blocks]
    # Subtree text by prefix sums (a block's subtree is blocks[index:end]), all of it and the kept part.
    prefix = [0, *accumulate(chars)]
    kept_chars = [0] * n
    for index in kept:
        kept_chars[index] = chars[index]
    kept_prefix = [0, *accumulate(kept_chars)]
    body_chars = kept_prefix[-1]
    page_chars = prefix[-1] or 1
    children = Counter(map(parents.__getitem__, indices))  # text blocks per parent, and kept ones
    children_kept = Counter(map(parents.__getitem__, kept))
    # The positions of the text blocks as long as a row's: a copy of a text has its length.
    sizes = {chars[indices[position]] for position in positions}
    same_size: dict[int, list[int]] = {}
    for position, size in enumerate(map(chars.__getitem__, indices)):
        if size in sizes:
            same_size.setdefault(size, []).append(position)
    holders: dict[int, int] = {}  # ancestors-or-self of the roots -> height above the region's root
    for root in roots:
        height, node = 0, root
        while node >= 0 and node not in holders:
            holders[node] = height
            height += 1
            node = parents[node]
    captions: dict[int, bool] = {-1: False}  # block -> a <figure>/<figcaption> is it or above it
    classes = [blocks[indices[position]].class_names for position in positions]
    makes = _kept_makes(blocks, kept, {_make_of(blocks[indices[position]].tag, names)
                                       for position, names in zip(positions, classes, strict=True)})
    zh = 1.0 if language == "zh" else 0.0
    body_share = body_chars / page_chars
    last = len(indices) - 1
    items = _Items(blocks, roots, prefix)
    # Mostly-link text blocks before each position of `indices`, and the kept blocks' positions (for _gap).
    link_prefix = [0, *accumulate(2 * blocks[index].link_chars > chars[index] for index in indices)]
    kept_positions = sorted(position for position, index in enumerate(indices) if index in kept_set)
    rows = []
    for position, names in zip(positions, classes, strict=True):
        index = indices[position]
        block = blocks[index]
        size = block.chars
        parent = block.parent
        grandparent = parents[parent] if parent >= 0 else -1
        flags = block.name_flags  # _names_flags of its class and id
        depth_in = next((block.depth - blocks[r].depth for r in roots if r <= index < blocks[r].end), -1)
        side = 0 if low <= index < high else -1 if index < low else 1
        distance = 0 if side == 0 else (low - index if side < 0 else index - high + 1)
        anchor = index
        if depth_in < 0:
            while anchor >= 0 and anchor not in holders:
                anchor = parents[anchor]
        previous = blocks[indices[position - 1]] if position else None
        following = blocks[indices[position + 1]] if position < last else None
        text = block.text
        tag = block.tag
        rows.append((
            index in kept_set,
            depth_in >= 0,
            side,
            distance / n,
            index / n,
            math.log1p(size),
            block.link_chars / size,
            block.punctuation / size,
            text.count("\n") + 1,
            block.depth,
            depth_in,
            block.hint,
            bool(flags & 1),
            bool(flags & 2),
            block.comment,
            block.in_chrome,
            tag in HEADING_TAGS,
            tag == "h1",
            *_TAG_ROWS.get(tag, _NO_TAG_ROW),
            block.bold_count > 0,
            block.br_count > 0,
            _make_of(tag, names) in makes,
            _earlier_copy(blocks, indices, same_size[size], position, text),
            _furniture(text),
            -1 if headline is None else float(index < headline),
            previous is not None and indices[position - 1] in kept_set,
            following is not None and indices[position + 1] in kept_set,
            children_kept[parent] / children[parent],
            size / body_chars if body_chars else 0.0,
            body_share,
            zh,
            prose_value(block) > 0,
            block.depth - blocks[anchor].depth if anchor >= 0 else block.depth,
            holders.get(anchor, 0) if roots else -1,
            _subtree_share(blocks, prefix, kept_prefix, parent),
            _subtree_share(blocks, prefix, kept_prefix, grandparent),
            math.log1p(prefix[blocks[parent].end] - prefix[parent]) if parent >= 0 else 0.0,
            math.log1p(previous.chars) if previous is not None else 0.0,
            math.log1p(following.chars) if following is not None else 0.0,
            previous.punctuation / previous.chars if previous is not None else 0.0,
            following.punctuation / following.chars if following is not None else 0.0,
            -1 if window is None else window[index],
            _in_caption(blocks, parents, captions, index),
            comments[index] if comments is not None else block.comment,
            *items.features(index),
            *_gap(kept_positions, link_prefix, position),
        ))
    return np.array(rows, dtype=float)


def _gap(kept_positions: list[int], link_prefix: list[int], position: int) -> tuple[float, float]:
    """log(1 + text blocks) and log(1 + mostly-link text blocks) between the text block at `position` (of
    `indices`) and the nearest kept one in reading order: a continuation of the article follows it closely, a
    teaser comes after share bars, tag lists and "related" titles (0, 0 for a kept block; -1, -1 without any)."""
    at = bisect_left(kept_positions, position)
    count = len(kept_positions)
    if at < count and kept_positions[at] == position:
        return 0.0, 0.0
    # the shorter of the spans to the kept block before and to the one after (the one before on a tie)
    if at:
        low, high = kept_positions[at - 1] + 1, position
        if at < count and kept_positions[at] - position - 1 < high - low:
            low, high = position + 1, kept_positions[at]
    elif at < count:
        low, high = position + 1, kept_positions[at]
    else:
        return -1.0, -1.0
    return math.log1p(high - low), math.log1p(link_prefix[high] - link_prefix[low])


class _Items:
    """A block's item (ITEM_STEPS, ITEM_REPEAT) and its features; children by tag and make, makes and links read once
    (`prefix`: the blocks' characters, prefix sums)."""

    def __init__(self, blocks: list[Block], roots: list[int], prefix: list[int]) -> None:
        self.blocks = blocks
        self.roots = roots
        self.char_prefix = prefix
        self.tags: dict[int, dict[str, list[int]]] = {}
        self.same: dict[tuple[int, tuple[str, str]], list[int]] = {}
        self.makes: dict[int, tuple[str, str]] = {}
        self.linked: dict[tuple[int, tuple[str, str]], float] = {}
        self.items: dict[int, tuple[float, ...]] = {}
        self.not_items: set[int] = set()
        self.link_prefix: list[int] | None = None
        self.beside: set[tuple[int, tuple[str, str]]] = set()  # (parent, make) of a region root's ancestors-or-self
        for root in roots:
            node = root
            while node >= 0 and blocks[node].parent >= 0:
                self.beside.add((blocks[node].parent, self.make(node)))
                node = blocks[node].parent

    def make(self, index: int) -> tuple[str, str]:
        make = self.makes.get(index)
        if make is None:
            block = self.blocks[index]
            make = self.makes[index] = _make_of(block.tag, block.class_names)
        return make

    def same_tag(self, parent: int, tag: str) -> list[int]:
        """The parent's children of this tag (children grouped by tag once per parent)."""
        tags = self.tags.get(parent)
        if tags is None:
            tags = self.tags[parent] = {}
            blocks = self.blocks
            index, end = parent + 1, blocks[parent].end
            while index < end:
                tags.setdefault(blocks[index].tag, []).append(index)
                index = blocks[index].end
        return tags[tag]

    def same_make(self, parent: int, make: tuple[str, str]) -> list[int]:
        """The parent's children of this make (classes read only for the children of the make's tag)."""
        same = self.same.get((parent, make))
        if same is None:
            same = self.same[(parent, make)] = [kid for kid in self.same_tag(parent, make[0]) if self.make(kid) == make]
        return same

    def features(self, index: int) -> tuple[float, ...]:
        """item_repeat, item_link_led, item_log_chars, item_holds_region, item_beside_region, item_linked (they
        depend on the item alone, so each item's are computed once; so is "no item" for a block)."""
        blocks = self.blocks
        node = index
        for _ in range(ITEM_STEPS):
            parent = blocks[node].parent
            if parent < 0:
                break
            found = self.items.get(node)
            if found is None and node not in self.not_items:
                found = self._item(node, parent)
            if found is not None:
                return found
            node = parent
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0

    def _item(self, node: int, parent: int) -> tuple[float, ...] | None:
        """The features of `node` as an item, None (remembered) when it is not one."""
        blocks = self.blocks
        if len(self.same_tag(parent, blocks[node].tag)) < ITEM_REPEAT:  # too few of its tag: no class read
            self.not_items.add(node)
            return None
        make = self.make(node)
        same = self.same_make(parent, make)
        if len(same) < ITEM_REPEAT:
            self.not_items.add(node)
            return None
        end = blocks[node].end
        first = next(i for i in range(node, end) if blocks[i].chars)
        holds = any(node <= root < end for root in self.roots)
        linked = self.linked.get((parent, make))
        if linked is None:
            if self.link_prefix is None:
                self.link_prefix = [0, *accumulate(block.link_chars for block in blocks)]
            links = self.link_prefix
            linked = self.linked[(parent, make)] = (
                sum(1 for kid in same if links[blocks[kid].end] > links[kid]) / len(same))
        found = self.items[node] = (
            math.log1p(len(same)), 2 * blocks[first].link_chars > blocks[first].chars,
            math.log1p(self.char_prefix[end] - self.char_prefix[node]), holds,
            not holds and (parent, make) in self.beside, linked)
        return found


def _make_of(tag: str, names: str) -> tuple[str, str]:
    """A block's make: its tag and first class name ("" without one)."""
    first = names.split(None, 1)
    return tag, first[0] if first else ""


def _kept_makes(blocks: list[Block], kept: list[int], wanted: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The makes in `wanted` that a kept block has (only kept blocks of a wanted tag have their class read; the
    search stops once all are found)."""
    tags = {tag for tag, _ in wanted}
    found: set[tuple[str, str]] = set()
    for index in kept:
        block = blocks[index]
        if block.tag in tags:
            make = _make_of(block.tag, block.class_names)
            if make in wanted:
                found.add(make)
                if len(found) == len(wanted):
                    break
    return found


def _earlier_copy(blocks: list[Block], indices: list[int], same_size: list[int], position: int, text: str) -> bool:
    """Whether a text block before `position` holds the same text (`same_size`: the ascending positions of the
    blocks as long as it, itself among them)."""
    for earlier in same_size:
        if earlier >= position:
            return False
        if blocks[indices[earlier]].text == text:
            return True
    return False


_FURNITURE_LOWER = re.compile(_FURNITURE.pattern)


# The characters that a case-insensitive search matches to an ASCII letter but lower() does not turn into one
# (İ -> "i̇", two characters; ı, ſ, Kelvin K): every other character lowers to one character, no ASCII letter, no
# other character of the pattern, and keeps its word/non-word kind (all code points checked in
# tests/core/extraction/test_fast_features.py).
_UNFOLDED = ("\u0130", "\u0131", "\u017f", "\u212a")


def _furniture(text: str) -> bool:
    """_FURNITURE in the first FURNITURE_PREFIX characters: the lower-cased text searched case-sensitively (the
    same matches, 3x faster), or the case-insensitive pattern where the text holds one of _UNFOLDED."""
    head = text[:FURNITURE_PREFIX]
    if head.isascii() or not any(char in head for char in _UNFOLDED):
        return _FURNITURE_LOWER.search(head.lower()) is not None
    return _FURNITURE.search(head) is not None


def _in_caption(blocks: list[Block], parents: list[int], captions: dict[int, bool], index: int) -> bool:
    """Whether the block or an ancestor is a <figure>/<figcaption> (`captions` remembers the ancestors asked)."""
    path = []
    node = index
    while node not in captions:
        if blocks[node].tag in _CAPTION_TAGS:
            captions[node] = True
            break
        path.append(node)
        node = parents[node]
    answer = captions[node]
    for node in path:
        captions[node] = answer
    return answer


def _subtree_share(blocks: list[Block], prefix: list[int], kept_prefix: list[int], index: int) -> float:
    """Share of the text in `index`'s subtree that the rules kept."""
    if index < 0:
        return 0.0
    end = blocks[index].end
    whole = prefix[end] - prefix[index]
    return (kept_prefix[end] - kept_prefix[index]) / whole if whole else 0.0


# Languages whose pages keep the rules' body: on zh pages the model's additions lost held-out F1 (scratch runs of the
# site-grouped 5-fold CV over the six dev sets, 2026-11-24, a 15-leaf model used on every language: zh .9568 ->
# .9563 at threshold 0.5, .9536 at 0; 75 pages from 2 sets, too few to learn their corrections), so the model is
# trained on every page but used on the others.
RULES_ONLY_LANGUAGES = frozenset({"zh"})


def rules_body_only(lines: list[str]) -> bool:
    """Whether the rules' body (`lines`) is in one of RULES_ONLY_LANGUAGES. The page's language is read from all
    its blocks' text, so a Chinese article amid English chrome (menus, sidebars, a footer) can read as en or as
    undecided (coolshell.cn: 41 of 740 pages, BENCHMARKS.md round 5); the body's own language decides then. Only
    the lines that fill detect_language's sample are read (language_of_texts)."""
    return language_of_texts(lines, english=False) in RULES_ONLY_LANGUAGES  # holds no "en" (test_fast_paths.py)


def open_positions(blocks: list[Block], indices: list[int], kept: list[int], comments: list[bool] | None,
                   headline: int | None = None) -> list[int]:
    """Positions in `indices` of the blocks the model may add: outside the rules' body, under half links, not in
    a comment section or a <nav>/<footer>/<aside>/<header> landmark, not the stated headline (the title, never
    body). Ruling the rest out before the model costs held-out en .9493 -> .9487 (CV of 2026-11-24) and leaves
    ~22 blocks a page to score instead of ~140."""
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
    # which other rows are asked; ~5% of the rows on the dev pages; with the tag table and _gap's straight form A/B on
    # the 1,071 dev pages 0.989 and 0.990 CPU; issue 16 round 8, 2026-11-24)
    positions = [position for position in open_positions(blocks, indices, kept, comments, headline)
                 if blocks[indices[position]].text not in kept_texts]
    if not positions:
        return []
    rows = block_features(blocks, kept, roots, headline, language, indices, window, comments, positions)
    scores = tree_scores(model, rows)
    return [indices[position] for position, score in zip(positions, scores, strict=True) if score > model.threshold]
