"""Crawl rate of the demo site: a plain Scrapy spider (benchmarks/plain_spider.py, the anchor) and the `site`
spider with its stages switched on one by one, interleaved on one demo server.

    python -m benchmarks.crawl_rate --articles 300 --rounds 3 [--dsn DSN] [--variants plain,all]
    python -m benchmarks.crawl_rate --variants plain,+near_duplicate --base-tree /tmp/base  # old vs new, A/B

Per variant: pages/s (responses / wall seconds of the crawl process, start-up included; median over rounds),
the crawl process tree's CPU ms per page (user + system, start-up included; Postgres's own CPU is not in it),
and the tree's peak RSS (the sum over the crawl process and its children, sampled every 20 ms; with --pss also
the peak of the tree's summed PSS, which counts a page shared by the crawl process and a child once). Each round runs
every variant once, forward then backward in turn, so a load that drifts weighs on all alike; the ratio of the
full crawl to the plain spider is taken per round, then its median. Each crawl stores into a throwaway schema.

With --base-tree, every variant but plain also runs as "base:VARIANT" with the code of that checkout (another
worktree of the project: run from its folder, on its own import path), in the same rounds, on the same server: old
and new code alternate within minutes, and each is taken as a ratio to the plain spider of its round.

With --compile-bytecode the sources of this checkout (and of --base-tree) are compiled to __pycache__ first, as an
installed package is: with PYTHONDONTWRITEBYTECODE set (as on the project's benchmark machine) every crawl process
otherwise compiles the ~100 project modules it imports from source, about a tenth of a second of CPU, which the
plain spider (Scrapy, compiled when installed) never pays.

Politeness is switched off (no AutoThrottle, no delay) because the server is ours and local: the figures are the
pipeline's own ceiling, not a rate to use against a real site.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import psutil
import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from newscorpus.demo.server import DemoSite
from newscorpus.store.connection import resolve_dsn

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
            "NEWSCORPUS_RETRY_BACKOFF_SECONDS": "0.1", "LOG_LEVEL": "INFO"}
STAGES = {  # ITEM_PIPELINES of newscorpus/crawler/settings.py, added one by one
    "extraction": ("newscorpus.pipelines.extraction.ExtractionPipeline", 100),
    "storage": ("newscorpus.pipelines.storage.StoragePipeline", 900),
    "line_noise": ("newscorpus.pipelines.line_noise.LineNoisePipeline", 300),
    "near_duplicate": ("newscorpus.pipelines.near_duplicate.NearDuplicatePipeline", 500),
}
VARIANTS = {  # name -> stages on (None: the plain spider)
    "plain": None,
    "no_stages": [],
    "+extraction": ["extraction"],
    "+storage": ["extraction", "storage"],
    "+line_noise": ["extraction", "storage", "line_noise"],
    "+near_duplicate": ["extraction", "storage", "line_noise", "near_duplicate"],
    "+near_duplicate_process": ["extraction", "storage", "line_noise", "near_duplicate"],
}
VARIANT_SETTINGS = {"+near_duplicate_process": {"NEWSCORPUS_NEAR_DUPLICATE_WORKERS": "1"}}
ALL = "+near_duplicate"  # every stage: the default crawl


@dataclass
class Run:
    pages: int
    seconds: float
    cpu_seconds: float
    peak_rss: int  # bytes
    peak_pss: int | None = None  # bytes; None: not sampled


def proportional_set_size(pid: int) -> int:
    """The process's PSS in bytes (/proc/PID/smaps_rollup)."""
    with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


def unexecuted_fork(process: psutil.Process) -> bool:
    """Whether `process` is a child forked (or vforked) by its parent that has not yet exec'd: its pages are the
    parent's, shared, so its RSS counts them again. Scrapy's start-up log calls platform.platform(), which runs
    `uname -p` (a vfork); a sample that fell in that window would show the tree at twice the crawl's start-up RSS, a
    one-off peak."""
    try:
        parent = process.parent()
        return parent is not None and process.cmdline() == parent.cmdline()
    except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
        return True


