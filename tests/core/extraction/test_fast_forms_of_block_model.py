"""The fast forms of the learned block model's inputs and evaluation answer as their plain forms
(tests/core/reference/extraction_model.py), on random pages (fixed seed) with the rules' and random decisions: the
features computed only as far as the chosen rows need them, the furniture words of lower-cased text, the reading
gap, the additions without the copies' rows, the item window, and the tree walk over doubled node ids."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sys
from itertools import accumulate

import numpy as np

from newscorpus.core.extraction import block_classifier as bc
from newscorpus.core.extraction import block_features as bf
from newscorpus.core.extraction import region
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.headline import item_end
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.region import choose_region, comment_sections, item_window
from tests.core.reference import extraction_model as model_reference

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


# --- the features ----------------------------------------------------------------------------------------------

def test_features_match_the_whole_page_computation_on_random_pages():
    compared = 0
    columns = model_reference.WHOLE_FEATURES  # the item and gap features follow them
    for blocks, kept, roots, headline, indices, comments in _cases():
        window = item_window(blocks, headline) if headline is not None else None
        for language in ("en", "zh"):
            whole = bf.block_features(blocks, kept, roots, headline, language, indices, window, comments)
            assert np.array_equal(whole[:, :columns], model_reference.block_features_whole(
                blocks, kept, roots, headline, language, indices, window, comments))
        positions = bc.open_positions(blocks, indices, kept, comments, headline)
        some = bf.block_features(blocks, kept, roots, headline, "en", indices, window, comments, positions)
        assert some.shape == (len(positions), len(bf.FEATURES))
        assert np.array_equal(some[:, :columns], model_reference.block_features_whole(
            blocks, kept, roots, headline, "en", indices, window, comments, positions))
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


def test_gap_matches_the_span_list_form():
    rng = random.Random(9)
    for _ in range(3000):
        size = rng.randint(1, 30)
        kept_positions = sorted(rng.sample(range(size), rng.randint(0, size)))
        link_prefix = [0, *accumulate(rng.randint(0, 1) for _ in range(size))]
        for position in range(size):
            assert bf._gap(kept_positions, link_prefix, position) == \
                model_reference.gap_from_span_list(kept_positions, link_prefix, position)


# --- what the rules hand the model -----------------------------------------------------------------------------

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


# --- the model's additions and scores --------------------------------------------------------------------------

def test_additions_without_the_copies_rows_match_scoring_every_open_block():
    model = bc.load_model()
    assert model is not None
    compared = added = 0
    for blocks, kept, roots, headline, _indices, comments in _cases():
        window = item_window(blocks, headline) if headline is not None else None
        for threshold in (model.threshold, -3.0):  # a low threshold as well, so that many blocks are added
            scored = dataclasses.replace(model, threshold=threshold)
            expected = model_reference.additions_scoring_every_open_block(scored, blocks, kept, roots, headline, "en",
                                                                          window, comments)
            assert bc.additions(scored, blocks, kept, roots, headline, "en", window, comments) == expected
            compared += 1
            added += len(expected)
    assert compared > 300 and added > 100


def test_tree_scores_over_doubled_ids_match_the_two_lookups():
    model = bc.load_model()
    assert model is not None
    data = json.loads(bc.MODEL_PATH.read_text(encoding="utf-8"))
    rng = np.random.default_rng(118)
    for count in (0, 1, 2, 7, 40):
        rows = rng.normal(size=(count, len(model.features))) * rng.choice([0.1, 1.0, 10.0], size=len(model.features))
        rows[rng.random(rows.shape) < 0.3] = 0.0  # flags and zero counts sit on split values
        assert np.array_equal(bc.tree_scores(model, rows), model_reference.tree_scores_two_lookups(model, data, rows))
    # the split values themselves: "value <= split" at equality goes left in both
    rows = np.tile(model.split.ravel()[np.isfinite(model.split.ravel())][: len(model.features)], (3, 1))
    assert np.array_equal(bc.tree_scores(model, rows), model_reference.tree_scores_two_lookups(model, data, rows))
