"""The features of a text block that the learned block model reads (block_classifier.py): one row per block,
computed from the page and the rules' decision, in named groups (FEATURE_GROUPS), each a function of the page's
facts and the row's block."""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

import numpy as np

from newscorpus.core.extraction.block_tree import HEADING_TAGS, Block
from newscorpus.core.extraction.class_hints import NEGATIVE, POSITIVE
from newscorpus.core.extraction.punctuation import prose_value
from newscorpus.core.extraction.region_trim import CAPTION_TAGS

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
# "related" or "comments" is prose (and whole paragraphs would cost the most of the features' CPU).
FURNITURE_PREFIX = 200

# A block's item: its nearest ancestor-or-self, at most ITEM_STEPS up, whose parent holds at least ITEM_REPEAT
# children of its make (tag and first class) — an entry of a repeated list (teasers, events, horoscope signs, a
# ticker's items), a section of a sectioned guide, or one paragraph among many. A model without them added the
# other entries beside the article's (an event page's other events); the item features let the trees tell
# "another entry of the list the article sits in" (beside the region, led by a link, short, its siblings linked)
# from "the article's next section". Not tuned: 6 steps reach a list entry from a paragraph inside it on the dev
# pages looked at, 3 is the smallest count that makes a list.
ITEM_STEPS = 6
ITEM_REPEAT = 3


def block_features(blocks: list[Block], kept: list[int], roots: list[int], headline: int | None,
                   language: str | None, indices: list[int], window: list[bool] | None = None,
                   comments: list[bool] | None = None, positions: list[int] | None = None) -> np.ndarray:
    """One row of FEATURES per block in `indices` (the blocks with text, ascending; with `positions`, only for the
    blocks at those positions in `indices`), from the rules' decision (`kept`: the blocks whose lines the rules
    keep, `roots`: their region, `headline`: the stated headline's block, `window`: its item window, `comments`:
    the comment sections, as region.py computes them): each row the groups of FEATURE_GROUPS in order.

    Page-wide facts are computed only as far as the chosen rows need them (the model scores ~24 open blocks of
    ~140): a text's earlier copy is looked for among the blocks of its length, a row's make among the kept blocks
    of its tag, a caption ancestor once per ancestor."""
    positions = list(range(len(indices))) if positions is None else positions
    if not positions:
        return np.empty((0, len(FEATURES)))
    page = _Page(blocks, kept, roots, headline, language, indices, window, comments, positions)
    groups = _GROUP_FUNCTIONS
    rows = []
    for position in positions:
        row = page.row(position)
        values: list = []
        for group in groups:
            values.extend(group(page, row))
        rows.append(values)
    return np.array(rows, dtype=float)


class _Page:
    """The page-wide facts the feature groups read, computed once per call of block_features."""


    def __init__(self, blocks: list[Block], kept: list[int], roots: list[int], headline: int | None,
                 language: str | None, indices: list[int], window: list[bool] | None, comments: list[bool] | None,
                 positions: list[int]) -> None:
        n = len(blocks)
        self.blocks, self.kept, self.roots, self.headline = blocks, kept, roots, headline
        self.indices, self.window, self.comments, self.n = indices, window, comments, n
        self.kept_set = set(kept)
        self.low = roots[0] if roots else n  # the region: blocks[low:high]
        self.high = blocks[roots[-1]].end if roots else n
        chars = self.chars = [block.chars for block in blocks]
        parents = self.parents = [block.parent for block in blocks]
        # Subtree text by prefix sums (a block's subtree is blocks[index:end]), all of it and the kept part.
        self.prefix = [0, *accumulate(chars)]
        kept_chars = [0] * n
        for index in kept:
            kept_chars[index] = chars[index]
        self.kept_prefix = [0, *accumulate(kept_chars)]
        self.body_chars = self.kept_prefix[-1]
        self.body_share = self.body_chars / (self.prefix[-1] or 1)
        self.children = Counter(map(parents.__getitem__, indices))  # text blocks per parent, and kept ones
        self.children_kept = Counter(map(parents.__getitem__, kept))
        self.same_size = _same_size(chars, indices, positions)
        self.holders = _holders(roots, parents)
        self.captions: dict[int, bool] = {-1: False}  # block -> a <figure>/<figcaption> is it or above it
        self.makes = _kept_makes(blocks, kept, {_make_of(blocks[indices[position]].tag,
                                                         blocks[indices[position]].class_names)
                                                for position in positions})
        self.zh = 1.0 if language == "zh" else 0.0
        self.last = len(indices) - 1
        self.items = _Items(blocks, roots, self.prefix)
        # Mostly-link text blocks before each position of `indices`, and the kept blocks' positions (for _gap).
        self.link_prefix = [0, *accumulate(2 * blocks[index].link_chars > chars[index] for index in indices)]
        self.kept_positions = sorted(position for position, index in enumerate(indices) if index in self.kept_set)

    def row(self, position: int) -> _Row:
        """What the groups share of the row of the text block at `position` of `indices`."""
        blocks, indices = self.blocks, self.indices
        index = indices[position]
        block = blocks[index]
        depth_in = next((block.depth - blocks[r].depth for r in self.roots if r <= index < blocks[r].end), -1)
        previous = blocks[indices[position - 1]] if position else None
        following = blocks[indices[position + 1]] if position < self.last else None
        return _Row(position, index, block, depth_in, previous, following)


