"""Search, export and stats at scale: an N-article corpus in a throwaway schema, then p50/p95 of `newscorpus search`
per query class through the CLI and through the SQL alone, the index pass with nothing queued, `export` rate and
peak memory, `stats` time.

    .venv/bin/python -m benchmarks.search_scale [--sizes 100000,300000,1000000] [--rounds 15] [--dsn DSN]
        [--keep-schema NAME] [--parts search,export,stats]

The corpus: N synthetic published articles written by SQL (6-word titles, 150-word bodies over a 50,000-word
Zipf-like vocabulary, indexed by SQL: the same vectors the index pass writes for plain words) plus the real zh and
en texts of /work/shared/data/dedup/docs.jsonl (716 articles), inserted as articles and indexed by the real index
pass (jieba for Chinese), so the Chinese query goes through segmentation. Query classes: a rare, a mid and a
common word, two words, and a Chinese word; their match counts are printed. Anchors of the same run, on the same
corpus: the full ranking (ts_rank_cd over every match, as the search ranked before its candidates were bounded)
and the corpus scan for articles to index that every search ran before the queue, both timed on the same
connection in alternation with the search. The schema is dropped afterwards, unless --keep-schema names it: then a
schema of that name already built is measured again as it is (one size only), and kept; drop it by hand
(`DROP SCHEMA name CASCADE`). --parts measures only some of the search, the export and the stats. Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from newscorpus.builds.search_index import SEARCH_CANDIDATES, index_queued, index_search
from newscorpus.core.search_terms import query_expression
from newscorpus.store.builds import fold_corpus_counts
from newscorpus.store.migrations import migrate
from newscorpus.store.search import ranked_matches
from newscorpus.store.sql import query

CLI = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())"]
DATA = Path(os.environ.get("NEWSCORPUS_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
WORDS = 50_000
SLICE = 100_000  # synthetic articles per INSERT statement


def word(rank: int) -> str:
    """The synthetic vocabulary's word of ``rank`` (newscorpus/store/sql/benchmarks.sql, search_scale_articles)."""
    return "q" + str(rank).translate(str.maketrans("0123456789", "abcdefghij"))


