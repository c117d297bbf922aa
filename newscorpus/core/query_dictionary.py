"""jieba's dictionary for a short query, read per character: segmenting a query of a few words looks up only
strings that start with one of its characters, so the query needs only those entries of the 584,000-entry prefix
dictionary. Loading all of it (`jieba.initialize()`, a 9 MB marshal file) would be most of a `newscorpus search`
(benchmarks/cli_latency.py); the entries of a query's characters load in milliseconds.

The entries are kept in one file in the user's cache folder (jieba_dictionary.cache_folder), grouped by first
character, with an index of offsets;
it is written once per jieba dictionary, from jieba's loaded dictionary, so a query is cut exactly as
``jieba.cut_for_search`` cuts it (tests/core/test_search_terms.py compares the two)."""

from __future__ import annotations

import logging
import marshal
import os
import struct
import tempfile
from functools import cache
from pathlib import Path

logger = logging.getLogger(__name__)

_HEADER = struct.Struct("<Q")  # the index's length in bytes


@cache
def shards_path() -> Path:
    """The file of per-character entries for the installed jieba dictionary."""
    from newscorpus.core.jieba_dictionary import dictionary_cache_file
    from newscorpus.core.jieba_import import import_jieba

    # marshal's format version in the name: the file is named by the dictionary's content, so venvs of other
    # Pythons share the name (jieba_dictionary.dictionary_cache_file).
    return dictionary_cache_file(import_jieba(), f"-marshal{marshal.version}.shards")


def write_shards(path: Path) -> None:
    """Group jieba's loaded dictionary by first character into ``path`` (written aside, then renamed)."""
    from newscorpus.core.jieba_dictionary import jieba_module

    jieba = jieba_module()  # the whole dictionary, once
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    groups: dict[str, dict[str, int]] = {}
    for word, frequency in jieba.dt.FREQ.items():
        groups.setdefault(word[0], {})[word] = frequency
    blobs, offsets, position = [], {}, 0
    for character, entries in groups.items():
        blob = marshal.dumps(entries)
        offsets[character] = (position, len(blob))
        blobs.append(blob)
        position += len(blob)
    index = marshal.dumps((jieba.dt.total, offsets))
    handle, partial = tempfile.mkstemp(prefix=path.name, suffix=".partial", dir=path.parent)
    with os.fdopen(handle, "wb") as out:
        out.write(_HEADER.pack(len(index)))
        out.write(index)
        for blob in blobs:
            out.write(blob)
    os.replace(partial, path)


def entries_for(text: str) -> tuple[dict[str, int], int]:
    """(the dictionary entries starting with a character of ``text``, the dictionary's total frequency)."""
    path = shards_path()
    if not path.exists():
        write_shards(path)
    with open(path, "rb") as shards:
        (length,) = _HEADER.unpack(shards.read(_HEADER.size))
        total, offsets = marshal.loads(shards.read(length))
        base = _HEADER.size + length
        entries: dict[str, int] = {}
        for character in set(text):
            if character in offsets:
                offset, size = offsets[character]
                shards.seek(base + offset)
                entries.update(marshal.loads(shards.read(size)))
    return entries, total


def query_tokenizer(text: str):
    """A ``jieba.Tokenizer`` that cuts ``text`` (and any substring of it) as the full dictionary would; the
    full tokenizer when the per-character file cannot be read or written."""
    from newscorpus.core.jieba_import import import_jieba

    jieba = import_jieba()
    try:
        entries, total = entries_for(text)
    except (OSError, ValueError, EOFError, struct.error) as error:
        logger.debug("per-character jieba dictionary unavailable (%s): loading the whole one", error)
        return jieba.dt
    tokenizer = jieba.Tokenizer()
    tokenizer.FREQ, tokenizer.total, tokenizer.initialized = entries, total, True
    return tokenizer
