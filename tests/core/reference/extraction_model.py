"""The plain forms of the learned block model's inputs and evaluation: each computes what a faster form in
newscorpus/core/extraction (block_features.py, block_classifier.py) computes, the way the code first did it (every
page-wide fact for every row, the spans of a gap in a list, every open block scored, two child lookups per tree
step). tests/core/extraction/test_fast_forms_of_block_model.py compares the two.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from itertools import accumulate

import numpy as np

from newscorpus.core.extraction import block_classifier as bc
from newscorpus.core.extraction import block_features as bf
from newscorpus.core.extraction.block_tree import HEADING_TAGS, Block
from newscorpus.core.extraction.class_hints import names_flags
from newscorpus.core.extraction.punctuation import prose_value

# The features block_features_whole computes: those before the item and gap features.
WHOLE_FEATURES = bf.FEATURES.index("item_repeat")


def block_features_whole(blocks: list[Block], kept: list[int], roots: list[int], headline: int | None,
                         language: str | None, indices: list[int], window: list[bool] | None = None,
                         comments: list[bool] | None = None, positions: list[int] | None = None) -> np.ndarray:
    """The first WHOLE_FEATURES columns of block_features, every page-wide fact computed for the whole page
    (every kept block's make, each text's first block, the caption ancestors walked for every row) and every
    block's class and id read from its element."""
    n = len(blocks)
    positions = list(range(len(indices))) if positions is None else positions
    kept_set = set(kept)
    low = roots[0] if roots else n
    high = blocks[roots[-1]].end if roots else n
    makes = {(blocks[index].tag, blocks[index].element.get("class")) for index in kept}
    makes = {(tag, names.split(None, 1)[0] if names and names.strip() else "") for tag, names in makes}
    chars = [block.chars for block in blocks]
    prefix = [0, *accumulate(chars)]
    kept_chars = [0] * n
    for index in kept:
        kept_chars[index] = chars[index]
    kept_prefix = [0, *accumulate(kept_chars)]
    body_chars = kept_prefix[-1]
    page_chars = prefix[-1] or 1
    children = Counter(blocks[index].parent for index in indices)
    children_kept = Counter(blocks[index].parent for index in kept)
    first = {blocks[index].text: index for index in reversed(indices)}  # each text's first block
    holders: dict[int, int] = {}
    for root in roots:
        height, node = 0, root
        while node >= 0 and node not in holders:
            holders[node] = height
            height += 1
            node = blocks[node].parent
    zh = 1.0 if language == "zh" else 0.0
    body_share = body_chars / page_chars
    last = len(indices) - 1
    rows = np.empty((len(positions), WHOLE_FEATURES))
    for row, position in enumerate(positions):
        index = indices[position]
        block = blocks[index]
        size = block.chars
        parent = block.parent
        grandparent = blocks[parent].parent if parent >= 0 else -1
        flags = names_flags((block.element.get("class") or "") + " " + (block.element.get("id") or ""))
        depth_in = next((block.depth - blocks[r].depth for r in roots if r <= index < blocks[r].end), -1)
        side = 0 if low <= index < high else -1 if index < low else 1
        distance = 0 if side == 0 else (low - index if side < 0 else index - high + 1)
        anchor, caption = index, False
        while anchor >= 0 and anchor not in holders and not (depth_in >= 0 and anchor == index):
            caption = caption or blocks[anchor].tag in bf.CAPTION_TAGS
            anchor = blocks[anchor].parent
        node = anchor
        while node >= 0 and not caption:
            caption = blocks[node].tag in bf.CAPTION_TAGS
            node = blocks[node].parent
        previous = blocks[indices[position - 1]] if position else None
        following = blocks[indices[position + 1]] if position < last else None
        text = block.text
        tag = block.tag
        rows[row] = (
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
            *(tag == name for name in bf._TAG_FLAGS),
            block.bold_count > 0,
            block.br_count > 0,
            _element_make(block) in makes,
            first[text] < index,
            bf._FURNITURE.search(text, 0, bf.FURNITURE_PREFIX) is not None,
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
            _kept_share(blocks, prefix, kept_prefix, parent),
            _kept_share(blocks, prefix, kept_prefix, grandparent),
            math.log1p(prefix[blocks[parent].end] - prefix[parent]) if parent >= 0 else 0.0,
            math.log1p(previous.chars) if previous is not None else 0.0,
            math.log1p(following.chars) if following is not None else 0.0,
            previous.punctuation / previous.chars if previous is not None else 0.0,
            following.punctuation / following.chars if following is not None else 0.0,
            -1 if window is None else window[index],
            caption,
            comments[index] if comments is not None else block.comment,
        )
    return rows


