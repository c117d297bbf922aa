"""Line-noise stage throughput against a real Postgres, and the size of the line tables after many synthetic
articles from many sites (kept bounded by pruning).

    .venv/bin/python -m benchmarks.line_noise_throughput --dsn postgresql://postgres@127.0.0.1:5432/test

Each article goes through what the stage does: hash its lines, one `count_article` round trip (LineNoiseStore),
clean its body. Work happens in a throwaway schema, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import time
import uuid

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from newscorpus.core.line_noise import LineNoiseConfig, article_hashes, body_lines, clean_body
from newscorpus.core.text import body_hash
from newscorpus.store.line_noise import LineNoiseStore, table_sizes
from newscorpus.store.migrations import migrate
from newscorpus.store.sql import query

BOILERPLATE_PER_SITE = 12     # footer, share prompts, editor line, related-links headers ...
BOILERPLATE_PER_ARTICLE = 6
BODY_LINES = 15               # a news story of ~15 paragraphs
WORDS = "the of and to in a is that for it as was with be by on not he this are or his from at which".split()


def synthetic_article(rng: random.Random, site: int, number: int) -> tuple[str, str]:
    boilerplate = [f"Site {site} boilerplate line {chr(97 + k)}: share, follow, copyright 2026."
                   for k in range(BOILERPLATE_PER_SITE)]
    lines = rng.sample(boilerplate, BOILERPLATE_PER_ARTICLE)
    lines += [" ".join(rng.choices(WORDS, k=rng.randint(12, 30))) + f" {rng.getrandbits(64):x}."
              for _ in range(BODY_LINES)]
    rng.shuffle(lines)
    return f"https://site{site}.example/{number}.html", "\n".join(lines)


async def run_articles(dsn: str, config: LineNoiseConfig, articles: list[tuple[int, str, str]], writers: int,
                       checkpoints: dict[int, dict], checkpoint_every: int, vacuum: bool) -> tuple[float, int]:
    queue: asyncio.Queue = asyncio.Queue()
    for article in articles:
        queue.put_nowait(article)
    done = 0
    removed = 0

    async def worker() -> None:
        nonlocal done, removed
        store = LineNoiseStore(dsn, config)
        try:
            while not queue.empty():
                site_id, url, body = queue.get_nowait()
                lines = body_lines(body)
                hashes, samples = article_hashes(lines)
                counted = await store.count_article(site_id, url, body_hash(body), hashes, samples)
                cleaning = clean_body(body, counted.counts, counted.articles_seen, config, counted.allowed, lines)
                removed += len(cleaning.removed)
                done += 1
                if checkpoint_every and done % checkpoint_every == 0:
                    with psycopg.connect(dsn, autocommit=True) as connection:
                        if vacuum:  # what autovacuum does on a server where it is on (it is off on the dev one)
                            connection.execute("VACUUM line_counts, line_samples")
                        checkpoints[done] = table_sizes(connection)
        finally:
            await store.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(writers)))
    return time.perf_counter() - start, removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=os.environ.get("NEWSCORPUS_TEST_DSN",
                                                        "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--articles", type=int, default=100_000)
    parser.add_argument("--sites", type=int, default=20)
    parser.add_argument("--writers", type=int, default=4, help="concurrent connections (stage workers)")
    parser.add_argument("--prune-interval", type=int, default=LineNoiseConfig().prune_interval)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--no-vacuum", action="store_true",
                        help="do not VACUUM the line tables at each of the 20 checkpoints")
    args = parser.parse_args(argv)

    config = LineNoiseConfig(prune_interval=args.prune_interval)
    rng = random.Random(args.seed)
    articles = [(site + 1, *synthetic_article(rng, site, number))
                for number in range(args.articles // args.sites) for site in range(args.sites)]
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(args.dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        server_version = admin.info.server_version
    dsn = make_conninfo(args.dsn, options=f"-csearch_path={schema}")
    try:
        with psycopg.connect(dsn) as connection:
            migrate(connection)
            connection.execute(query("benchmarks.insert_numbered_sites"), {"count": args.sites})
            connection.commit()
        checkpoints: dict[int, dict] = {}
        seconds, removed = asyncio.run(run_articles(dsn, config, articles, args.writers, checkpoints,
                                                    max(len(articles) // 20, 1), not args.no_vacuum))
        with psycopg.connect(dsn) as connection:
            final = table_sizes(connection)
            autovacuum = connection.execute("SHOW autovacuum").fetchone()[0]
    finally:
        with psycopg.connect(args.dsn, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))

    lines_per_article = BOILERPLATE_PER_ARTICLE + BODY_LINES
    unpruned = args.sites * BOILERPLATE_PER_SITE + len(articles) * BODY_LINES
    print(f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} CPUs, Python {platform.python_version()},"
          f" Postgres {server_version // 10000}.{server_version % 10000}")
    print(f"{len(articles)} articles, {args.sites} sites, {lines_per_article} lines each, {args.writers} writers, "
          f"prune every {args.prune_interval} articles of a site; autovacuum {autovacuum}, "
          f"{'no VACUUM' if args.no_vacuum else 'VACUUM of the line tables every 5 %'}")
    print(f"throughput: {len(articles) / seconds:.0f} articles/s ({seconds:.1f} s), "
          f"{len(articles) * lines_per_article / seconds:.0f} lines/s, {removed} noise lines removed")
    print("articles  line_counts rows  line_counts MB  line_samples rows  ledger rows  ledger MB")
    for done, sizes in sorted({**checkpoints, len(articles): final}.items()):
        print(f"{done:>8}  {sizes['line_counts_rows']:>16}  {sizes['line_counts_bytes'] / 1e6:>13.1f}"
              f"  {sizes['line_samples_rows']:>17}  {sizes['ledger_rows']:>11}  {sizes['ledger_bytes'] / 1e6:>9.1f}")
    print(f"without pruning line_counts would hold {unpruned} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
