"""Issue 16, round 6: block_features computes only what the chosen rows need (earlier copies among blocks of the
same length, makes among kept blocks of a row's tag, caption ancestors remembered, the furniture words of ASCII text
lower-cased) and answers as the code it replaced, kept here, on random pages (fixed seed) with random decisions."""

from __future__ import annotations

import dataclasses
import math
import random
import re
import sys
from collections import Counter
from itertools import accumulate

import numpy as np

from newscorpus.core.extraction import block_classifier as bc
from newscorpus.core.extraction import block_features as bf
from newscorpus.core.extraction import region
from newscorpus.core.extraction.block_tree import HEADING_TAGS, Block, build_blocks
from newscorpus.core.extraction.class_hints import names_flags
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.headline import item_end
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.region import choose_region, comment_sections, item_window

WORDS = ["Subscribe now", "Related stories", "the ferry was late", "Ünïcode “quoted” text", "评论", "版权所有",
         "READ MORE", "log in", "Logİn here", "ſubscribe", "cooKie", "comments", "commentsX", "©", "plain words",
         "A sentence, with punctuation.", "x" * 210 + " related"]
TAGS = ["div", "p", "li", "td", "span", "pre", "blockquote", "figure", "figcaption", "section", "h1", "h2", "nav"]
CLASSES = ["", "para", "para lead", " ", "box", "story-body", "related", "comment-list", "caption"]


def _random_html(rng: random.Random, depth: int = 0) -> str:
    pieces = []
    for _ in range(rng.randint(1, 4)):
        tag = rng.choice(TAGS)
        names = f" class='{rng.choice(CLASSES)}'" if rng.random() < 0.6 else ""
        names += f" id='{rng.choice(CLASSES)}'" if rng.random() < 0.2 else ""
        inner = _random_html(rng, depth + 1) if depth < 5 and rng.random() < 0.5 else \
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        if rng.random() < 0.3:
            inner += "<br>" + rng.choice(WORDS) + f" <a href='/x'>{rng.choice(WORDS)}</a>"
        pieces.append(f"<{tag}{names}>{inner}</{tag}>")
    return "".join(pieces)


def _cases(count: int = 200):
    rng = random.Random(6)
    for _ in range(count):
        root = parse_html(f"<html><head><title>T</title></head><body>{_random_html(rng)}</body></html>")
        clean_tree(root)
        blocks = build_blocks(root)
        indices = bc.candidates(blocks)
        if not indices:
            continue
        comments = comment_sections(blocks)
        choice = choose_region(blocks, titles=("the ferry was late",), learned=False)
        yield blocks, choice.kept, choice.roots, choice.headline, indices, comments
        kept = sorted(rng.sample(indices, rng.randint(0, len(indices))))  # a random decision as well
        roots = sorted(rng.sample(range(len(blocks)), min(len(blocks), rng.randint(0, 2))))
        headline = rng.choice([None, *indices])
        yield blocks, kept, roots, headline, indices, comments if rng.random() < 0.5 else None


# Round 5's features (the columns the replaced code computes); round 6's item and gap features follow them.
ROUND5 = bf.FEATURES.index("item_repeat")


def test_features_match_the_code_they_replaced_on_random_pages():
    compared = 0
    for blocks, kept, roots, headline, indices, comments in _cases():
        window = item_window(blocks, headline) if headline is not None else None
        for language in ("en", "zh"):
            whole = bf.block_features(blocks, kept, roots, headline, language, indices, window, comments)
            assert np.array_equal(whole[:, :ROUND5], _old_block_features(blocks, kept, roots, headline, language,
                                                                          indices, window, comments))
        positions = bc.open_positions(blocks, indices, kept, comments, headline)
        some = bf.block_features(blocks, kept, roots, headline, "en", indices, window, comments, positions)
        assert some.shape == (len(positions), len(bf.FEATURES))
        assert np.array_equal(some[:, :ROUND5], _old_block_features(blocks, kept, roots, headline, "en", indices,
                                                                     window, comments, positions))
        whole = bf.block_features(blocks, kept, roots, headline, "en", indices, window, comments)
        assert np.array_equal(some, whole[positions])  # every column, the new ones too, is the full matrix's
        compared += len(indices)
    assert compared > 2000