@dataclass(slots=True)
class _Row:
    position: int  # in `indices`
    index: int  # in `blocks`
    block: Block
    depth_in: int  # depth below the nearest region root (-1 outside the region)
    previous: Block | None  # the text blocks before and after it
    following: Block | None


def _same_size(chars: list[int], indices: list[int], positions: list[int]) -> dict[int, list[int]]:
    """The positions of the text blocks as long as a chosen row's, by length (a copy of a text has its length)."""
    sizes = {chars[indices[position]] for position in positions}
    same_size: dict[int, list[int]] = {}
    for position, size in enumerate(map(chars.__getitem__, indices)):
        if size in sizes:
            same_size.setdefault(size, []).append(position)
    return same_size


def _holders(roots: list[int], parents: list[int]) -> dict[int, int]:
    """The ancestors-or-self of the region's roots, each with its height above the region's root."""
    holders: dict[int, int] = {}
    for root in roots:
        height, node = 0, root
        while node >= 0 and node not in holders:
            holders[node] = height
            height += 1
            node = parents[node]
    return holders


# The feature groups, in FEATURES order: (page, row) -> the group's values.
def _region_place(page: _Page, row: _Row) -> tuple:
    index = row.index
    side = 0 if page.low <= index < page.high else -1 if index < page.low else 1
    distance = 0 if side == 0 else (page.low - index if side < 0 else index - page.high + 1)
    return index in page.kept_set, row.depth_in >= 0, side, distance / page.n, index / page.n


def _text_shape(page: _Page, row: _Row) -> tuple:
    block, size = row.block, row.block.chars
    return math.log1p(size), block.link_chars / size, block.punctuation / size, block.text.count("\n") + 1


def _markup(page: _Page, row: _Row) -> tuple:
    block, tag, flags = row.block, row.block.tag, row.block.name_flags  # names_flags of its class and id
    return (block.depth, row.depth_in, block.hint, bool(flags & NEGATIVE), bool(flags & POSITIVE), block.comment,
            block.in_chrome, tag in HEADING_TAGS, tag == "h1", *_TAG_ROWS.get(tag, _NO_TAG_ROW),
            block.bold_count > 0, block.br_count > 0)


def _text_kind(page: _Page, row: _Row) -> tuple:
    block = row.block
    text = block.text
    return (_make_of(block.tag, block.class_names) in page.makes,
            _earlier_copy(page.blocks, page.indices, page.same_size[block.chars], row.position, text),
            _furniture(text))


def _rules_context(page: _Page, row: _Row) -> tuple:
    index, block, indices, kept_set = row.index, row.block, page.indices, page.kept_set
    parent = block.parent
    return (-1 if page.headline is None else float(index < page.headline),
            row.previous is not None and indices[row.position - 1] in kept_set,
            row.following is not None and indices[row.position + 1] in kept_set,
            page.children_kept[parent] / page.children[parent],
            block.chars / page.body_chars if page.body_chars else 0.0,
            page.body_share,
            page.zh,
            prose_value(block) > 0)


