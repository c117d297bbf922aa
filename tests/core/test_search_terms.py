"""Search terms and snippets (pure): Chinese segmented with jieba, other text in lower-cased words."""

from __future__ import annotations

import subprocess
import sys

from newscorpus.core.search_terms import search_terms, segmented, snippet


def test_chinese_is_segmented_into_words_and_their_sub_words():
    terms = search_terms("在杭州，城市公共交通取得了明显进展。")
    assert "杭州" in terms
    assert {"公共", "交通", "公共交通"} <= set(terms)
    assert "，" not in terms and "。" not in terms


def test_other_text_is_split_into_lower_cased_words_and_mixed_text_keeps_its_order():
    assert search_terms("The City Bus network, 12.5 percent") == ["the", "city", "bus", "network", "12", "5",
                                                                 "percent"]
    assert search_terms("Leeds 市的 bus") == ["leeds", "市", "的", "bus"]
    assert search_terms("") == [] and search_terms(None) == []


def test_segmented_text_is_space_separated_terms():
    assert segmented("杭州 Bus") == "杭州 bus"


def test_snippet_marks_chinese_words_around_the_first_match():
    body = "记者从有关部门了解到，" * 10 + "数据显示，前三季度与青年就业有关的投资同比增长。" + "专家表示，" * 20
    text = snippet(body, search_terms("投资"), width=40)
    assert "«投资»" in text
    assert text.startswith("…") and text.endswith("…")
    assert len(text.replace("«", "").replace("»", "")) <= 42


def test_snippet_matches_english_whole_words_case_insensitively():
    body = "A trail runner. " * 20 + "The new Rail link opened in Leeds. " + "More text. " * 20
    text = snippet(body, search_terms("rail leeds"), width=60)
    assert "«Rail»" in text and "«Leeds»" in text
    assert "t«rail»" not in text


def test_snippet_without_a_match_is_the_start_of_the_text():
    assert snippet("Short body.", ["absent"]) == "Short body."
    assert snippet("x" * 300, ["absent"], width=10) == "x" * 10 + "…"


def test_query_expression_matches_a_word_whole_or_by_its_segments():
    from newscorpus.core.search_terms import query_expression

    assert query_expression("与此 Bristol") == "('与此' | ('与' <-> '此')) & ('bristol')"
    assert query_expression("医疗保障") == "('医疗保障' | ('医疗' <-> '保障'))"
    assert query_expression("  ") == ""


QUERIES = (
    "杭州", "公共交通", "杭州 公共交通", "城市公共交通取得了明显进展", "与此", "与此同时",
    "中华人民共和国国务院", "南宁教育局推进老旧停车保障机制", "rail Leeds 杭州地铁",
    "厦门创业团队推进数字出行服务体系（第16期）", "记者今天获悉，跨江大桥于上午正式通车。", "冇嘢", "㐀㐁 龘",
)


def test_a_query_is_cut_with_its_own_characters_entries_as_with_the_whole_dictionary():
    from newscorpus.core.query_dictionary import entries_for, query_tokenizer

    for text in QUERIES:
        assert search_terms(text, query=True) == search_terms(text), text
        assert query_tokenizer(text) is not __import__("jieba").dt  # the per-character dictionary was used
    entries, total = entries_for("杭州")
    assert entries["杭州"] > 0 and all(word[0] in "杭州" for word in entries) and total > 10**7


def test_a_query_loads_a_small_part_of_the_dictionary():
    code = ("import jieba, newscorpus.core.search_terms as m; print(m.search_terms('杭州 公共交通', query=True));"
            "print(len(jieba.dt.FREQ))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    terms, whole_dictionary_entries = result.stdout.strip().splitlines()
    assert terms == "['杭州', '公共', '交通', '公共交通']" and whole_dictionary_entries == "0"