def test_furniture_words_of_ascii_text_match_the_case_insensitive_search():
    rng = random.Random(9)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ?-.,"
    texts = [*WORDS, *("".join(rng.choice(letters) for _ in range(rng.randint(0, 300))) for _ in range(2000))]
    texts += [rng.choice(WORDS).upper() + " " + text for text in texts[:500]]
    for text in texts:
        assert bf._furniture(text) == (bf._FURNITURE.search(text, 0, bf.FURNITURE_PREFIX) is not None), text
    # why text holding one of _UNFOLDED keeps the case-insensitive search: it matches "İ" to "i" where "İ".lower()
    # is two characters
    assert bf._furniture("Logİn") and "logİn".lower() != "login" and bf._furniture("ſubscribe")
    mixed = [f"{word} “{text}” — é" for word, text in zip(WORDS * 30, texts, strict=False)]
    for text in mixed + ["Ünïcode comments", "ǅ related", "Σ cooKie"]:
        assert bf._furniture(text) == (bf._FURNITURE.search(text, 0, bf.FURNITURE_PREFIX) is not None), text


def test_lower_casing_is_exact_for_every_character_but_the_unfolded_ones():
    ascii_letter = re.compile(r"[a-z]", re.IGNORECASE)
    word = re.compile(r"\w")
    pattern_chars = {char for char in bf._FURNITURE.pattern if not char.isascii()}
    unfolded = []
    for code in range(128, sys.maxunicode + 1):
        char = chr(code)
        if ascii_letter.match(char):
            unfolded.append(char)
            continue
        lower = char.lower()
        assert len(lower) == 1 and not lower.isascii(), hex(code)
        assert (lower in pattern_chars) == (char in pattern_chars), hex(code)
        assert bool(word.match(lower)) == bool(word.match(char)), hex(code)
    assert tuple(unfolded) == bf._UNFOLDED


def test_item_window_matches_the_per_index_test():
    for blocks, _, _, _, indices, _ in _cases(60):
        for headline in indices:
            low, high = blocks[headline].end, item_end(blocks, headline)
            inside = [low <= i < high for i in range(len(blocks))]
            ancestor = blocks[headline].parent
            while ancestor >= 0:
                inside[ancestor] = True
                ancestor = blocks[ancestor].parent
            assert item_window(blocks, headline) == inside


def test_rules_region_shares_its_window_and_comment_sections():
    for blocks, _, _, _, _, _ in _cases(60):
        comments = comment_sections(blocks)
        choice, window = region._rules_region(blocks, region.PAPER_MAX_RATIO, ("the ferry was late",),
                                               region.tuned_constants("en"), comments)
        assert window == (item_window(blocks, choice.headline) if choice.headline is not None else None)
        alone = region._region(blocks, region.PAPER_MAX_RATIO, window, region.tuned_constants("en"))
        assert (alone.roots, alone.lines, alone.kept) == (choice.roots, choice.lines, choice.kept)


# The code before round 6 (newscorpus/core/extraction/block_classifier.py at 10a5a66).