def build(dsn: str, size: int) -> int:
    """The corpus of ``size`` synthetic articles and the real slice; how many real articles were indexed."""
    with psycopg.connect(dsn, autocommit=True) as connection:
        migrate(connection)
        site_id = connection.execute("INSERT INTO sites (name) VALUES ('synthetic') RETURNING id").fetchone()[0]
        real_id = connection.execute("INSERT INTO sites (name) VALUES ('real') RETURNING id").fetchone()[0]
        connection.execute("DROP INDEX article_search_vector_idx")  # built once after the bulk load: faster
        for first in range(1, size + 1, SLICE):
            connection.execute(query("benchmarks.search_scale_articles"),
                               {"site_id": site_id, "first": first, "last": min(size, first + SLICE - 1),
                                "words": WORDS})
            print(f"  {min(size, first + SLICE - 1):,} synthetic articles", file=sys.stderr)
        connection.execute(query("benchmarks.search_scale_index_synthetic"), {"site_id": site_id})
        connection.execute("SET maintenance_work_mem = '1GB'")
        connection.execute("CREATE INDEX article_search_vector_idx ON article_search USING gin (vector)")
        with connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO articles (site_id, url, title, body, language, body_hash, first_seen, last_seen,"
                " updated_at, published_at) VALUES (%s, %s, %s, %s, %s, md5(%s), now(), now(), now(), now())",
                [(real_id, f"https://real.example/{doc['id']}", doc["title"], doc["body"], doc["lang"], doc["body"])
                 for doc in map(json.loads, (DATA / "dedup" / "docs.jsonl").read_text("utf-8").splitlines())])
        connection.execute("VACUUM ANALYZE articles")
        started = time.perf_counter()
        changes = fold_corpus_counts(connection)  # what the first `stats` after the bulk load would fold
        print(f"  corpus counts: {changes:,} changes folded in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    started = time.perf_counter()
    indexed = index_search(dsn)["articles_indexed"]
    seconds = time.perf_counter() - started
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE article_search")
    print(f"  real slice: {indexed} articles indexed in {seconds:.1f} s ({indexed / seconds:.0f}/s)", file=sys.stderr)
    return indexed


def query_classes(dsn: str) -> dict[str, tuple[str, int]]:
    """Query text per class, with its match count."""
    texts = {"rare": word(25_000), "mid": word(450), "common": word(1),
             "two words": f"{word(20)} {word(90)}", "Chinese": "经济"}
    with psycopg.connect(dsn) as connection:
        return {name: (text, connection.execute(query("benchmarks.search_scale_matches"),
                                                {"query": query_expression(text)}).fetchone()[0])
                for name, text in texts.items()}


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _timed(run, *args, **kwargs) -> float:
    started = time.perf_counter()
    run(*args, **kwargs)
    return time.perf_counter() - started


def _fetched(connection: psycopg.Connection, name: str, params: dict | None = None) -> list:
    return connection.execute(query(name), params, prepare=False).fetchall()


def measure_search(dsn: str, classes: dict[str, tuple[str, int]], rounds: int) -> dict:
    """Seconds per round: SQL of the search, the full-ranking anchor, the CLI; and the index pass, the
    corpus-scan anchor. Classes alternate within each round so the machine's load hits all alike."""
    times: dict[str, list[float]] = {}
    env = {**os.environ, "NEWSCORPUS_DB_DSN": dsn}
    with psycopg.connect(dsn, autocommit=True) as connection:
        for _ in range(rounds):
            for name, (text, _) in classes.items():
                expression = query_expression(text)
                times.setdefault(f"sql {name}", []).append(_timed(
                    ranked_matches, connection, expression, limit=20, candidates=SEARCH_CANDIDATES))
                times.setdefault(f"full {name}", []).append(_timed(
                    _fetched, connection, "benchmarks.search_scale_full_ranking", {"query": expression, "limit": 20}))
                times.setdefault(f"cli {name}", []).append(_timed(
                    subprocess.run, [*CLI, "search", text, "--limit", "20"], env=env, capture_output=True, check=True))
            with connection.transaction():
                times.setdefault("index pass, nothing queued", []).append(_timed(index_queued, connection))
            times.setdefault("corpus scan (anchor)", []).append(_timed(
                _fetched, connection, "benchmarks.search_scale_corpus_scan"))
    return times


# The export in a process of its own whose only child it is: that child's peak RSS, not the benchmark's.
PEAK_OF_CHILD = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def measure_export_stats(dsn: str, rounds: int, parts: set[str]) -> dict:
    """export: seconds, articles/s, peak RSS of the export process; stats: seconds per round."""
    env = {**os.environ, "NEWSCORPUS_DB_DSN": dsn}
    measured: dict = {}
    if "export" in parts:
        measured.update(measure_export(env))
    if "stats" in parts:
        measured["stats"] = [_timed(subprocess.run, [*CLI, "stats"], env=env, capture_output=True, check=True)
                             for _ in range(rounds)]
    return measured


def measure_export(env: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "corpus.jsonl"
        started = time.perf_counter()
        result = subprocess.run([sys.executable, "-c", PEAK_OF_CHILD, *CLI, "export", str(out)], env=env,
                                capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - started
        peak_kb = int(result.stdout.split()[-1])
        size_mb = out.stat().st_size / 1e6
        with out.open("rb") as lines:
            count = sum(1 for _ in lines)
    return {"export_seconds": seconds, "exported": count, "export_mb": size_mb, "export_peak_mb": peak_kb / 1024}


def report(size: int, classes: dict, times: dict, other: dict) -> None:
    print(f"\n### {size:,} synthetic articles (+ the real slice)\n")
    if times:
        report_search(classes, times)
    if "export_seconds" in other:
        print(f"`export` {other['exported']:,} articles in {other['export_seconds']:.1f} s "
              f"({other['exported'] / other['export_seconds']:,.0f} articles/s, {other['export_mb']:.0f} MB), "
              f"peak RSS {other['export_peak_mb']:.0f} MB.")
    if "stats" in other:
        t50, t95 = percentiles(other["stats"])
        print(f"`stats` {t50:.2f} / {t95:.2f} s (p50 / p95 of {len(other['stats'])}).")


def report_search(classes: dict, times: dict) -> None:
    print("| query | matches | search SQL p50 / p95 | full-ranking SQL p50 / p95 (anchor) | "
          "SQL ratio p50 | CLI p50 / p95 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, (text, matches) in classes.items():
        s50, s95 = percentiles(times[f"sql {name}"])
        f50, f95 = percentiles(times[f"full {name}"])
        c50, c95 = percentiles(times[f"cli {name}"])
        print(f"| {name} `{text}` | {matches:,} | {s50 * 1e3:.1f} / {s95 * 1e3:.1f} ms | "
              f"{f50 * 1e3:.1f} / {f95 * 1e3:.1f} ms | {s50 / f50:.3f} | {c50:.2f} / {c95:.2f} s |")
    i50, i95 = percentiles(times["index pass, nothing queued"])
    a50, a95 = percentiles(times["corpus scan (anchor)"])
    print(f"\nBefore the search, nothing queued: index pass {i50 * 1e3:.2f} / {i95 * 1e3:.2f} ms (p50 / p95); "
          f"the corpus scan it replaces {a50 * 1e3:.0f} / {a95 * 1e3:.0f} ms (ratio {i50 / a50:.4f}).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,300000,1000000")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--dsn", default=os.environ.get("NEWSCORPUS_TEST_DSN",
                                                        "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--keep-schema", metavar="NAME",
                        help="build the corpus in this schema (or reuse it, already built) and keep it afterwards")
    parser.add_argument("--parts", default="search,export,stats", help="what to measure, of search,export,stats")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    if not parts <= {"search", "export", "stats"}:
        parser.error(f"--parts: unknown part(s) {', '.join(sorted(parts - {'search', 'export', 'stats'}))}")
    if args.keep_schema and "," in args.sizes:
        parser.error("--keep-schema keeps one corpus: give one size")
    if not (DATA / "dedup" / "docs.jsonl").is_file():  # before an hour of corpus building, not after
        print(f"search_scale: no {DATA / 'dedup' / 'docs.jsonl'} (the real slice): set NEWSCORPUS_SHARED_DATA",
              file=sys.stderr)
        sys.exit(2)
    print(f"`python -m benchmarks.search_scale --sizes {args.sizes} --rounds {args.rounds}`; "
          f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; candidates ranked per search: {SEARCH_CANDIDATES}")
    for size in (int(value) for value in args.sizes.split(",")):  # ascending: export's peak RSS is per size
        schema = args.keep_schema or f"bench_search_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(args.dsn, autocommit=True) as admin:
            built = admin.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone() is not None
            if not built:
                admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        dsn = make_conninfo(args.dsn, options=f"-csearch_path={schema}")
        try:
            if built:
                print(f"reusing schema {schema} as built", file=sys.stderr)
                with psycopg.connect(dsn, autocommit=True) as connection:
                    migrate(connection)  # a migration added since the build applies to it too
            else:
                print(f"building {size:,} articles in schema {schema}", file=sys.stderr)
                build(dsn, size)
            classes = query_classes(dsn) if "search" in parts else {}
            times = measure_search(dsn, classes, args.rounds) if "search" in parts else {}
            other = measure_export_stats(dsn, args.rounds if "search" not in parts else 3, parts)
            report(size, classes, times, other)
            sys.stdout.flush()
        finally:
            if not args.keep_schema:
                with psycopg.connect(args.dsn, autocommit=True) as admin:
                    admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


if __name__ == "__main__":
    main()
