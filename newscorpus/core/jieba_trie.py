"""jieba's prefix dictionary as a memory-mapped marisa trie: the same words and frequencies for ~5 MB of mapped
files, in place of a ~500k-entry dict loaded from a pickle in every process, which costs tens of MB of RSS and a
fifth of a second of CPU (benchmarks/near_duplicate_startup.py).

The trie holds the dictionary's words: jieba's `FREQ` keys of frequency > 0. Every other key of jieba's `FREQ` (at
frequency 0) is a prefix of one of them, or is kept in a short list of "zero keys" (none in jieba 0.42.1's
dictionary). Each word's frequency and calc weight (log(frequency) - log(total)) are arrays indexed by the trie's
key ids. Both files are made from jieba's own prefix dictionary (`Tokenizer.gen_pfdict`), so the tokenizer below
answers every question jieba asks of `FREQ` as jieba would: `get_DAG` and `calc` are jieba's, with dictionary
lookups done on the trie (one prefix walk per position), and `FREQ` is a read-only mapping over the trie for
jieba's other uses (the HMM check of `__cut_DAG`, search mode). tests/core/test_jieba_trie.py compares them with
jieba's own on generated texts.
"""

from __future__ import annotations

import mmap
import os
import shutil
import struct
import tempfile
from collections.abc import Iterator, Mapping
from math import log
from pathlib import Path
from types import MethodType
from typing import Any

import marisa_trie

_HEADER = struct.Struct("<4sQQQQ")  # magic, jieba's total, words in the trie, longest word, bytes of zero keys
_MAGIC = b"JBT2"
WORDS_FILE = "words.marisa"
VALUES_FILE = "values.bin"  # header, weights (float64), frequencies (uint32), zero-frequency keys (UTF-8 lines)


def _encodable(text: str) -> str:
    """`text` up to its first lone surrogate (a trie key is UTF-8; no dictionary word holds a surrogate)."""
    for index, character in enumerate(text):
        if "\ud800" <= character <= "\udfff":
            return text[:index]
    return text


class TrieFrequencies(Mapping):
    """jieba's `FREQ` read from the trie: every word and every prefix of a word, a prefix alone at frequency 0."""

    def __init__(self, trie: marisa_trie.Trie, frequencies: memoryview, zero_keys: frozenset[str]) -> None:
        self.trie = trie
        self.frequencies = frequencies
        self.zero_keys = zero_keys  # keys at frequency 0 that are no prefix of a word (none in jieba 0.42.1's)
        self._length: int | None = None

    def _key_id(self, key: object) -> int | None:
        try:
            return self.trie.get(key) if isinstance(key, str) else None
        except UnicodeEncodeError:  # a lone surrogate
            return None

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        if key and _encodable(key) == key:
            for _ in self.trie.iterkeys(key):  # a word starts with it (has_keys_with_prefix is deprecated)
                return True
        return key in self.zero_keys

    def __getitem__(self, key: str) -> int:
        key_id = self._key_id(key)
        if key_id is not None:
            return self.frequencies[key_id]
        if key in self:
            return 0
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        key_id = self._key_id(key)
        if key_id is not None:
            return self.frequencies[key_id]
        return 0 if key in self else default

    def __iter__(self) -> Iterator[str]:
        seen: set[str] = set()
        for word in self.trie.iterkeys():
            for end in range(len(word), 0, -1):
                prefix = word[:end]
                if prefix in seen:
                    break  # its shorter prefixes were given with it
                seen.add(prefix)
                yield prefix
        yield from self.zero_keys

    def __len__(self) -> int:
        if self._length is None:
            self._length = sum(1 for _ in self)
        return self._length

    def __setitem__(self, key: str, value: int) -> None:
        raise TypeError("the trie dictionary is read-only (jieba.add_word needs jieba's own loading)")


