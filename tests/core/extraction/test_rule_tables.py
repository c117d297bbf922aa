"""The extraction's rules written as tables answer one by one: each trim rule drops its own kind of block with its
reason, each name rule rejects its own kind of byline text, and each feature group gives one value per name."""

from __future__ import annotations

import pytest

from newscorpus.core.extraction import block_features, names, region, region_trim
from newscorpus.core.extraction.region_trim import TRIM_RULES, Trim, trim_reason

SENTENCE = "The council voted on Tuesday to expand the bus network, adding twelve routes by spring."


def _index(blocks, text: str) -> int:
    return next(index for index, block in enumerate(blocks) if block.text == text)


def test_each_trim_rule_drops_its_own_kind_of_block_with_its_reason(blocks_of):
    links = "<a href='/a'>One story</a> <a href='/b'>Another story</a> <a href='/c'>A third one</a>"
    blocks = blocks_of(f"<div class='story'><p>{SENTENCE}</p><div></div><div>{links}</div>"
                     f"<p class='x'>In the window.</p><div class='sidebar'><div>{SENTENCE} Aside.</div></div>"
                     f"<figure><figcaption>{SENTENCE} Caption.</figcaption></figure></div>")
    root = _index(blocks, SENTENCE) - 1
    window = [True] * len(blocks)
    window[_index(blocks, "In the window.")] = False
    comments = [False] * len(blocks)
    comments[_index(blocks, SENTENCE)] = True
    trim = Trim(window, comments, region.PAPER_MAX_RATIO, 0)
    reasons = {index: trim_reason(blocks, index, root, trim) for index in range(root, blocks[root].end)}
    assert reasons[_index(blocks, SENTENCE)] == "a comment section"
    assert reasons[_index(blocks, SENTENCE) + 1] == "no text"
    assert reasons[_index(blocks, "One story Another story A third one")] == "mostly links"
    assert reasons[_index(blocks, "In the window.")] == "outside the headline's item"
    assert reasons[_index(blocks, SENTENCE + " Aside.")] == "a negative class hint"
    assert reasons[_index(blocks, SENTENCE + " Caption.")] == "a caption"
    assert {reason for reason in reasons.values() if reason} == {
        "a comment section", "no text", "mostly links", "outside the headline's item", "a negative class hint",
        "a caption"}


def test_the_trim_keeps_what_no_rule_drops_and_a_rule_taken_out_drops_nothing(monkeypatch, blocks_of):
    blocks = blocks_of(f"<div><p>{SENTENCE}</p><figure><figcaption>{SENTENCE} Caption.</figcaption></figure></div>")
    trim = Trim(None, [False] * len(blocks), region.PAPER_MAX_RATIO, 0)
    root = _index(blocks, SENTENCE) - 1
    assert region_trim.trim_region(blocks, [root], trim)[0] == [SENTENCE]
    without_captions = tuple(rule for rule in TRIM_RULES if rule is not region_trim._caption)
    monkeypatch.setattr(region_trim, "TRIM_RULES", without_captions)
    assert trim_reason(blocks, _index(blocks, SENTENCE + " Caption."), root, trim) is None


@pytest.mark.parametrize(("text", "reason"), [
    ("Jane Roe", None),
    ("王建宏", None),
    ("", "empty"),
    ("x" * 61, "too long"),
    ("/author/jane-roe", "a URL or a path"),
    ("Jane Roe 2024", "a year or a number"),
    ("示例新闻网", "not a Chinese name"),
    ("Li 记者昨日在现场采访了多位市民。", "a headline or a sentence"),
    ("Share Comments", "site chrome"),
    ("one two three four five six seven", "a sentence"),
    ("page.head.author", "a template placeholder"),
    ("the quick brown fox", "prose"),
    ("NOC Admin", "an account"),
    ("WRAL", "an acronym"),
])
def test_each_name_rule_rejects_its_own_kind_of_text(text, reason):
    assert names.name_rejection(text) == reason


def test_every_feature_group_gives_one_value_per_name(blocks_of):
    blocks = blocks_of(f"<div class='story'><h1>Bus routes</h1><p>{SENTENCE}</p><ul><li><a href='/x'>More</a></li>"
                     f"<li>{SENTENCE} Again.</li></ul></div>")
    indices = [index for index, block in enumerate(blocks) if block.chars]
    kept = [_index(blocks, SENTENCE)]
    page = block_features._Page(blocks, kept, [kept[0] - 1], None, "en", indices, None, None,
                                list(range(len(indices))))
    assert block_features.FEATURES == tuple(name for group, _ in block_features.FEATURE_GROUPS for name in group)
    for position in range(len(indices)):
        row = page.row(position)
        for group_names, group in block_features.FEATURE_GROUPS:
            assert len(group(page, row)) == len(group_names), group.__name__