def run_measured(command: list[str], env: dict, pss: bool = False, cwd: Path = PROJECT_ROOT
                 ) -> tuple[subprocess.CompletedProcess, float, float, int, int | None]:
    """Runs `command` in `cwd`; wall seconds, CPU seconds of its process tree, peak RSS of the tree (sampled), and
    peak PSS of the tree when `pss` (sampled; None otherwise)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=err)
        peak = 0
        peak_pss = 0 if pss else None
        done = threading.Event()

        def sample() -> None:
            nonlocal peak, peak_pss
            root = psutil.Process(child.pid)
            while not done.is_set():
                try:
                    tree = [root, *root.children(recursive=True)]
                except psutil.NoSuchProcess:
                    return
                total = proportional = 0
                for process in tree:
                    try:
                        if unexecuted_fork(process):
                            continue
                        total += process.memory_info().rss
                        if pss:
                            proportional += proportional_set_size(process.pid)
                    except (psutil.NoSuchProcess, FileNotFoundError, ProcessLookupError):
                        pass
                peak = max(peak, total)
                if pss:
                    peak_pss = max(peak_pss, proportional)
                done.wait(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        done.set()
        sampler.join()
        child.returncode = os.waitstatus_to_exitcode(status)
        # wait4 counts the child and the descendants it reaped (a worker pool is joined at close).
        cpu = usage.ru_utime + usage.ru_stime
        peak = max(peak, usage.ru_maxrss * 1024)
        out.seek(0)
        err.seek(0)
        result = subprocess.CompletedProcess(command, child.returncode, out.read().decode(errors="replace"),
                                             err.read().decode(errors="replace"))
    return result, seconds, cpu, peak, peak_pss


BASE = "base:"  # prefix of a variant run with the code of --base-tree


def crawl_command(variant: str, site: DemoSite, config_path: Path, overrides: dict) -> list[str]:
    stages = VARIANTS[variant.removeprefix(BASE)]
    if stages is None:
        return [sys.executable, "-m", "benchmarks.plain_spider", f"{site.base_url}/"]
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config_path}"]
    pipelines = dict(STAGES[stage] for stage in stages)
    settings = {**SETTINGS, "ITEM_PIPELINES": json.dumps(pipelines),
                **VARIANT_SETTINGS.get(variant.removeprefix(BASE), {}), **overrides}
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    return command


def crawl_once(variant: str, site: DemoSite, server_dsn: str, config_path: Path, overrides: dict,
               pss: bool = False, base_tree: Path | None = None) -> Run:
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        site.requests.clear()
        env = {**os.environ, "NEWSCORPUS_DB_DSN": make_conninfo(server_dsn, options=f"-csearch_path={schema}")}
        cwd = PROJECT_ROOT
        if variant.startswith(BASE):
            cwd = base_tree
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(base_tree), os.environ.get("PYTHONPATH")]))
        result, seconds, cpu, peak, peak_pss = run_measured(crawl_command(variant, site, config_path, overrides),
                                                            env, pss, cwd)
    finally:
        with psycopg.connect(server_dsn, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    if result.returncode != 0:
        sys.exit(f"{variant}: exit {result.returncode}\n{result.stderr[-3000:]}")
    found = re.search(r"'response_received_count': (\d+)", result.stderr)
    if found is None:
        sys.exit(f"{variant}: no response count in the log\n{result.stderr[-3000:]}")
    return Run(int(found.group(1)), seconds, cpu, peak, peak_pss)


SOURCE_FOLDERS = ("newscorpus", "migrations", "benchmarks")  # what a crawl process imports from a checkout


def compile_bytecode(tree: Path) -> None:
    """The checkout's sources compiled to __pycache__ (written even when PYTHONDONTWRITEBYTECODE is set)."""
    for folder in SOURCE_FOLDERS:
        if not compileall.compile_dir(tree / folder, quiet=1):
            sys.exit(f"cannot compile {tree / folder}")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", default=",".join(VARIANTS), help=f"comma-separated, of {list(VARIANTS)}; "
                        "+near_duplicate_process: every stage, the near-duplicate decision in a process of its own")
    parser.add_argument("--dsn", help="server to store into (a throwaway schema is made); default: embedded")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting of the site spider, e.g. --set NEWSCORPUS_EXTRACTION_WORKERS=2")
    parser.add_argument("--pss", action="store_true", help="also sample the tree's PSS (/proc/PID/smaps_rollup)")
    parser.add_argument("--base-tree", type=Path, help="another checkout of the project (e.g. a worktree of main): "
                        "each variant but plain also runs as base:VARIANT with its code, in the same rounds")
    parser.add_argument("--compile-bytecode", action="store_true",
                        help="compile the project's sources (and --base-tree's) to __pycache__ first, as an installed "
                        "package is; with PYTHONDONTWRITEBYTECODE set a crawl otherwise compiles them at each start")
    return parser.parse_args()


def chosen_variants(args: argparse.Namespace) -> list[str]:
    """The variants to run, each but plain twice (base:VARIANT first) with --base-tree; exit 2 on an unknown one."""
    variants = [name.strip() for name in args.variants.split(",") if name.strip()]
    unknown = [name for name in variants if name not in VARIANTS]
    if unknown:
        print(f"unknown variant(s) {unknown}; choose from {list(VARIANTS)}", file=sys.stderr)
        sys.exit(2)
    if args.base_tree is not None:
        variants = [name for variant in variants
                    for name in ([variant] if variant == "plain" else [BASE + variant, variant])]
    return variants