def _element_make(block: Block) -> tuple[str, str]:
    classes = (block.element.get("class") or "").split()
    return block.tag, classes[0] if classes else ""


def _kept_share(blocks: list[Block], prefix: list[int], kept_prefix: list[int], index: int) -> float:
    if index < 0:
        return 0.0
    end = blocks[index].end
    whole = prefix[end] - prefix[index]
    return (kept_prefix[end] - kept_prefix[index]) / whole if whole else 0.0


def gap_from_span_list(kept_positions: list[int], link_prefix: list[int], position: int) -> tuple[float, float]:
    """block_features._gap from the list of the spans to the kept blocks around the position, the shortest taken."""
    at = bisect_left(kept_positions, position)
    if at < len(kept_positions) and kept_positions[at] == position:
        return 0.0, 0.0
    spans = []
    if at:
        spans.append((kept_positions[at - 1] + 1, position))
    if at < len(kept_positions):
        spans.append((position + 1, kept_positions[at]))
    if not spans:
        return -1.0, -1.0
    low, high = min(spans, key=lambda span: span[1] - span[0])
    return math.log1p(high - low), math.log1p(link_prefix[high] - link_prefix[low])


def additions_scoring_every_open_block(model: bc.TreeModel, blocks: list[Block], kept: list[int], roots: list[int],
                                       headline: int | None, language: str | None, window: list[bool] | None,
                                       comments: list[bool] | None) -> list[int]:
    """block_classifier.additions scoring every open block, the copies of kept text dropped after."""
    indices = bc.candidates(blocks)
    positions = bc.open_positions(blocks, indices, kept, comments, headline)
    if not positions:
        return []
    rows = bf.block_features(blocks, kept, roots, headline, language, indices, window, comments, positions)
    scores = bc.tree_scores(model, rows)
    kept_texts = {blocks[index].text for index in kept}
    return [indices[position] for position, score in zip(positions, scores, strict=True)
            if score > model.threshold and blocks[indices[position]].text not in kept_texts]


def tree_scores_two_lookups(model: bc.TreeModel, data: dict, rows: np.ndarray) -> np.ndarray:
    """block_classifier.tree_scores with two child lookups and a choice per step, the children's arrays built from
    the model's JSON (`data`) as TreeModel.from_dict built them for that walk."""
    if not len(rows):
        return np.zeros(0)
    trees, width = model.feature.shape
    left = np.tile(np.arange(width, dtype=np.intp), (trees, 1))
    right = left.copy()
    for t, tree in enumerate(data["trees"]):
        for node, column in enumerate(tree["feature"]):
            if column >= 0:
                left[t, node], right[t, node] = tree["left"][node], tree["right"][node]
    starts = np.arange(trees)[:, None] * width
    left, right = (left + starts).ravel(), (right + starts).ravel()
    flat = rows.ravel()
    offsets = np.repeat(np.arange(len(rows)) * rows.shape[1], trees)
    node = np.tile(np.arange(trees) * width, len(rows))
    feature, split = model.feature.ravel(), model.split.ravel()
    for _ in range(model.depth):
        node = np.where(flat[offsets + feature[node]] <= split[node], left[node], right[node])
    return model.value.ravel()[node].reshape(len(rows), trees).sum(axis=1) + model.base
