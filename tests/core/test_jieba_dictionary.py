"""jieba's dictionary from our trie (newscorpus.core.jieba_dictionary): the same dictionary and the same words
as jieba's own loading; a damaged trie is made again; without a cache folder to write in, jieba's own loading."""

from __future__ import annotations

import subprocess
import sys

from tests.local_crawl import PROJECT_ROOT

TEXT = "南宁市教育局推进老旧停车保障机制，今年新增停车位两千个，城市公共交通更加便利。"
SCRIPT = """
import hashlib, pickle, sys
from newscorpus.core.jieba_dictionary import dictionary_cache_file, jieba_module
jieba = jieba_module()
words = "/".join(jieba.cut(sys.argv[1]))
digest = hashlib.sha1(pickle.dumps(sorted(jieba.dt.FREQ.items()))).hexdigest()
print(dictionary_cache_file(jieba, ".trie").is_dir(), type(jieba.dt.FREQ).__name__, jieba.dt.total, digest, words)
"""
JIEBA_OWN = """
import hashlib, logging, pickle, sys
import jieba
jieba.setLogLevel(logging.WARNING)
jieba.initialize()
words = "/".join(jieba.cut(sys.argv[1]))
digest = hashlib.sha1(pickle.dumps(sorted(jieba.dt.FREQ.items()))).hexdigest()
print(jieba.dt.total, digest, words)
"""


def _run(script: str, cache_home) -> str:
    result = subprocess.run([sys.executable, "-c", script, TEXT], cwd=PROJECT_ROOT, capture_output=True, text=True,
                            timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": str(cache_home),
                                              "XDG_CACHE_HOME": str(cache_home / "cache")})
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_trie_dictionary_gives_jiebas_dictionary_and_words(tmp_path):
    own = _run(JIEBA_OWN, tmp_path)
    first = _run(SCRIPT, tmp_path)  # the trie made from jieba's dictionary, then used
    second = _run(SCRIPT, tmp_path)  # the trie read
    assert first == second == f"True TrieFrequencies {own}"
    tries = list((tmp_path / "cache" / "newscorpus").glob("jieba-*.trie"))
    assert len(tries) == 1
    values = tries[0] / "values.bin"
    whole = values.read_bytes()
    values.write_bytes(whole[:-4])
    assert _run(SCRIPT, tmp_path) == first  # damaged: made again
    assert values.read_bytes() == whole


def test_without_a_writable_cache_folder_jiebas_own_loading(tmp_path):
    own = _run(JIEBA_OWN, tmp_path)
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    assert _run(SCRIPT, tmp_path) == f"False dict {own}"
