"""Wall time of a database command on the embedded server, with the server stopped between commands
(NEWSCORPUS_DB_IDLE_SECONDS=0) and kept up between them (the default): `newscorpus db status`,
and a bare process that opens the database and exits (no CLI imports). Runs are interleaved, so that a change of
the machine's load hits both alike.
Usage: .venv/bin/python benchmarks/embedded_db_command.py [RUNS]   (uses a temporary data directory)"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NEWSCORPUS = str(Path(sys.executable).parent / "newscorpus")


BARE = ("import sys; from pathlib import Path; from newscorpus.store.connection import connect, embedded_dsn;"
        "connect(embedded_dsn(Path(sys.argv[1]))).close()")


def timed(command: list[str], data_dir: Path, idle: str) -> float:
    env = {**os.environ, "NEWSCORPUS_DB_IDLE_SECONDS": idle}
    env.pop("NEWSCORPUS_DB_DSN", None)
    started = time.perf_counter()
    subprocess.run([*command, str(data_dir)], env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main(runs: int) -> int:
    commands = {"newscorpus db status": [NEWSCORPUS, "db", "status", "--data-dir"],
                "open the database and exit": [sys.executable, "-c", BARE]}
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder) / "pg"
        # `db status` reads a corpus and names a folder without one; `db migrate` creates it (initdb, migrations)
        first = timed([NEWSCORPUS, "db", "migrate", "--data-dir"], data_dir, "0")
        print(f"first command (initdb, migrations): {first:.2f} s")
        for name, command in commands.items():
            stopped, kept_up = [], []
            for _ in range(runs):
                stopped.append(timed(command, data_dir, "0"))    # starts the server, stops it on exit
                timed(command, data_dir, "600")                  # starts it and leaves it up
                kept_up.append(timed(command, data_dir, "600"))  # finds it running
                subprocess.run([NEWSCORPUS, "db", "stop", "--data-dir", str(data_dir)], check=True,
                               capture_output=True)
            print(f"{name}: median {statistics.median(stopped):.2f} s with the server stopped between commands, "
                  f"{statistics.median(kept_up):.2f} s with it kept up ({runs} runs each)")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
