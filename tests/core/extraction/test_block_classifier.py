"""The learned block model: its features, its tree evaluation, the shipped file, and how the
default method uses it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from newscorpus.core.extraction import block_classifier as bc
from newscorpus.core.extraction import block_features as bf
from newscorpus.core.extraction import block_training
from newscorpus.core.extraction.region import choose_region, page_language

PARAGRAPHS = [
    f"Paragraph {n} of the harbour story says the ferry was late again, and the council asked the operator why "
    "it had cut two crossings without notice."
    for n in range(1, 5)
]
EXTRA = "A later section of the same report explains, at some length, how the timetable was changed last winter."


def _page() -> str:
    body = "".join(f"<p class='para'>{p}</p>" for p in PARAGRAPHS)
    return (
        "<html><head><title>Ferry late again</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
        f"<article><h1>Ferry late again</h1><div class='story'>{body}</div></article>"
        f"<div class='box'><p>Subscribe to our newsletter for the harbour news, every morning.</p></div>"
        f"<div class='copy'><p class='para'>{PARAGRAPHS[0]}</p></div>"
        f"<div class='later'><p>{EXTRA}</p></div>"
        "</body></html>"
    )


def _model(trees: list[dict], threshold: float = 0.0, depth: int = 1, base: float = 0.0) -> bc.TreeModel:
    return bc.TreeModel.from_dict(
        {"features": list(bf.FEATURES), "trees": trees, "depth": depth, "threshold": threshold, "base": base}
    )


def _leaf(value: float) -> dict:
    return {"feature": [-1], "split": [0.0], "left": [0], "right": [0], "value": [value]}


def _stump(column: int, split: float, low: float, high: float) -> dict:
    return {"feature": [column, -1, -1], "split": [split, 0, 0], "left": [1, 1, 2], "right": [2, 1, 2],
            "value": [0.0, low, high]}


def test_tree_scores_of_a_hand_built_model():
    rule_kept = bf.FEATURES.index("rule_kept")
    log_chars = bf.FEATURES.index("log_chars")
    # tree 1: a stump on rule_kept; tree 2: rule_kept, then log_chars under its right branch (depth 2); tree 3 a leaf
    deep = {"feature": [rule_kept, -1, log_chars, -1, -1], "split": [0.5, 0, 3.0, 0, 0],
            "left": [1, 1, 3, 3, 4], "right": [2, 1, 4, 3, 4], "value": [0, 0.5, 0, -1.0, 2.0]}
    model = _model([_stump(rule_kept, 0.5, 1.0, -2.0), deep, _leaf(0.25)], depth=2, base=0.125)
    rows = np.zeros((3, len(bf.FEATURES)))
    rows[1, rule_kept], rows[1, log_chars] = 1.0, 2.0
    rows[2, rule_kept], rows[2, log_chars] = 1.0, 5.0
    expected = [1.0 + 0.5 + 0.25 + 0.125, -2.0 - 1.0 + 0.25 + 0.125, -2.0 + 2.0 + 0.25 + 0.125]
    assert bc.tree_scores(model, rows) == pytest.approx(expected)
    assert bc.tree_scores(model, np.zeros((0, len(bf.FEATURES)))).shape == (0,)


def test_flatten_reads_a_lightgbm_dump_as_node_arrays():
    dump = {"split_feature": 3, "threshold": 0.5, "decision_type": "<=", "left_child": {"leaf_value": -1.5},
            "right_child": {"split_feature": 7, "threshold": 2.0, "decision_type": "<=",
                            "left_child": {"leaf_value": 0.5}, "right_child": {"leaf_value": 3.0}}}
    tree, depth = block_training._flatten(dump)
    assert depth == 2
    model = _model([tree], depth=depth)
    rows = np.zeros((3, len(bf.FEATURES)))
    rows[1, 3], rows[1, 7] = 1.0, 1.0
    rows[2, 3], rows[2, 7] = 1.0, 9.0
    assert bc.tree_scores(model, rows) == pytest.approx([-1.5, 0.5, 3.0])


def test_shipped_model_loads_with_the_code_feature_list_and_its_source():
    data = json.loads(bc.MODEL_PATH.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == bf.FEATURES
    assert bc.load_model() is not None
    source = data["source"]
    assert source["seed"] == 20240601 and source["date"] and source["command"].startswith("newscorpus train")
    assert len(source["data"]) == 6 and source["pages"] > 1000


def test_a_model_made_for_other_features_is_not_used(tmp_path):
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"features": ["rule_kept"], "trees": [_leaf(1.0)], "depth": 1, "threshold": 0}))
    assert bc.load_model(path) is None
    path.write_text("{not json")
    assert bc.load_model(path) is None


def test_features_of_a_small_page(blocks_of):
    blocks = blocks_of(_page())
    choice = choose_region(blocks, titles=("Ferry late again",), learned=False)
    indices = bc.candidates(blocks)
    rows = bf.block_features(blocks, choice.kept, choice.roots, choice.headline, "en", indices)
    column = {name: i for i, name in enumerate(bf.FEATURES)}
    by_text: dict[str, np.ndarray] = {}
    for row, index in enumerate(indices):
        by_text.setdefault(blocks[index].text, rows[row])  # the first block of each text
    first = by_text[PARAGRAPHS[0]]
    box = next(row for text, row in by_text.items() if text.startswith("Subscribe"))
    nav = next(row for text, row in by_text.items() if text.startswith("Home"))
    assert first[column["rule_kept"]] == 1 and first[column["in_region"]] == 1 and first[column["tag_p"]] == 1
    assert first[column["repeat"]] == 0 and first[column["prose"]] == 1 and first[column["region_make"]] == 1
    assert box[column["rule_kept"]] == 0 and box[column["furniture"]] == 1 and box[column["region_side"]] == 1
    assert nav[column["link_density"]] == 1 and nav[column["in_chrome"]] == 1 and nav[column["region_side"]] == -1
    copy_row = rows[[r for r, i in enumerate(indices) if blocks[i].text == PARAGRAPHS[0]][1]]
    assert copy_row[column["repeat"]] == 1
    # one row per chosen position, equal to the full matrix's rows
    positions = [0, len(indices) - 1]
    some = bf.block_features(blocks, choice.kept, choice.roots, choice.headline, "en", indices, positions=positions)
    assert np.array_equal(some, rows[positions])


def test_open_positions_leave_out_kept_linked_and_landmark_blocks(blocks_of):
    blocks = blocks_of(_page())
    choice = choose_region(blocks, titles=("Ferry late again",), learned=False)
    indices = bc.candidates(blocks)
    positions = bc.open_positions(blocks, indices, choice.kept, None)
    texts = [blocks[indices[p]].text for p in positions]
    assert EXTRA in texts and not any(t.startswith("Home") for t in texts)
    assert not {indices[p] for p in positions} & set(choice.kept)


def test_the_model_adds_blocks_but_never_a_copy_of_the_body(blocks_of):
    blocks = blocks_of(_page())
    rules = choose_region(blocks, titles=("Ferry late again",), learned=False)
    assert EXTRA not in rules.lines
    always = _model([_leaf(1.0)], threshold=0.5)
    added = choose_region(blocks, titles=("Ferry late again",), learned=always)
    assert EXTRA in added.lines and added.lines.count(PARAGRAPHS[0]) == 1
    assert set(rules.lines) < set(added.lines)
    never = _model([_leaf(0.0)], threshold=0.5)
    assert choose_region(blocks, titles=("Ferry late again",), learned=never).lines == rules.lines


def test_zh_pages_keep_the_rules_body(blocks_of):
    paragraphs = "".join(
        f"<p>第{n}段：市政府今天召开新闻发布会，介绍了今年城市交通改善计划的进展情况，新的公交线路将在下个月开通。</p>"
        for n in range(4)
    )
    extra = ("<div class='related'><p>另外，记者从交通部门了解到，地铁新线的建设工作也在按计划推进之中，"
             "预计明年完工。</p></div>")
    blocks = blocks_of(f"<html><body><article>{paragraphs}</article>{extra}</body></html>")
    always = _model([_leaf(1.0)], threshold=0.5)
    rules = choose_region(blocks, learned=False).lines
    assert len(rules) == 4 and choose_region(blocks, learned=always).lines == rules


def test_training_rows_label_one_copy_of_a_text():
    gold = "\n".join(PARAGRAPHS)
    rows = block_training.page_rows(_page().encode(), gold)
    assert rows is not None and len(rows.labels) == len(rows.features) == len(rows.weights)
    # the second copy of the first paragraph is an open block, but not body (the kept copy is)
    assert rows.labels.sum() == 0
    with_extra = block_training.page_rows(_page().encode(), gold + "\n" + EXTRA)
    assert with_extra.labels.sum() == 1


def _events_page() -> str:
    """An event page: the article is one entry of a list of events, each a linked title and a description."""
    entries = "".join(
        f"<div class='event'><div class='event-title'><a href='/e/{n}'>Storytime number {n} at the library</a></div>"
        f"<p class='event-text'>Bring the whole family to storytime {n}, with songs, rhymes and a craft; no booking is "
        f"needed, and the room opens ten minutes early.</p></div>"
        for n in range(4)
    )
    return (f"<html><body><div class='events'>{entries}</div>"
            f"<div class='notes'><p>{PARAGRAPHS[0]}</p><p>{PARAGRAPHS[1]}</p></div></body></html>")


def test_item_features_tell_another_entry_of_the_list_from_the_articles_own(blocks_of):
    blocks = blocks_of(_events_page())
    indices = bc.candidates(blocks)
    texts = [blocks[i].element.get("class") or "" for i in indices]
    descriptions = [i for i, names in zip(indices, texts, strict=True) if names == "event-text"]
    assert len(descriptions) == 4
    own = descriptions[1]
    entry = blocks[own].parent
    rows = bf.block_features(blocks, [own], [entry], None, "en", indices)
    column = {name: i for i, name in enumerate(bf.FEATURES)}
    row_of = {index: rows[position] for position, index in enumerate(indices)}
    other = row_of[descriptions[2]]
    assert other[column["item_repeat"]] == pytest.approx(np.log1p(4))
    assert other[column["item_beside_region"]] == 1 and other[column["item_holds_region"]] == 0
    assert other[column["item_link_led"]] == 1 and other[column["item_linked"]] == 1
    mine = row_of[own]
    assert mine[column["item_holds_region"]] == 1 and mine[column["item_beside_region"]] == 0
    # a paragraph of a two-paragraph section is in no list: no item
    note = next(i for i in indices if blocks[i].text == PARAGRAPHS[0])
    assert row_of[note][column["item_repeat"]] == 0 and row_of[note][column["item_linked"]] == 0


def test_gap_features_count_the_blocks_and_link_blocks_to_the_nearest_kept_one(blocks_of):
    blocks = blocks_of(_events_page())
    indices = bc.candidates(blocks)
    descriptions = [i for i in indices if blocks[i].element.get("class") == "event-text"]
    rows = bf.block_features(blocks, [descriptions[0]], [blocks[descriptions[0]].parent], None, "en", indices)
    column = {name: i for i, name in enumerate(bf.FEATURES)}
    row_of = {index: rows[position] for position, index in enumerate(indices)}
    assert row_of[descriptions[0]][column["gap_blocks"]] == 0
    # between the kept description and the next one: the next entry's linked title
    assert row_of[descriptions[1]][column["gap_blocks"]] == pytest.approx(np.log1p(1))
    assert row_of[descriptions[1]][column["gap_links"]] == pytest.approx(np.log1p(1))
    assert row_of[descriptions[3]][column["gap_links"]] == pytest.approx(np.log1p(3))
    nothing_kept = bf.block_features(blocks, [], [], None, "en", indices)
    assert (nothing_kept[:, column["gap_blocks"]] == -1).all()


def test_a_chinese_article_amid_english_chrome_keeps_the_rules_body(blocks_of):
    """The page reads as English (its menus and footer), the rules' body as Chinese: the model is not used."""
    chrome = "".join(f"<div class='menu'><p>Section {n}: programming notes, tools and reviews for readers</p></div>"
                     for n in range(12))
    paragraphs = "".join(
        f"<p>第{n}段：这篇文章讨论了程序员在日常工作中如何编写清晰的代码，以及为什么简单的设计往往比复杂的设计更容易维护。</p>"
        for n in range(4)
    )
    extra = "<div class='sidebar'><p>A later note, in English, about the blog's comment policy.</p></div>"
    blocks = blocks_of(f"<html><body>{chrome}<article>{paragraphs}</article>{extra}</body></html>")
    assert page_language(blocks) != "zh"
    rules = choose_region(blocks, learned=False).lines
    assert len(rules) == 4 and all(line.startswith("第") for line in rules)
    always = _model([_leaf(1.0)], threshold=0.5)
    assert choose_region(blocks, learned=always).lines == rules
    assert bc.rules_body_only(rules) and not bc.rules_body_only([EXTRA])


