"""jieba, loaded once per process, its default dictionary read from a memory-mapped trie made from jieba's own
prefix dictionary (newscorpus.core.jieba_trie).

jieba keeps the prefix dictionary (~500k entries) in a marshal cache whose load costs over a second of CPU per
process; a pickle of it loads faster but still adds tens of MB to a process's peak RSS. The trie loads in
milliseconds and maps ~5 MB of files shared by every process (benchmarks/near_duplicate_startup.py). It is made
from jieba's own prefix dictionary, once per jieba version and dictionary content, in the user's cache folder (not
a shared temporary folder: what this user alone writes).
Any problem with it (unreadable, damaged once rebuilt, marisa_trie missing): jieba's own loading.
Segmentation is unchanged: the same words and frequencies, jieba's own tokenizer (tests/core/test_jieba_trie.py).
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
from functools import cache
from pathlib import Path
from types import ModuleType

logger = logging.getLogger(__name__)


def cache_folder() -> Path:
    """The user's own cache folder for files made from jieba's dictionary (never a shared temporary folder:
    they are only read from a place this user alone writes)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "newscorpus"


@cache
def _content_key(path: Path, size: int, mtime_ns: int) -> str:
    """The file's size and the first 16 hex digits of its SHA-1 (jieba's dict.txt, 5.1 MB: once per process; size
    and mtime are in the arguments so that a file changed while the process runs is hashed again)."""
    with open(path, "rb") as file:
        return f"{size}-{hashlib.file_digest(file, 'sha1').hexdigest()[:16]}"


def dictionary_cache_file(jieba: ModuleType, suffix: str) -> Path:
    """A file made from jieba's default dictionary: its name changes with jieba's version and the dictionary's
    content (size and hash). Not its modification time: every new install (a new venv, a reinstall) would make the
    same file again in a crawl's first minute (over a second of CPU and a peak RSS of hundreds of MB). A change of
    our own
    format is seen on reading (the trie's header, jieba_trie.load) and the file made again."""
    dictionary = Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME)
    stat = dictionary.stat()
    key = _content_key(dictionary, stat.st_size, stat.st_mtime_ns)
    return cache_folder() / f"jieba-{jieba.__version__}-{key}{suffix}"


def _install_trie(jieba: ModuleType) -> bool:
    """Give jieba's default tokenizer the trie dictionary, made first if missing, made again once if unreadable."""
    try:
        from newscorpus.core import jieba_trie
    except ImportError as error:  # marisa_trie not installed
        logger.debug("no trie dictionary for jieba: %s", error)
        return False
    folder = dictionary_cache_file(jieba, ".trie")
    for attempt in (1, 2):
        try:
            if not folder.is_dir():
                jieba_trie.write(folder, *jieba.Tokenizer.gen_pfdict(jieba.dt.get_dict_file()))  # jieba's own
            jieba_trie.install(jieba.dt, folder)
            return True
        except (OSError, ValueError, RuntimeError) as error:  # marisa raises RuntimeError on a file it cannot map
            logger.debug("jieba trie dictionary %s unusable (attempt %d): %s", folder, attempt, error)
            shutil.rmtree(folder, ignore_errors=True)
    return False


@cache
def jieba_module() -> ModuleType:
    """The jieba module, its default tokenizer initialised."""
    from newscorpus.core.jieba_import import import_jieba

    jieba = import_jieba()  # its log at WARNING: no "Building prefix dict ..." on every command
    tokenizer = jieba.dt
    if not tokenizer.initialized and tokenizer.dictionary == jieba.DEFAULT_DICT:
        _install_trie(jieba)
    jieba.initialize()  # jieba's own loading when the trie could not be used; nothing to do once loaded
    return jieba


def tokens_without_hmm(text: str) -> list[tuple[int, str]]:
    """(start, word) of the words of jieba's `tokenize(text, HMM=False)`: with the trie dictionary installed, its
    one-pass cut (jieba_trie.tokenize_no_hmm), else jieba's own."""
    jieba = jieba_module()
    tokenizer = jieba.dt
    if getattr(tokenizer, "trie_weights", None) is not None:
        from newscorpus.core.jieba_trie import tokenize_no_hmm

        return tokenize_no_hmm(tokenizer, text, jieba.re_han_default, jieba.re_skip_default, jieba.re_eng)
    return [(start, word) for word, start, _ in tokenizer.tokenize(text, HMM=False)]


def words_with_hmm(text: str) -> list[str]:
    """The words of jieba's `cut(text)` (HMM on): with the trie dictionary installed, its one-pass route
    (jieba_trie.cut_hmm), else jieba's own."""
    jieba = jieba_module()
    tokenizer = jieba.dt
    if getattr(tokenizer, "trie_weights", None) is not None:
        from newscorpus.core.jieba_trie import cut_hmm

        return cut_hmm(tokenizer, text, jieba.re_han_default, jieba.re_skip_default, jieba.finalseg.cut)
    return list(tokenizer.cut(text))