def _ancestors(page: _Page, row: _Row) -> tuple:
    blocks, parents, block = page.blocks, page.parents, row.block
    parent = block.parent
    grandparent = parents[parent] if parent >= 0 else -1
    anchor = row.index
    if row.depth_in < 0:  # the nearest ancestor that holds the region
        while anchor >= 0 and anchor not in page.holders:
            anchor = parents[anchor]
    return (block.depth - blocks[anchor].depth if anchor >= 0 else block.depth,
            page.holders.get(anchor, 0) if page.roots else -1,
            _subtree_share(blocks, page.prefix, page.kept_prefix, parent),
            _subtree_share(blocks, page.prefix, page.kept_prefix, grandparent),
            math.log1p(page.prefix[blocks[parent].end] - page.prefix[parent]) if parent >= 0 else 0.0)


def _neighbours(page: _Page, row: _Row) -> tuple:
    previous, following = row.previous, row.following
    return (math.log1p(previous.chars) if previous is not None else 0.0,
            math.log1p(following.chars) if following is not None else 0.0,
            previous.punctuation / previous.chars if previous is not None else 0.0,
            following.punctuation / following.chars if following is not None else 0.0)


def _masks(page: _Page, row: _Row) -> tuple:
    index = row.index
    return (-1 if page.window is None else page.window[index],
            _in_caption(page.blocks, page.parents, page.captions, index),
            page.comments[index] if page.comments is not None else row.block.comment)


def _item(page: _Page, row: _Row) -> tuple:
    return page.items.features(row.index)


def _reading_gap(page: _Page, row: _Row) -> tuple:
    return _gap(page.kept_positions, page.link_prefix, row.position)


FeatureGroup = tuple[tuple[str, ...], Callable[[_Page, _Row], tuple]]
FEATURE_GROUPS: tuple[FeatureGroup, ...] = (
    (("rule_kept",  # the rules put this block's lines in the body
      "in_region",  # inside the rules' region (a root's subtree)
      "region_side",  # -1 before the region, 0 inside, 1 after
      "region_distance",  # blocks between this one and the region, over the page's blocks
      "position"),  # index over the page's blocks
     _region_place),
    (("log_chars", "link_density", "punctuation_density", "lines"), _text_shape),
    (("depth",
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
      "br"),
     _markup),
    (("region_make",  # tag and first class shared with a kept block
      "repeat",  # the same text in an earlier block
      "furniture"),  # furniture words in the text
     _text_kind),
    (("before_headline",  # before the stated headline (1), after it (0), no headline (-1)
      "previous_kept",  # the previous text block's rule decision
      "next_kept",
      "siblings_kept",  # share of the parent's text blocks the rules kept
      "region_share",  # block characters over the body's
      "body_share",  # the rules' body over the page's text
      "zh",
      "prose"),  # punctuation.prose_value > 0: punctuated (ratio in (0, PAPER_MAX_RATIO]), a sentence beside links
     _rules_context),
    (("steps_up",  # steps from the block up to the nearest ancestor-or-self that holds or is in the region
      "anchor_height",  # how far that ancestor is above the region's root (0 inside the region)
      "parent_kept",  # share of the parent's subtree text the rules kept
      "grandparent_kept",
      "parent_log_chars"),  # text in the parent's subtree
     _ancestors),
    (("previous_log_chars",  # the neighbouring text blocks' length and punctuation
      "next_log_chars",
      "previous_punctuation",
      "next_punctuation"),
     _neighbours),
    (("in_window",  # inside the headline's item window (1), outside it (0), no headline (-1)
      "in_caption",  # inside a <figure>/<figcaption>
      "comment_section"),  # inside a comment section by class/id or by a "Comments" label (region.comment_sections)
     _masks),
    (("item_repeat",  # log(1 + siblings of the block's item of the item's make): a repeated list (0 without an item)
      "item_link_led",  # the item's first text block is mostly link (a teaser's linked title)
      "item_log_chars",  # text in the item's subtree
      "item_holds_region",  # a region root lies in the item (the article's own section)
      "item_beside_region",  # the item is a sibling of the same make as an ancestor of a region root (another entry)
      "item_linked"),  # share of the item and its siblings of its make that hold a link
     _item),
    (("gap_blocks",  # log(1 + text blocks between this one and the nearest kept block in reading order)
      "gap_links"),  # log(1 + those of them that are mostly link: menus, share bars, tag lists, teaser titles)
     _reading_gap),
)
FEATURES: tuple[str, ...] = tuple(name for names, _ in FEATURE_GROUPS for name in names)
_GROUP_FUNCTIONS = tuple(function for _, function in FEATURE_GROUPS)


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
# tests/core/extraction/test_fast_forms_of_block_model.py).
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
        if blocks[node].tag in CAPTION_TAGS:
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
