"""benchmarks/crawl_rate.py: with --compile-bytecode a checkout's sources are compiled to __pycache__, as an installed
package is, even where PYTHONDONTWRITEBYTECODE is set (a crawl then imports them without compiling); the peak-RSS
sampler leaves out a child that was forked and has not exec'd (its pages are its parent's)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import psutil

from benchmarks.crawl_rate import SOURCE_FOLDERS, compile_bytecode, unexecuted_fork


def test_every_source_folder_of_a_checkout_gets_its_bytecode(tmp_path):
    for folder in SOURCE_FOLDERS:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "module.py").write_text("VALUE = 1\n", encoding="utf-8")
    compile_bytecode(tmp_path)
    for folder in SOURCE_FOLDERS:
        assert Path(importlib.util.cache_from_source(str(tmp_path / folder / "module.py"))).is_file()


def test_a_forked_child_is_left_out_until_it_execs_and_a_started_program_is_counted():
    read, write = os.pipe()
    forked = os.fork()
    if forked == 0:  # the child: wait until the parent has looked, then leave without running anything
        os.close(write)
        os.read(read, 1)
        os._exit(0)
    os.close(read)
    started = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert unexecuted_fork(psutil.Process(forked))
        assert not unexecuted_fork(psutil.Process(started.pid))
        assert not unexecuted_fork(psutil.Process())  # pytest itself: its parent runs another command line
    finally:
        os.write(write, b"x")
        os.close(write)
        os.waitpid(forked, 0)
        started.communicate()