def test_training_weights_count_every_page_and_every_site_alike():
    short = block_training.page_rows(_page().encode(), EXTRA)
    long = block_training.page_rows(_page().encode(), "\n".join(PARAGRAPHS) + "\n" + EXTRA)
    extra = next(r for r, label in enumerate(long.labels) if label)
    # the same block weighs more on the page whose body is shorter (its weight is a share of the page's body)
    assert short.weights[extra] > long.weights[extra]
    weights = block_training.row_weights([short, long, long], ["a.com", "b.com", "b.com"])
    n = len(short.weights)
    assert np.array_equal(weights[:n], short.weights)
    assert np.array_equal(weights[n:2 * n], long.weights / 2) and np.array_equal(weights[2 * n:], long.weights / 2)
    assert np.array_equal(block_training.row_weights([short, long]), np.concatenate([short.weights, long.weights]))


def test_training_rows_are_the_open_blocks_of_the_region_extraction_chooses():
    # A hidden section inside the story is left out of the body by extraction (hidden_to_drop), so the model is
    # trained on it as an open block, as it meets it when extracting.
    from newscorpus.core.extraction import page_region, prepare_page
    from newscorpus.core.extraction.region import comment_sections

    hidden = "The second page of the story, hidden until a reader asks for it, tells how the crossings were cut."
    html = _page().replace("</div></article>", f"<div style='display:none'><p>{hidden}</p></div></div></article>")
    page = prepare_page(html.encode())
    choice = page_region(page, learned=False)
    positions = bc.open_positions(page.blocks, bc.candidates(page.blocks), choice.kept, comment_sections(page.blocks),
                                  choice.headline)
    assert hidden not in choice.lines
    rows = block_training.page_rows(html.encode(), "\n".join(PARAGRAPHS))
    assert len(rows.labels) == len(positions)