def _old_block_features(blocks: list[Block], kept: list[int], roots: list[int], headline: int | None,
                   language: str | None, indices: list[int], window: list[bool] | None = None,
                   comments: list[bool] | None = None, positions: list[int] | None = None) -> np.ndarray:
    """One row of FEATURES per block in `indices` (the blocks with text; with `positions`, only for the blocks at
    those positions in `indices`), from the rules' decision (`kept`: the blocks whose lines the rules keep,
    `roots`: their region, `headline`: the stated headline's block, `window`: its item window, `comments`: the
    comment sections, as region.py computes them)."""
    from newscorpus.core.extraction.punctuation import prose_value

    n = len(blocks)
    positions = list(range(len(indices))) if positions is None else positions
    kept_set = set(kept)
    low = roots[0] if roots else n
    high = blocks[roots[-1]].end if roots else n
    makes = {(blocks[index].tag, blocks[index].element.get("class")) for index in kept}
    makes = {(tag, names.split(None, 1)[0] if names and names.strip() else "") for tag, names in makes}
    chars = [block.chars for block in blocks]
    # Subtree text by prefix sums (a block's subtree is blocks[index:end]), all of it and the kept part.
    prefix = [0, *accumulate(chars)]
    kept_chars = [0] * n
    for index in kept:
        kept_chars[index] = chars[index]
    kept_prefix = [0, *accumulate(kept_chars)]
    body_chars = kept_prefix[-1]
    page_chars = prefix[-1] or 1
    children = Counter(blocks[index].parent for index in indices)  # text blocks per parent, and kept ones
    children_kept = Counter(blocks[index].parent for index in kept)
    first = {blocks[index].text: index for index in reversed(indices)}  # each text's first block
    holders: dict[int, int] = {}  # ancestors-or-self of the roots -> height above the region's root
    for root in roots:
        height, node = 0, root
        while node >= 0 and node not in holders:
            holders[node] = height
            height += 1
            node = blocks[node].parent
    zh = 1.0 if language == "zh" else 0.0
    body_share = body_chars / page_chars
    last = len(indices) - 1
    rows = np.empty((len(positions), ROUND5))
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
            _old_make(block) in makes,
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
            bf._subtree_share(blocks, prefix, kept_prefix, parent),
            bf._subtree_share(blocks, prefix, kept_prefix, grandparent),
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


def _old_make(block: Block) -> tuple[str, str]:
    classes = (block.element.get("class") or "").split()
    return block.tag, classes[0] if classes else ""




def _old_gap(kept_positions: list[int], link_prefix: list[int], position: int) -> tuple[float, float]:
    """block_classifier._gap as round 6 wrote it (a list of spans, min by length)."""
    from bisect import bisect_left

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


def test_gap_matches_the_span_list_form():
    rng = random.Random(9)
    for _ in range(3000):
        size = rng.randint(1, 30)
        kept_positions = sorted(rng.sample(range(size), rng.randint(0, size)))
        link_prefix = [0, *accumulate(rng.randint(0, 1) for _ in range(size))]
        for position in range(size):
            assert bf._gap(kept_positions, link_prefix, position) == _old_gap(kept_positions, link_prefix, position)


def _old_additions(model, blocks, kept, roots, headline, language, window, comments) -> list[int]:
    """block_classifier.additions as round 6 wrote it: every open block scored, copies of kept text dropped after."""
    indices = bc.candidates(blocks)
    positions = bc.open_positions(blocks, indices, kept, comments, headline)
    if not positions:
        return []
    rows = bf.block_features(blocks, kept, roots, headline, language, indices, window, comments, positions)
    scores = bc.tree_scores(model, rows)
    kept_texts = {blocks[index].text for index in kept}
    return [indices[position] for position, score in zip(positions, scores, strict=True)
            if score > model.threshold and blocks[indices[position]].text not in kept_texts]


def test_additions_without_the_copies_rows_match_scoring_every_open_block():
    model = bc.load_model()
    assert model is not None
    compared = added = 0
    for blocks, kept, roots, headline, _indices, comments in _cases():
        window = item_window(blocks, headline) if headline is not None else None
        for threshold in (model.threshold, -3.0):  # a low threshold as well, so that many blocks are added
            scored = dataclasses.replace(model, threshold=threshold)
            expected = _old_additions(scored, blocks, kept, roots, headline, "en", window, comments)
            assert bc.additions(scored, blocks, kept, roots, headline, "en", window, comments) == expected
            compared += 1
            added += len(expected)
    assert compared > 300 and added > 100
