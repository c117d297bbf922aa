"""Run a command on a pseudo-terminal (python's pty), as tmux or a terminal emulator gives, and read what it showed."""

from __future__ import annotations

import os
import subprocess
import time

from tests.local_crawl import PROJECT_ROOT


def run_on_terminal(command: list[str], env: dict | None = None, timeout: float = 120) -> tuple[int, str]:
    """``command`` with stdout and stderr on a pseudo-terminal of 120 columns: (exit code, what it showed)."""
    primary, secondary = os.openpty()
    process = subprocess.Popen(command, cwd=PROJECT_ROOT, stdin=subprocess.DEVNULL, stdout=secondary,
                               stderr=secondary, env={**os.environ, **(env or {}), "COLUMNS": "120"})
    os.close(secondary)
    shown = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(primary)
        if process.poll() is None and time.monotonic() >= deadline:
            process.kill()
    return process.wait(timeout=30), shown.decode("utf-8", errors="replace")
