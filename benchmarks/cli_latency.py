"""Wall time of `newscorpus` commands as a person types them: help, usage errors, and database commands
on the embedded server (the first after the server stopped, then the next ones with it kept up).

    .venv/bin/python -m benchmarks.cli_latency [--runs 5] [--before CHECKOUT]

Each command runs in a fresh process, as from a shell; the corpus is the demo site crawled once into a temporary
data directory. `python -c pass` is the floor (the interpreter's own start). `--before CHECKOUT` also times the
same commands with another checkout's code first on the import path (e.g. a worktree of main), interleaved with
this one so that the machine's load hits both alike. Prints a Markdown table with medians and maxima.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

CLI = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())"]


def _env(checkout: str | None, data_dir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NEWSCORPUS_DB_DSN"}
    env["NEWSCORPUS_DB_DATA_DIR"] = str(data_dir)
    env["NEWSCORPUS_DB_IDLE_SECONDS"] = "600"
    if checkout:
        env["PYTHONPATH"] = checkout
    return env


def timed(arguments: list[str], env: dict, cwd: Path) -> tuple[float, int]:
    started = time.perf_counter()
    result = subprocess.run(arguments, env=env, cwd=cwd, capture_output=True)
    return time.perf_counter() - started, result.returncode


def stop_server(env: dict, cwd: Path) -> None:
    subprocess.run([*CLI, "db", "stop", "--force"], env=env, cwd=cwd, capture_output=True)


COMMANDS = {  # label -> (arguments after `newscorpus`, the server stopped before it?)
    "newscorpus --help": (["--help"], False),
    "newscorpus artcles (usage error)": (["artcles"], False),
    "newscorpus articles --since yesterday (usage error)": (["articles", "--since", "yesterday"], False),
    "newscorpus articles, server stopped (it starts)": (["articles"], True),
    "newscorpus articles, server kept up": (["articles"], False),
    "newscorpus search Leeds, server kept up": (["search", "Leeds"], False),
    "newscorpus search 杭州 (Chinese, jieba), server kept up": (["search", "杭州"], False),
    "newscorpus db status, server kept up": (["db", "status"], False),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument("--before", metavar="CHECKOUT", help="also time another checkout's code (e.g. main)")
    args = parser.parse_args(argv)
    versions = {"this": None, **({"before": str(Path(args.before).resolve())} if args.before else {})}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="cli-latency-") as folder:
        cwd = Path(folder)
        data_dir = cwd / "pg"
        env = _env(None, data_dir)
        demo = subprocess.run([*CLI, "demo", "--port", "0"], env=env, cwd=cwd, capture_output=True, text=True)
        if demo.returncode != 0:
            print(demo.stderr[-2000:], file=sys.stderr)
            return 1
        times: dict[tuple[str, str], list[float]] = {}
        floor: list[float] = []
        try:
            for _ in range(args.runs):
                floor.append(timed([sys.executable, "-c", "pass"], env, cwd)[0])
                for label, (arguments, stopped_first) in COMMANDS.items():
                    for version, checkout in versions.items():
                        version_env = _env(checkout, data_dir)
                        if stopped_first:
                            stop_server(version_env, cwd)
                        seconds, _ = timed([*CLI, *arguments], version_env, cwd)
                        times.setdefault((label, version), []).append(seconds)
        finally:
            stop_server(env, cwd)
    load_after = os.getloadavg()
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"# {when}; {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores; "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after; {args.runs} runs each")
    header = "| command | " + " | ".join(f"{version}: median (max)" for version in versions) + " |"
    print(header)
    print("|---|" + "---|" * len(versions))
    print(f"| python -c pass (floor) | {statistics.median(floor):.2f} s ({max(floor):.2f} s) |"
          + " |" * (len(versions) - 1))
    for label in COMMANDS:
        cells = [f"{statistics.median(times[label, v]):.2f} s ({max(times[label, v]):.2f} s)" for v in versions]
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
