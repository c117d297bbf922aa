"""jieba with the trie dictionary (newscorpus.core.jieba_trie) cuts as jieba with its own dictionary: the same words,
positions, DAG and route on generated Chinese texts mixed with ASCII, digits, punctuation, whitespace and
characters outside jieba's dictionary; the same `FREQ` answers, zero-frequency keys included."""

from __future__ import annotations

import random

import pytest

from newscorpus.core import jieba_trie
from newscorpus.core.jieba_import import import_jieba

jieba = import_jieba()

OTHER = ("abcXYZ", "0123456789", "０１２３", "，。！？、；：“”（）《》—…·", "-+#&._%/@", " \t\r\n　",
         "㐀㐁𠀀𪚥", "é😀ｱ가", "\ud800\udcff")  # ASCII, digits, punctuation, whitespace, CJK outside jieba's range,
# other scripts, lone surrogates (what decoding with errors="surrogateescape" leaves)


@pytest.fixture(scope="module")
def tokenizers(tmp_path_factory):
    own = jieba.Tokenizer()
    own.initialize()
    folder = tmp_path_factory.mktemp("trie") / "dictionary.trie"
    jieba_trie.write(folder, *jieba.Tokenizer.gen_pfdict(own.get_dict_file()))
    ours = jieba.Tokenizer()
    jieba_trie.install(ours, folder)
    return own, ours


def _texts(own, count: int, seed: int = 18) -> list[str]:
    """Texts of dictionary words (frequent and rare, whole or cut short), single CJK characters, and runs of
    other characters, in random order and proportions."""
    rng = random.Random(seed)
    words = sorted(word for word, frequency in own.FREQ.items() if frequency)
    prefixes = sorted(word for word, frequency in own.FREQ.items() if not frequency)
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 40)):
            kind = rng.random()
            if kind < 0.55:
                parts.append(rng.choice(words))
            elif kind < 0.65:
                parts.append(rng.choice(prefixes))
            elif kind < 0.8:
                parts.append(chr(rng.randint(0x4E00, 0x9FFF)))  # beyond 0x9FD5 jieba's pattern leaves it alone
            else:
                parts.append("".join(rng.choices(rng.choice(OTHER), k=rng.randint(1, 6))))
        texts.append("".join(parts))
    return texts


def test_the_trie_cuts_generated_texts_as_jieba(tokenizers):
    own, ours = tokenizers
    for text in _texts(own, 2000):
        assert list(ours.cut(text)) == list(own.cut(text)), text  # HMM: keywords.segment
        assert list(ours.tokenize(text, HMM=False)) == list(own.tokenize(text, HMM=False)), text  # body windows
        assert list(ours.cut_for_search(text)) == list(own.cut_for_search(text)), text  # search_terms
        assert list(ours.cut(text, cut_all=True)) == list(own.cut(text, cut_all=True)), text
        dag = ours.get_DAG(text)
        assert dag == own.get_DAG(text) and ours.get_DAG(text + "\ud800") == own.get_DAG(text + "\ud800"), text
        route, own_route = {}, {}
        ours.calc(text, dag, route)
        own.calc(text, own.get_DAG(text), own_route)
        assert route == own_route, text  # the same floats, not only the same best path
        route = {}
        ours.calc(text, dict(dag), route)  # a plain DAG: looked up in the trie as jieba would
        assert route == own_route, text


def test_the_one_pass_cut_without_hmm_gives_jiebas_tokenize(tokenizers):
    """jieba_trie.tokenize_no_hmm (the body windows' words, keywords._window_words_zh) against jieba's own
    tokenize(HMM=False) with jieba's own dictionary, and against the trie tokenizer's."""
    own, ours = tokenizers
    patterns = (jieba.re_han_default, jieba.re_skip_default, jieba.re_eng)
    texts = _texts(own, 2000, seed=19)
    texts += ["", " ", "南宁市长", "abc 南宁\ud800市", "ＡＢＣ１２３南宁", "\ud800", "a1b2南"]
    for text in texts:
        expected = [(start, word) for word, start, _ in own.tokenize(text, HMM=False)]
        assert jieba_trie.tokenize_no_hmm(ours, text, *patterns) == expected, text
        assert expected == [(start, word) for word, start, _ in ours.tokenize(text, HMM=False)], text


