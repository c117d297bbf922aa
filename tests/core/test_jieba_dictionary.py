"""jieba's dictionary from our pickle (newscorpus.core.jieba_dictionary): the same dictionary and the same words
as jieba's own loading; a damaged pickle falls back to jieba's loading and is written again."""

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
print(dictionary_cache_file(jieba).is_file(), jieba.dt.total, digest, words)
"""
JIEBA_OWN = """
import hashlib, logging, pickle, sys
import jieba
jieba.setLogLevel(logging.WARNING)
jieba.initialize()
words = "/".join(jieba.cut(sys.argv[1]))
digest = hashlib.sha1(pickle.dumps(sorted(jieba.dt.FREQ.items()))).hexdigest()
print(True, jieba.dt.total, digest, words)
"""


def _run(script: str, cache_home) -> str:
    result = subprocess.run([sys.executable, "-c", script, TEXT], cwd=PROJECT_ROOT, capture_output=True, text=True,
                            timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": str(cache_home),
                                              "XDG_CACHE_HOME": str(cache_home / "cache")})
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_pickled_dictionary_gives_jiebas_dictionary_and_words(tmp_path):
    own = _run(JIEBA_OWN, tmp_path)
    first = _run(SCRIPT, tmp_path)  # jieba's loading, then the pickle written
    second = _run(SCRIPT, tmp_path)  # from the pickle
    assert first == second == own
    pickles = list((tmp_path / "cache" / "newscorpus").glob("jieba-*.pickle"))
    assert len(pickles) == 1
    pickles[0].write_bytes(b"not a pickle")
    assert _run(SCRIPT, tmp_path) == own  # damaged: jieba's own loading
    assert pickles[0].read_bytes() != b"not a pickle"