def write(folder: Path, frequencies: dict[str, int], total: int) -> None:
    """The trie and value files of jieba's prefix dictionary `frequencies` (jieba's `FREQ`) into `folder`, made
    aside and renamed into place (a folder another process put there first is kept)."""
    words = [word for word, frequency in frequencies.items() if frequency > 0]
    trie = marisa_trie.Trie(words)
    covered = {word[:end] for word in words for end in range(1, len(word) + 1)}
    zero_keys = "\n".join(sorted(key for key in frequencies if key not in covered)).encode()
    ordered = [0] * len(trie)
    for word in words:
        ordered[trie[word]] = frequencies[word]
    logtotal = log(total)
    weights = [log(frequency) - logtotal for frequency in ordered]  # jieba's calc: log(FREQ[word]) - log(total)
    folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=folder.name, suffix=".partial", dir=folder.parent))
    try:
        trie.save(str(partial / WORDS_FILE))
        with open(partial / VALUES_FILE, "wb") as out:
            out.write(_HEADER.pack(_MAGIC, total, len(ordered), max(map(len, words)), len(zero_keys)))
            out.write(struct.pack(f"={len(ordered)}d", *weights))
            out.write(struct.pack(f"={len(ordered)}I", *ordered))
            out.write(zero_keys)
        os.replace(partial, folder)
    except OSError:
        if not folder.is_dir():
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def load(folder: Path) -> tuple[TrieFrequencies, memoryview, int, int]:
    """(the `FREQ` mapping, the words' calc weights, jieba's total, the longest word's length) from `folder`,
    both files memory-mapped."""
    trie = marisa_trie.Trie()
    trie.mmap(str(folder / WORDS_FILE))
    with open(folder / VALUES_FILE, "rb") as file:
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    magic, total, count, longest, zero_bytes = _HEADER.unpack_from(mapped)
    if magic != _MAGIC or count != len(trie) or len(mapped) != _HEADER.size + 12 * count + zero_bytes:
        raise ValueError(f"{folder}: values do not match the trie")
    view = memoryview(mapped)
    weights = view[_HEADER.size : _HEADER.size + 8 * count].cast("d")
    frequencies = view[_HEADER.size + 8 * count : _HEADER.size + 12 * count].cast("I")
    zero_keys = frozenset(bytes(view[_HEADER.size + 12 * count :]).decode().split("\n")) - {""}
    return TrieFrequencies(trie, frequencies, zero_keys), weights, total, longest


class _DAG(dict):
    """jieba's DAG (position -> ends of the words starting there), with each word's calc weight beside its end."""

    __slots__ = ("edges",)


# jieba's DAG + calc on the trie take about as long as on jieba's dict (within a few per cent over the Chinese blocks
# of ../shared/data/dedup's zh bodies, benchmarks/near_duplicate_features_ab.py): one trie walk per position in place
# of jieba's dict lookups per prefix, the weights read along with the words for calc.


def _get_dag(self, sentence: str) -> dict[int, list[int]]:
    """jieba's `Tokenizer.get_DAG`: the ends of the dictionary words starting at each position (the position
    itself when none), found by one walk of the trie per position; the trie holds only words of frequency > 0."""
    prefixes = self.FREQ.trie.iter_prefixes_with_ids
    weights = self.trie_weights
    longest = self.longest_word
    dag = _DAG()
    dag.edges = edges = {}
    for k in range(len(sentence)):
        try:
            found = [(k - 1 + len(word), weights[key_id]) for word, key_id in prefixes(sentence[k : k + longest])]
        except UnicodeEncodeError:  # a lone surrogate: the words end before it
            window = _encodable(sentence[k : k + longest])
            found = [(k - 1 + len(word), weights[key_id]) for word, key_id in prefixes(window)] if window else []
        if found:
            edges[k] = found
            dag[k] = [end for end, _ in found]
        else:
            dag[k] = [k]
    return dag


def _calc(self, sentence: str, dag: dict[int, list[int]], route: dict[int, tuple[float, int]]) -> None:
    """jieba's `Tokenizer.calc`: route[idx] = max((log(FREQ.get(word) or 1) - log(total) + route[end + 1][0], end))
    over the words at idx, with log(FREQ[word]) - log(total) read from the stored weights (the same floats)."""
    n = len(sentence)
    route[n] = (0, 0)
    logtotal = log(self.total)
    edges = dag.edges if isinstance(dag, _DAG) else None
    if edges is None:  # a DAG made elsewhere: jieba's own lookups
        get = self.FREQ.get
        for idx in range(n - 1, -1, -1):
            route[idx] = max((log(get(sentence[idx : x + 1]) or 1) - logtotal + route[x + 1][0], x) for x in dag[idx])
        return
    for idx in range(n - 1, -1, -1):
        found = edges.get(idx)
        if found is None:  # no word starts here: the character alone, log(1) - log(total)
            route[idx] = (-logtotal + route[idx + 1][0], idx)
        elif len(found) == 1:
            end, weight = found[0]
            route[idx] = (weight + route[end + 1][0], end)
        else:
            route[idx] = max((weight + route[end + 1][0], end) for end, weight in found)


