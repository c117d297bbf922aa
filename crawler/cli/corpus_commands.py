"""`newscorpus articles|show|export|reextract`: read the stored corpus, or extract it again."""

from __future__ import annotations

import csv
import json
import sys
from datetime import date, datetime

from crawler.cli.database_options import add_database_options, open_database
from crawler.cli.main import CommandError
from pipelines.db.connection import DatabaseError, connect
from pipelines.db.named_queries import query
from pipelines.db.reextraction import reextract

EXPORT_FIELDS = ("id", "site", "url", "title", "author", "published_at", "language", "body",
                 "extraction_method", "first_seen", "last_seen")


def register(subparsers) -> None:
    articles = subparsers.add_parser("articles", help="list stored articles, newest first")
    articles.add_argument("--site")
    articles.add_argument("--since", type=_date, help="published (or first seen) on or after DATE (YYYY-MM-DD)")
    articles.add_argument("--limit", type=int, default=50)
    add_database_options(articles)
    articles.set_defaults(func=run_articles)

    show = subparsers.add_parser("show", help="print one stored article")
    show.add_argument("url")
    show.add_argument("--json", action="store_true", help="as one JSON object")
    add_database_options(show)
    show.set_defaults(func=run_show)

    export = subparsers.add_parser("export", help="write the corpus to a file")
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    export.add_argument("--site")
    export.add_argument("out", help="output file, or - for standard output")
    add_database_options(export)
    export.set_defaults(func=run_export)

    again = subparsers.add_parser("reextract", help="extract the stored raw pages again")
    again.add_argument("--site")
    add_database_options(again)
    again.set_defaults(func=run_reextract)


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--since {value!r}: expected a date like 2026-11-22") from None


def _fetch(args, name: str, params: dict) -> list[tuple]:
    dsn = open_database(args)
    try:
        with connect(dsn) as connection:
            cursor = connection.execute(query(name), params)
            return [dict(zip([c.name for c in cursor.description], row, strict=True)) for row in cursor]
    except DatabaseError as error:
        raise CommandError(str(error)) from None


def run_articles(args) -> int:
    if args.limit < 1:
        raise CommandError("--limit must be at least 1")
    rows = _fetch(args, "list_articles", {"site": args.site, "since": args.since, "limit": args.limit})
    for row in rows:
        when = (row["published_at"] or row["first_seen"]).strftime("%Y-%m-%d")
        print(f"{when}  {row['site']:<12} {row['language'] or '-':<3} {row['body_chars']:>6}  "
              f"{row['title'] or '(no title)'}\n{'':>12}{row['url']}")
    print(f"{len(rows)} article(s)", file=sys.stderr)
    return 0


def run_show(args) -> int:
    rows = _fetch(args, "show_article", {"url": args.url})
    if not rows:
        raise CommandError(f"no article stored for {args.url}")
    row = rows[0]
    if args.json:
        print(json.dumps(row, ensure_ascii=False, default=_json_default, indent=2))
        return 0
    for name in ("title", "url", "site", "author", "published_at", "language", "extraction_method",
                 "encoding", "first_seen", "last_seen"):
        print(f"{name}: {row[name] if row[name] is not None else '-'}")
    print()
    print(row["body"])
    return 0


def _json_default(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(type(value))


def run_export(args) -> int:
    dsn = open_database(args)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8", newline="")
    count = 0
    try:
        with connect(dsn) as connection, connection.cursor(name="export_articles") as cursor:
            cursor.execute(query("export_articles"), {"site": args.site})
            writer = csv.writer(out) if args.format == "csv" else None
            if writer:
                writer.writerow(EXPORT_FIELDS)
            for row in cursor:
                record = dict(zip(EXPORT_FIELDS, row, strict=True))
                if writer:
                    writer.writerow([_json_default(v) if isinstance(v, datetime | date) else v
                                     for v in record.values()])
                else:
                    out.write(json.dumps(record, ensure_ascii=False, default=_json_default) + "\n")
                count += 1
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot write {args.out}: {error}") from None
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"exported {count} article(s) to {args.out}", file=sys.stderr)
    return 0


def run_reextract(args) -> int:
    dsn = open_database(args)

    def progress(counts) -> None:
        print(f"\rre-extracted {counts['pages']} page(s), {counts['outcome/article']} article(s)",
              end="", file=sys.stderr, flush=True)

    try:
        counts = reextract(dsn, args.site, progress=progress)
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    print(file=sys.stderr)
    for name, value in sorted(counts.items()):
        print(f"{name}: {value}")
    return 0
