"""benchmarks/crawl_rate.py --compile-bytecode: a checkout's sources are compiled to __pycache__, as an installed
package is, even where PYTHONDONTWRITEBYTECODE is set (a crawl then imports them without compiling)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from benchmarks.crawl_rate import SOURCE_FOLDERS, compile_bytecode


def test_every_source_folder_of_a_checkout_gets_its_bytecode(tmp_path):
    for folder in SOURCE_FOLDERS:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "module.py").write_text("VALUE = 1\n", encoding="utf-8")
    compile_bytecode(tmp_path)
    for folder in SOURCE_FOLDERS:
        assert Path(importlib.util.cache_from_source(str(tmp_path / folder / "module.py"))).is_file()
