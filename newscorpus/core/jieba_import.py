"""Import jieba without pkg_resources: jieba 0.42.1 (`jieba/_compat.py`) imports pkg_resources only to open its
own data files, and falls back to a plain open() when it is missing; importing pkg_resources is most of what
jieba's import costs a `newscorpus search` (benchmarks/cli_latency.py). If anything else has imported
pkg_resources already, jieba uses it as before."""

from __future__ import annotations

import logging
import sys
from functools import cache


@cache
def import_jieba():
    """The jieba module, its log at WARNING (no "Building prefix dict ..." on every command)."""
    hidden = "pkg_resources" not in sys.modules
    if hidden:
        sys.modules["pkg_resources"] = None  # `import pkg_resources` raises ImportError inside jieba
    try:
        import jieba
    finally:
        if hidden:
            del sys.modules["pkg_resources"]
    jieba.setLogLevel(logging.WARNING)
    return jieba