# The words of a Chinese block remembered per tokenizer (and `eng` pattern), emptied when this many are held (~1.5 MB):
# a block's words are the same every time it is cut, and blocks repeat across articles (reprints, a site's phrases).
# Of the blocks the body windows cut, 65 % were asked before in ../shared/data/dedup's zh bodies (66 % of their
# characters), 63 % (33 % of the characters) in benchmarks/crawl_rate.py's 300 demo articles; 4096 holds as many
# as 8192 there.
BLOCK_MEMO_SIZE = 1 << 12


def tokenize_no_hmm(tokenizer: Any, text: str, han: Any, skip: Any, eng: Any) -> list[tuple[int, str]]:
    """(start, word) of each word `tokenizer.tokenize(text, HMM=False)` gives, for a tokenizer with the trie
    dictionary: jieba's `cut` (blocks of `han`, the rest split at `skip` or into characters) with each block's DAG
    and best route found in one backward pass, no DAG or route dicts (`_get_dag` then `_calc`, then jieba's
    `__cut_DAG_NO_HMM`: a large share of the Chinese body windows' CPU). `han`, `skip`, `eng`: jieba's
    re_han_default, re_skip_default, re_eng. A block's words are remembered (BLOCK_MEMO_SIZE).
    tests/core/test_jieba_trie.py compares it with jieba's tokenize."""
    found: list[tuple[int, str]] = []
    position = 0
    memo = tokenizer.__dict__.setdefault("trie_block_words", {}).get(eng)  # eng pattern -> {block: its words}
    if memo is None:
        memo = tokenizer.trie_block_words[eng] = {}
    for block in han.split(text):
        if not block:
            continue
        if han.match(block):
            words = memo.get(block)
            if words is None:
                if len(memo) >= BLOCK_MEMO_SIZE:
                    memo.clear()
                words = memo[block] = tuple(_block_words(tokenizer, block, eng))
            for word in words:
                found.append((position, word))
                position += len(word)
        else:
            for part in skip.split(block):
                if skip.match(part):
                    found.append((position, part))
                    position += len(part)
                else:
                    for character in part:
                        found.append((position, character))
                        position += 1
    return found


def _block_words(self: Any, sentence: str, eng: Any) -> list[str]:
    """jieba's `__cut_DAG_NO_HMM` of one block over `_get_dag` and `_calc` (`_route_ends`)."""
    ends = _route_ends(self, sentence)
    n = len(sentence)
    words: list[str] = []
    buffer = ""
    x = 0
    while x < n:
        y = ends[x] + 1
        word = sentence[x:y]
        if len(word) == 1 and eng.match(word):
            buffer += word
        else:
            if buffer:
                words.append(buffer)
                buffer = ""
            words.append(word)
        x = y
    if buffer:
        words.append(buffer)
    return words


# Positions where no word of two characters or more starts (56-57 % of the positions of the zh body windows'
# distinct blocks of ../shared/data/dedup and of the demo's articles): their only word is the character itself, if
# any, its weight found without walking the trie, from a memo per character pair (_StartMemo, emptied when it holds
# this many, ~150 B an entry): a crawl's Chinese text repeats its pairs (6,077 distinct in the dedup set's windows,
# 1,544 in the demo's 300 articles). A pair seen first costs a walk and more, so the memo pays once it is filled
# (benchmarks/near_duplicate_features_ab.py).
START_MEMO_SIZE = 1 << 14
_SEVERAL = object()  # a word of two characters or more may start here: walk the trie
_UNKNOWN = object()


class _StartMemo:
    """A tokenizer's memo of `single_weight` per character pair."""

    __slots__ = ("pairs", "trie", "weights")

    def __init__(self, trie: marisa_trie.Trie, weights: memoryview) -> None:
        self.pairs: dict[str, Any] = {}
        self.trie, self.weights = trie, weights

    def single_weight(self, pair: str) -> Any:
        """For the one or two characters at a position: _SEVERAL when a dictionary word of two characters or more
        may start with them, else the weight of the first character as a word, or None when it is none."""
        if len(self.pairs) >= START_MEMO_SIZE:
            self.pairs.clear()
        try:
            several = len(pair) == 2 and next(self.trie.iterkeys(pair), None) is not None
            key_id = None if several else self.trie.get(pair[0])
        except UnicodeEncodeError:  # a lone surrogate: no word holds one
            several, first = False, pair[:1]
            key_id = self.trie.get(first) if _encodable(first) else None
        answer = self.pairs[pair] = _SEVERAL if several else None if key_id is None else self.weights[key_id]
        return answer


