"""jieba's dictionary from our trie (newscorpus.core.jieba_dictionary): the same dictionary and the same words
as jieba's own loading; a damaged trie is made again; without a cache folder to write in, jieba's own loading."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

from newscorpus.core.jieba_dictionary import dictionary_cache_file
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


def _installed_jieba(folder, dictionary: bytes, mtime_ns: int) -> types.SimpleNamespace:
    """What dictionary_cache_file reads of a jieba module, for a jieba installed in `folder`."""
    folder.mkdir()
    (folder / "dict.txt").write_bytes(dictionary)
    os.utime(folder / "dict.txt", ns=(mtime_ns, mtime_ns))
    return types.SimpleNamespace(__file__=str(folder / "__init__.py"), DEFAULT_DICT_NAME="dict.txt",
                                 __version__="0.42.1")


def test_cache_file_named_by_the_dictionarys_content_not_its_install_time(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    dictionary = "南宁市 12 ns\n教育局 30 n\nhospital 5 n\n".encode()
    first = _installed_jieba(tmp_path / "venv1", dictionary, 1_700_000_000_000_000_000)
    reinstalled = _installed_jieba(tmp_path / "venv2", dictionary, 1_800_000_000_000_000_000)
    edited = _installed_jieba(tmp_path / "venv3", dictionary.replace(b"12", b"13"), 1_700_000_000_000_000_000)
    name = dictionary_cache_file(first, ".trie")
    assert name.parent == tmp_path / "cache" / "newscorpus"
    assert name == dictionary_cache_file(reinstalled, ".trie")  # a new venv: the same file, not made again
    assert name != dictionary_cache_file(edited, ".trie")  # same size, other words: another file
    assert name.name.startswith(f"jieba-0.42.1-{len(dictionary)}-")
    # the same install edited while a process runs: named anew, not from the process's first look
    (tmp_path / "venv1" / "dict.txt").write_bytes(dictionary.replace(b"12", b"13"))
    assert dictionary_cache_file(first, ".trie") == dictionary_cache_file(edited, ".trie")


def test_trie_made_in_one_venv_is_used_by_a_reinstall(tmp_path):
    first = _run(SCRIPT, tmp_path)
    tries = list((tmp_path / "cache" / "newscorpus").glob("jieba-*.trie"))
    import jieba

    dictionary = Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME)
    copy = tmp_path / "jieba"  # jieba installed again (another venv): same files, a new modification time
    shutil.copytree(Path(jieba.__file__).parent, copy)
    os.utime(copy / dictionary.name, ns=(dictionary.stat().st_mtime_ns + 10**9,) * 2)
    made_at = tries[0].stat().st_mtime_ns
    script = f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n" + SCRIPT
    again = _run(script, tmp_path)
    assert again == first  # our trie used: "True TrieFrequencies", same dictionary, same words
    assert _run(f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import jieba; print(jieba.__file__)",
                tmp_path) == str(copy / "__init__.py")
    assert list((tmp_path / "cache" / "newscorpus").glob("jieba-*.trie")) == tries  # not made again
    assert tries[0].stat().st_mtime_ns == made_at
