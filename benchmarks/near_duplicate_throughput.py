"""Documents/s through near-duplicate detection (keywords with jieba, simhash, sketch, candidates, decision)
against an index already holding 0, 10k and 100k synthetic articles: in memory, or (--postgres) the whole
stage's work against Postgres (newscorpus.store.near_duplicate.records.record_articles: locks, lookups, decision,
features and postings written; a batch of articles per transaction, as the stage's group batching under
load), for both keyword layouts (a posting table with a btree, a GIN index).

The measured documents are the dev set's texts (only id, lang, title, body are read), streamed in file order
into an index pre-filled with synthetic articles. Synthetic keyword sets draw from the dev set's own keyword
vocabulary (Zipf-weighted, so common keywords get long postings) plus rare made-up words; their fingerprints
and sketches are random. In memory: CPU time of this process, i.e. per core. Postgres: docs/s per core =
documents / CPU seconds of this process and its server backend (client and server share the machine), and
the wall time of one worker; the index is loaded with COPY into a throwaway schema, dropped at the end.

    .venv/bin/python benchmarks/near_duplicate_throughput.py [--docs ../shared/data/dedup/docs.jsonl] \
        [--sizes 0,10000,100000]
    .venv/bin/python benchmarks/near_duplicate_throughput.py --postgres postgresql://postgres@127.0.0.1:5432/test \
        [--sizes 10000,100000] [--layouts table,gin] [--batch-sizes 1,32] [--rounds 3]
    .venv/bin/python benchmarks/near_duplicate_throughput.py --postgres DSN --interleave --sizes 10000,100000,250000 \
        [--layouts table] [--batch-sizes 64] [--rounds 6]

--interleave: growth without the machine's drift. Every size is loaded first, each in its own schema, then the
rounds measure the sizes one after the other (forward, then backward: a linear drift weighs on every size
alike), so the sizes of a round share a few minutes of the machine; per size the median over rounds, and the
median of the per-round ratios to the first size. It also counts work, which does not depend on the machine's
speed: index tuples read from the posting table and buffers touched per document (the server's statistics
for the size's schema).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import time
from collections.abc import Iterable
from pathlib import Path

from psycopg import sql

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import DocumentFeatures, build_features
from newscorpus.core.near_duplicate.index import InMemoryNearDuplicateIndex, find_duplicates
from newscorpus.core.near_duplicate.keywords import segmentation_language
from newscorpus.core.near_duplicate.shingle_sketch import SKETCH_SIZE, ShingleSketch
from newscorpus.store.sql import query

SEED = 20261122


def synthetic_features(count: int, vocabulary: list[str], rng: random.Random) -> list[DocumentFeatures]:
    zipf = [1 / (rank + 1) for rank in range(len(vocabulary))]
    sketches = [
        ShingleSketch(tuple(sorted(rng.getrandbits(63) for _ in range(SKETCH_SIZE))), 2000, 2004) for _ in range(64)
    ]
    made = []
    for i in range(count):
        shared = rng.choices(vocabulary, weights=zipf, k=10)
        own = [f"w{rng.randrange(count * 3)}" for _ in range(30)]
        made.append(
            DocumentFeatures(
                lang="zh" if i % 3 == 0 else "en",
                keywords=frozenset(shared + own),
                title_keywords=tuple(shared[:4]),
                simhash=rng.getrandbits(64),
                sketch=sketches[i % len(sketches)],
                body_hash=f"synthetic{i}",
                token_count=2004,
            )
        )
    return made


def measure(docs: list[dict], filler: list[DocumentFeatures], config: NearDuplicateConfig) -> dict[str, float]:
    index = InMemoryNearDuplicateIndex(config.simhash_distance)
    for i, features in enumerate(filler):
        index.add(f"s{i}", features)
    gc.collect()
    gc.freeze()  # the filler is long-lived: keep the cyclic GC from re-walking it (the Postgres index won't be in RAM)
    spent: dict[str, float] = {"zh": 0.0, "en": 0.0}
    for doc in docs:
        start = time.process_time()
        features = build_features(doc["title"], doc["body"], doc["lang"], config)
        find_duplicates(features, index, config)
        index.add(doc["id"], features)
        spent[doc["lang"]] += time.process_time() - start
    counts = {lang: sum(1 for d in docs if d["lang"] == lang) for lang in spent}
    result = {f"{lang} docs/s": counts[lang] / spent[lang] for lang in spent if spent[lang]}
    result["all docs/s"] = len(docs) / sum(spent.values())
    return result


def load_postgres(connection, filler: list[DocumentFeatures], layout: str, config: NearDuplicateConfig) -> None:
    """Empty the index tables and bulk-load the synthetic articles (COPY), then VACUUM ANALYZE."""
    from newscorpus.core.near_duplicate.simhash import block_keys, to_signed

    connection.execute("TRUNCATE near_duplicate_features, near_duplicate_keywords, near_duplicate_blocks")
    connection.execute("DROP INDEX IF EXISTS near_duplicate_features_keywords_gin")
    columns = ("id, url, site_id, language, source_hash, body_hash, simhash, token_count, shingle_count, sketch, "
               "keywords, title_keywords")
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY near_duplicate_features ({columns}) FROM STDIN") as copy:
            for i, f in enumerate(filler, start=1):
                copy.write_row((i, f"https://synthetic.example/{i}", 1, f.lang, "", f.body_hash,
                                to_signed(f.simhash), f.token_count, f.sketch.shingle_count, list(f.sketch.hashes),
                                sorted(f.keywords), list(f.title_keywords)))
        if layout == "table":
            with cursor.copy("COPY near_duplicate_keywords (keyword, article_id) FROM STDIN") as copy:
                for i, f in enumerate(filler, start=1):
                    for keyword in f.keywords:
                        copy.write_row((keyword, i))
        with cursor.copy("COPY near_duplicate_blocks (block_key, article_id) FROM STDIN") as copy:
            for i, f in enumerate(filler, start=1):
                for key in block_keys(f.simhash, config.simhash_distance):
                    copy.write_row((key, i))
    if layout == "gin":
        connection.execute("CREATE INDEX near_duplicate_features_keywords_gin ON near_duplicate_features "
                           "USING gin (keywords)")
    connection.execute("SELECT setval('near_duplicate_features_id_seq', %s)", (len(filler) + 1,))
    connection.execute("VACUUM ANALYZE near_duplicate_features, near_duplicate_keywords, near_duplicate_blocks")


def index_bytes(connection, layout: str) -> dict[str, float]:
    """Bytes per indexed article: the features rows (heap, TOAST, their indexes), the keyword index (posting
    table and its btree, or the GIN index), the simhash block keys."""
    rows = connection.execute("SELECT count(*) FROM near_duplicate_features").fetchone()[0]
    size = dict(connection.execute(query("benchmarks.near_duplicate_index_sizes"), {"layout": layout}).fetchall())
    return {name: value / rows for name, value in size.items()}


def backend_cpu(pid: int) -> float:
    """CPU seconds used so far by a server backend on this machine (/proc: utime + stime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_postgres(dsn: str, docs: list[dict], filler: list[DocumentFeatures], layout: str,
                     config: NearDuplicateConfig, batch_size: int, rounds: int = 1) -> dict[str, float]:
    """The stream through the stage against the loaded filler (emptied: see below); with several rounds, the
    measured articles are deleted and the tables vacuumed between rounds, and the round with the least CPU is
    kept (on a shared machine, other work only ever adds)."""
    from newscorpus.store.connection import connect

    with connect(dsn, autocommit=True) as connection:
        load_postgres(connection, filler, layout, config)
        indexed = len(filler)
        # The stage's process does not hold the index: the filler's ~10 objects per article kept alive here made
        # every full cyclic GC walk them, client CPU the stage would not pay.
        filler.clear()
        gc.collect()
        set_commit_mode(connection)
        results = []
        for round_number in range(rounds):
            if round_number:
                forget_measured(connection, indexed)
            results.append(measure_stream(connection, docs, layout, config, batch_size))
        result = min(results, key=lambda r: r["all ms/doc"])
        result.update({f"{k} B/article": v for k, v in index_bytes(connection, layout).items()})
    return result


def forget_measured(connection, indexed: int) -> None:
    """Delete the articles a round stored (ids after the filler's) and undo their links (a filler article they
    were promoted over), then VACUUM: the next round meets the same index."""
    for part in ("postings", "blocks", "links", "features"):
        connection.execute(query(f"benchmarks.near_duplicate_forget_{part}"), {"indexed": indexed})
    connection.execute("VACUUM ANALYZE near_duplicate_features, near_duplicate_keywords, near_duplicate_blocks")


def measure_stream(connection, docs: list[dict], layout: str, config: NearDuplicateConfig, batch_size: int) -> dict:
    from newscorpus.core.text import source_hash
    from newscorpus.store.near_duplicate.records import ArticleToRecord, record_articles

    backend = connection.execute("SELECT pg_backend_pid()").fetchone()[0]
    spent = {"features": 0.0, "client": 0.0, "server": 0.0}  # CPU seconds: this process, its server backend
    wall = 0.0
    duplicates = 0
    for first in range(0, len(docs), batch_size):  # as the stage: features, then one transaction per batch
        batch = docs[first:first + batch_size]
        start, start_cpu, start_server = time.perf_counter(), time.process_time(), backend_cpu(backend)
        articles = [
            ArticleToRecord(doc["id"], 1, source_hash(doc["title"], doc["body"]),
                            build_features(doc["title"], doc["body"], segmentation_language(doc["body"]), config))
            for doc in batch
        ]
        features_cpu = time.process_time()
        outcomes = record_articles(connection, articles, config, layout)
        wall += time.perf_counter() - start
        spent["features"] += features_cpu - start_cpu
        spent["client"] += time.process_time() - features_cpu
        spent["server"] += backend_cpu(backend) - start_server
        duplicates += sum(1 for outcome in outcomes if outcome.status == "duplicate")
    result = {"duplicates": duplicates}
    result["all docs/s"] = len(docs) / sum(spent.values())
    result["wall docs/s"] = len(docs) / wall
    result.update({f"{part} ms/doc": seconds * 1e3 / len(docs) for part, seconds in spent.items()})
    result["all ms/doc"] = sum(spent.values()) * 1e3 / len(docs)
    return result


def set_commit_mode(connection) -> None:
    """The measured connection's synchronous_commit (off unless DEDUP_BENCH_SYNC_COMMIT says otherwise)."""
    mode = os.environ.get("DEDUP_BENCH_SYNC_COMMIT", "off")
    connection.execute(sql.SQL("SET synchronous_commit = {}").format(sql.Literal(mode)))


def create_bench_schema(dsn: str, schema: str) -> str:
    """A throwaway schema with every migration applied and the synthetic site; its DSN (search_path set)."""
    from psycopg.conninfo import make_conninfo

    from newscorpus.store.connection import connect
    from newscorpus.store.migrations import migrate

    with connect(dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    schema_dsn = make_conninfo(dsn, options=f"-csearch_path={schema}")
    with connect(schema_dsn) as connection:
        migrate(connection)
        connection.execute("INSERT INTO sites (name) VALUES ('synthetic')")
    return schema_dsn


def drop_bench_schemas(dsn: str, schemas: Iterable[str]) -> None:
    from newscorpus.store.connection import connect

    with connect(dsn, autocommit=True) as admin:
        for schema in schemas:
            admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def run_postgres(dsn: str, docs: list[dict], sizes: list[int], layouts: list[str], batch_sizes: list[int],
                 vocabulary: list[str], config: NearDuplicateConfig, rounds: int = 1) -> None:
    schema = f"bench_dedup_{random.Random().getrandbits(32):08x}"
    try:
        schema_dsn = create_bench_schema(dsn, schema)
        print("| layout | batch | indexed articles | docs/s per core | wall docs/s (1 worker) | duplicates found "
              "| CPU ms/doc: features, client database, server "
              "| features B/article | keyword index B/article | simhash blocks B/article |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for layout in layouts:
            for batch_size in batch_sizes:
                for size in sizes:
                    filler = synthetic_features(size, vocabulary, random.Random(SEED + size))
                    r = measure_postgres(schema_dsn, docs, filler, layout, config, batch_size, rounds)  # empties filler
                    print(f"| {layout} | {batch_size} | {size} | {r['all docs/s']:.0f} | {r['wall docs/s']:.0f} "
                          f"| {r['duplicates']} "
                          f"| {r['features ms/doc']:.2f}, {r['client ms/doc']:.2f}, {r['server ms/doc']:.2f} "
                          f"| {r['features B/article']:.0f} "
                          f"| {r['keywords B/article']:.0f} | {r['blocks B/article']:.0f} |", flush=True)
    finally:
        drop_bench_schemas(dsn, [schema])


def schema_work(connection, schema: str) -> dict[str, int]:
    """Cumulative work on a schema's tables, from the server's statistics: index tuples read from the keyword
    posting table; buffers touched (heap, indexes, TOAST) in all its tables, and of those the ones not found in
    shared_buffers (read from the operating system)."""
    postings = connection.execute(query("benchmarks.schema_postings_read"), {"schema": schema}).fetchone()[0]
    hits, reads = connection.execute(query("benchmarks.schema_buffers"), {"schema": schema}).fetchone()
    return {"postings": int(postings), "buffers": int(hits + reads), "buffer reads": int(reads)}


def flush_statistics(connection) -> None:
    """Make this backend's pending table statistics visible to other sessions (Postgres 15+)."""
    connection.execute("SELECT pg_stat_force_next_flush()")
    connection.execute("SELECT 1")  # the flush happens when the backend goes idle after a transaction


def run_interleaved(dsn: str, docs: list[dict], sizes: list[int], layout: str, batch_size: int,
                    vocabulary: list[str], config: NearDuplicateConfig, rounds: int) -> None:
    from statistics import median

    from newscorpus.store.connection import connect

    tag = f"{random.Random().getrandbits(32):08x}"
    schemas = {size: f"bench_dedup_{tag}_{size}" for size in sizes}
    connections = {}
    try:
        for size, schema in schemas.items():
            connection = connect(create_bench_schema(dsn, schema), autocommit=True)
            connections[size] = connection
            start = time.perf_counter()
            load_postgres(connection, synthetic_features(size, vocabulary, random.Random(SEED + size)), layout, config)
            gc.collect()
            set_commit_mode(connection)
            print(f"loaded {size} synthetic articles into {schema} in {time.perf_counter() - start:.0f} s",
                  flush=True)
        measured: dict[int, list[dict]] = {size: [] for size in sizes}
        with connect(dsn, autocommit=True) as observer:
            for round_number in range(rounds):
                order = sizes if round_number % 2 == 0 else sizes[::-1]
                for size in order:
                    connection = connections[size]
                    before = schema_work(observer, schemas[size])
                    result = measure_stream(connection, docs, layout, config, batch_size)
                    flush_statistics(connection)
                    time.sleep(0.2)
                    after = schema_work(observer, schemas[size])
                    result.update({f"{k} /doc": (after[k] - before[k]) / len(docs) for k in after})
                    measured[size].append(result)
                    forget_measured(connection, size)
                print(f"round {round_number + 1}: " + ", ".join(
                    f"{size} {measured[size][-1]['all ms/doc']:.2f} ms/doc" for size in order), flush=True)
        first = sizes[0]
        print(f"\n{layout}, batches of {batch_size}, {rounds} rounds; median over rounds "
              f"(per-round ratio: this size's ms/doc over {first}'s in the same round, median)")
        print("| indexed articles | docs/s per core | CPU ms/doc: features, client database, server "
              "| all ms/doc, rounds min–max | ratio to first: all, server | postings read /doc "
              "| buffers /doc (not in shared_buffers) | duplicates |")
        print("|---|---|---|---|---|---|---|---|")
        for size in sizes:
            rows = measured[size]
            med = {key: median(r[key] for r in rows) for key in rows[0]}
            pairs = list(zip(rows, measured[first], strict=True))
            ratio_all = median(r["all ms/doc"] / f["all ms/doc"] for r, f in pairs)
            ratio_server = median(r["server ms/doc"] / f["server ms/doc"] for r, f in pairs)
            spread = f"{min(r['all ms/doc'] for r in rows):.2f}–{max(r['all ms/doc'] for r in rows):.2f}"
            duplicates = sorted({r["duplicates"] for r in rows})
            print(f"| {size} | {1e3 / med['all ms/doc']:.0f} "
                  f"| {med['features ms/doc']:.2f}, {med['client ms/doc']:.2f}, {med['server ms/doc']:.2f} "
                  f"| {med['all ms/doc']:.2f}, {spread} | {ratio_all:.2f}, {ratio_server:.2f} "
                  f"| {med['postings /doc']:.0f} | {med['buffers /doc']:.0f} ({med['buffer reads /doc']:.1f}) "
                  f"| {'/'.join(map(str, duplicates))} |", flush=True)
    finally:
        for connection in connections.values():
            connection.close()
        drop_bench_schemas(dsn, schemas.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", default="../shared/data/dedup/docs.jsonl")
    parser.add_argument("--sizes", default=None, help="indexed articles (default 0,10000,100000; Postgres "
                                                       "10000,100000)")
    parser.add_argument("--postgres", metavar="DSN", help="measure the whole stage against Postgres")
    parser.add_argument("--layouts", default="table,gin", help="Postgres keyword index layouts")
    parser.add_argument("--batch-sizes", default="1,32", help="Postgres: articles per transaction, as the stage's "
                                                            "NEWSCORPUS_NEAR_DUPLICATE_BATCH_SIZE (1 = one by one)")
    parser.add_argument("--rounds", type=int, default=1, help="Postgres: measure each configuration this many "
                                                               "times on one load, keep the least CPU")
    parser.add_argument("--interleave", action="store_true", help="Postgres: load every size side by side, then "
                                                                    "measure them in turn each round (see above)")
    parser.add_argument("--demo", type=int, metavar="N", help="measure the demo site's first N articles "
                        "(newscorpus.demo.pages, as the crawl benchmarks serve them: ~30 candidates each) instead of "
                        "--docs")
    args = parser.parse_args()
    if args.demo:
        from newscorpus.demo.pages import generate_articles

        docs = [{"id": f"demo{number}", "lang": article.lang, "title": article.title, "body": article.body}
                for number, article in enumerate(generate_articles(args.demo))]
    else:
        with Path(args.docs).open(encoding="utf-8") as lines:
            docs = [{k: row[k] for k in ("id", "lang", "title", "body")} for row in map(json.loads, lines)]
    config = NearDuplicateConfig()
    build_features("热身", "预热分词词典", "zh", config)  # jieba's one-off dictionary load is not counted
    vocabulary = sorted({k for d in docs for k in build_features(d["title"], d["body"], d["lang"], config).keywords})
    sizes = [int(s) for s in (args.sizes or ("10000,100000" if args.postgres else "0,10000,100000")).split(",")]
    if args.interleave:
        if not args.postgres:
            parser.error("--interleave measures against Postgres: give --postgres DSN")
        layouts, batch_sizes = args.layouts.split(","), [int(b) for b in args.batch_sizes.split(",")]
        if len(layouts) != 1 or len(batch_sizes) != 1:
            parser.error("--interleave measures one configuration: give one --layouts and one --batch-sizes")
        run_interleaved(args.postgres, docs, sizes, layouts[0], batch_sizes[0], vocabulary, config, args.rounds)
        return
    if args.postgres:
        batch_sizes = [int(b) for b in args.batch_sizes.split(",")]
        run_postgres(args.postgres, docs, sizes, args.layouts.split(","), batch_sizes, vocabulary, config, args.rounds)
        return
    rng = random.Random(SEED)
    print("| indexed articles | zh docs/s | en docs/s | all docs/s |\n|---|---|---|---|")
    for size in sizes:
        result = measure(docs, synthetic_features(size, vocabulary, rng), config)
        print(f"| {size} | {result['zh docs/s']:.0f} | {result['en docs/s']:.0f} | {result['all docs/s']:.0f} |")


if __name__ == "__main__":
    main()