def _route_ends(self: Any, sentence: str) -> list[int]:
    """The end of the word at each position of jieba's best route (`_get_dag`, `_calc`: route[idx][1]), in one
    backward pass: route[idx] is the max of (weight + route[end + 1] score, end) over the words at idx (the character
    alone, at -log(total), when none)."""
    prefixes = self.FREQ.trie.iter_prefixes_with_ids
    weights = self.trie_weights
    longest = self.longest_word
    n = len(sentence)
    alone = -log(self.total)  # jieba: log(FREQ.get(character) or 1) - log(total), for a character no word starts
    scores: list[float] = [0] * (n + 1)  # type: ignore[list-item]  # jieba's route[n] = (0, 0)
    ends = list(range(n + 1))
    memo = self.__dict__.get("trie_start_memo")
    if memo is None:
        memo = self.trie_start_memo = _StartMemo(self.FREQ.trie, weights)
    pairs = memo.pairs
    # The words at k are scored as the trie yields them, with no list of (weight, length) made first.
    for k in range(n - 1, -1, -1):
        weight = pairs.get(sentence[k : k + 2], _UNKNOWN)
        if weight is _UNKNOWN:
            weight = memo.single_weight(sentence[k : k + 2])
        if weight is not _SEVERAL:  # no word of two characters or more starts at k: no walk of the trie
            scores[k] = (alone if weight is None else weight) + scores[k + 1]
            continue
        best, best_end = None, 0
        try:
            for word, key_id in prefixes(sentence[k : k + longest]):  # max((score, end)): higher score, later end
                end = k - 1 + len(word)
                score = weights[key_id] + scores[end + 1]
                if best is None or score > best or (score == best and end > best_end):
                    best, best_end = score, end
        except UnicodeEncodeError:  # a lone surrogate: the words end before it
            best, best_end = None, 0
            window = _encodable(sentence[k : k + longest])
            for word, key_id in prefixes(window) if window else ():
                end = k - 1 + len(word)
                score = weights[key_id] + scores[end + 1]
                if best is None or score > best or (score == best and end > best_end):
                    best, best_end = score, end
        if best is None:
            scores[k] = alone + scores[k + 1]
        else:
            scores[k], ends[k] = best, best_end
    return ends


def cut_hmm(tokenizer: Any, text: str, han: Any, skip: Any, hmm_cut: Any) -> list[str]:
    """`list(tokenizer.cut(text))` (HMM on) for a tokenizer with the trie dictionary: jieba's `cut` and
    `__cut_DAG` with each block's route from `_route_ends` (no DAG or route dicts, most of a Chinese title's cut in
    keywords.segment otherwise). `han`, `skip`: jieba's re_han_default,
    re_skip_default; `hmm_cut`: jieba's finalseg.cut. tests/core/test_jieba_trie.py compares it with jieba's cut."""
    found: list[str] = []
    for block in han.split(text):
        if not block:
            continue
        if han.match(block):
            _cut_block_hmm(tokenizer, block, hmm_cut, found)
        else:
            for part in skip.split(block):
                if skip.match(part):
                    found.append(part)
                else:
                    found.extend(part)
    return found


def _cut_block_hmm(self: Any, sentence: str, hmm_cut: Any, found: list[str]) -> None:
    """jieba's `__cut_DAG` of one block, its words appended to `found`: the route's single characters gathered, a
    run of them cut by the HMM when it is no dictionary word (jieba's `not FREQ.get(run)`)."""
    ends = _route_ends(self, sentence)
    n = len(sentence)
    buffer = ""
    x = 0
    while x < n:
        y = ends[x] + 1
        if y - x == 1:
            buffer += sentence[x]
        else:
            if buffer:
                _flush_hmm(self, buffer, hmm_cut, found)
                buffer = ""
            found.append(sentence[x:y])
        x = y
    if buffer:
        _flush_hmm(self, buffer, hmm_cut, found)


def _flush_hmm(self: Any, buffer: str, hmm_cut: Any, found: list[str]) -> None:
    if len(buffer) == 1:
        found.append(buffer)
    elif not self.FREQ.get(buffer):
        found.extend(hmm_cut(buffer))
    else:
        found.extend(buffer)


def install(tokenizer: Any, folder: Path) -> None:
    """Give a jieba `Tokenizer` the trie dictionary of `folder` (raises OSError or ValueError when unreadable)."""
    frequencies, weights, total, longest = load(folder)
    with tokenizer.lock:
        tokenizer.FREQ, tokenizer.total = frequencies, total
        tokenizer.trie_weights, tokenizer.longest_word = weights, longest
        tokenizer.get_DAG = MethodType(_get_dag, tokenizer)
        tokenizer.calc = MethodType(_calc, tokenizer)
        tokenizer.initialized = True