def round_line(round_number: int, variant: str, run: Run) -> str:
    pss = "" if run.peak_pss is None else f", peak PSS {run.peak_pss / 2**20:.0f} MB"
    return (f"round {round_number + 1} {variant:>20}: {run.pages} pages in {run.seconds:.2f}s = "
            f"{run.pages / run.seconds:.1f} pages/s, {1000 * run.cpu_seconds / run.pages:.1f} CPU ms/page, "
            f"peak RSS {run.peak_rss / 2**20:.0f} MB{pss}")


def run_rounds(args: argparse.Namespace, variants: list[str], overrides: dict, server_dsn: str
               ) -> tuple[dict[str, list[Run]], dict[str, list[float]]]:
    """Every variant once per round, forward then backward in turn; the runs, and per variant its pages/s over
    the plain spider's of the same round."""
    runs: dict[str, list[Run]] = {name: [] for name in variants}
    ratios: dict[str, list[float]] = {}
    with DemoSite(article_count=args.articles) as site, tempfile.TemporaryDirectory() as tmp:
        config_path = Path(tmp) / "demo.toml"
        config_path.write_text(site.site_config_toml(), encoding="utf-8")
        for round_number in range(args.rounds):
            order = variants if round_number % 2 == 0 else variants[::-1]
            for variant in order:
                run = crawl_once(variant, site, server_dsn, config_path, overrides, args.pss, args.base_tree)
                runs[variant].append(run)
                print(round_line(round_number, variant, run), flush=True)
            if "plain" in variants:
                plain = runs["plain"][-1]
                for variant in variants:
                    if variant != "plain":
                        ratios.setdefault(variant, []).append(
                            (runs[variant][-1].pages / runs[variant][-1].seconds) / (plain.pages / plain.seconds))
    return runs, ratios


def print_summary(args: argparse.Namespace, variants: list[str], overrides: dict, runs: dict[str, list[Run]],
                  ratios: dict[str, list[float]]) -> None:
    """The machine, the table of medians per variant, the ratios to the plain spider, the peak RSS per round."""
    bytecode = "precompiled" if args.compile_bytecode else (
        "compiled at each start (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "cached")
    print(f"\n{args.articles} articles, {args.rounds} rounds, settings {overrides or 'default'}, project bytecode "
          f"{bytecode}; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print_table(variants, runs, args.pss)
    if ratios:
        print()
    print_ratios(ratios)
    rss = {variant: [f"{run.peak_rss / 2**20:.0f}" for run in done] for variant, done in runs.items()}
    print("peak RSS MB per round: " + "; ".join(f"{variant} {' '.join(values)}" for variant, values in rss.items()))


def print_table(variants: list[str], runs: dict[str, list[Run]], pss: bool) -> None:
    """Per variant: pages, median pages/s, median CPU per page, max peak RSS (and PSS)."""
    print("| variant | pages | pages/s (median) | crawl CPU ms/page (median) | peak RSS MB (max) |"
          + (" peak PSS MB (max) |" if pss else ""))
    print("|---|---|---|---|---|" + ("---|" if pss else ""))
    for variant in variants:
        done = runs[variant]
        peak_pss = f" {max(r.peak_pss for r in done) / 2**20:.0f} |" if pss else ""
        print(f"| {variant} | {done[0].pages} | {statistics.median(r.pages / r.seconds for r in done):.1f} | "
              f"{statistics.median(1000 * r.cpu_seconds / r.pages for r in done):.1f} | "
              f"{max(r.peak_rss for r in done) / 2**20:.0f} |{peak_pss}")


def print_ratios(ratios: dict[str, list[float]]) -> None:
    for variant, per_round in ratios.items():
        name = variant.removeprefix(BASE)
        label = "all stages" if name == ALL else name
        base = "base: " if variant.startswith(BASE) else ""
        print(f"{base}{label} / plain spider, pages/s: median {statistics.median(per_round):.2f} "
              f"(per round: {', '.join(f'{r:.2f}' for r in per_round)})")


def main() -> None:
    args = parse_arguments()
    variants = chosen_variants(args)
    overrides = dict(item.split("=", 1) for item in args.set)
    if args.compile_bytecode:
        for tree in filter(None, [PROJECT_ROOT, args.base_tree]):
            compile_bytecode(tree)
    server_dsn = resolve_dsn(args.dsn, None)
    runs, ratios = run_rounds(args, variants, overrides, server_dsn)
    print_summary(args, variants, overrides, runs, ratios)


if __name__ == "__main__":
    main()