def test_the_one_pass_cut_with_hmm_gives_jiebas_cut(tokenizers):
    """jieba_trie.cut_hmm (the titles' words, keywords.segment) against jieba's own cut (HMM on) with jieba's own
    dictionary, and against the trie tokenizer's."""
    own, ours = tokenizers
    patterns = (jieba.re_han_default, jieba.re_skip_default, jieba.finalseg.cut)
    texts = _texts(own, 2000, seed=21)
    texts += ["", " ", "南宁市长", "abc 南宁\ud800市", "ＡＢＣ１２３南宁", "\ud800", "a1b2南", "鄙人姓杜的杜镇长来了",
              "他来到了网易杭研大厦", "小明硕士毕业于中国科学院计算所"]  # runs of single characters the HMM cuts
    for text in texts:
        expected = list(own.cut(text))
        assert jieba_trie.cut_hmm(ours, text, *patterns) == expected, text
        assert expected == list(ours.cut(text)), text


def test_remembered_block_words_give_jiebas_tokenize(tokenizers, monkeypatch):
    """tokenize_no_hmm's memos (each block's words, BLOCK_MEMO_SIZE; each character pair's start, START_MEMO_SIZE):
    texts cut again, from the memos, and with memos emptied as they fill, give jieba's tokenize(HMM=False)."""
    own, ours = tokenizers
    patterns = (jieba.re_han_default, jieba.re_skip_default, jieba.re_eng)
    texts = _texts(own, 300, seed=20)
    expected = [[(start, word) for word, start, _ in own.tokenize(text, HMM=False)] for text in texts]
    ours.__dict__.pop("trie_block_words", None)  # made again, empty, at the first cut
    for _ in range(2):  # the second time from the memo
        assert [jieba_trie.tokenize_no_hmm(ours, text, *patterns) for text in texts] == expected
    assert ours.trie_block_words[jieba.re_eng]
    monkeypatch.setattr(jieba_trie, "BLOCK_MEMO_SIZE", 7)
    monkeypatch.setattr(jieba_trie, "START_MEMO_SIZE", 5)  # the route's memo of character pairs (_route_ends)
    ours.trie_block_words.clear()
    ours.trie_start_memo.pairs.clear()
    for _ in range(2):
        assert [jieba_trie.tokenize_no_hmm(ours, text, *patterns) for text in texts] == expected
        assert len(ours.trie_block_words[jieba.re_eng]) <= 7 and len(ours.trie_start_memo.pairs) <= 5


def test_the_trie_gives_jiebas_whole_prefix_dictionary(tokenizers):
    own, ours = tokenizers
    assert ours.total == own.total
    assert len(ours.FREQ) == len(own.FREQ)
    assert dict(ours.FREQ.items()) == own.FREQ
    for key in ("南宁", "南宁市", "停车位", "两千", "中华人民共", "", "zz", "㐀", 7, "\ud800", "南\udcff"):
        assert (key in ours.FREQ) == (key in own.FREQ), key
        assert ours.FREQ.get(key) == own.FREQ.get(key) and ours.FREQ.get(key, 1) == own.FREQ.get(key, 1), key


def test_zero_frequency_keys_answer_as_in_jiebas_dict(tmp_path):
    # jieba's own dictionary has no word of frequency 0; a dictionary that has one keeps it, and its prefixes
    frequencies = {"甲": 3, "甲乙": 0, "甲乙丙": 5, "丁": 0, "丁戊": 0, "己": 2, "己庚": 0}
    jieba_trie.write(tmp_path / "t", frequencies, 10)
    ours = jieba.Tokenizer()
    jieba_trie.install(ours, tmp_path / "t")
    assert dict(ours.FREQ.items()) == frequencies and len(ours.FREQ) == len(frequencies)
    for key in [*frequencies, "乙", "丁己", "甲乙丙丁", ""]:
        assert (key in ours.FREQ) == (key in frequencies), key
        assert ours.FREQ.get(key, -1) == frequencies.get(key, -1), key
    with pytest.raises(KeyError):
        ours.FREQ["乙"]
    assert ours.get_DAG("丁戊甲乙丙己庚") == {0: [0], 1: [1], 2: [2, 4], 3: [3], 4: [4], 5: [5], 6: [6]}


def test_a_damaged_values_file_is_refused(tmp_path, tokenizers):
    own, _ = tokenizers
    folder = tmp_path / "t"
    jieba_trie.write(folder, {"甲": 1, "甲乙": 2}, 3)
    values = folder / jieba_trie.VALUES_FILE
    values.write_bytes(values.read_bytes()[:-1])
    with pytest.raises(ValueError):
        jieba_trie.install(jieba.Tokenizer(), folder)
