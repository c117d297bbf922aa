"""`newscorpus articles|show|export|reextract`: read the stored corpus, or extract it again."""

from __future__ import annotations

import json
import sys
from datetime import date, datetime

from newscorpus.cli.arguments import iso_date, limit
from newscorpus.cli.database_options import add_database_options, check_site, open_database
from newscorpus.cli.main import CommandError
from newscorpus.cli.output_files import output_target, replacing

EXPORT_FIELDS = ("id", "site", "url", "title", "author", "published_at", "language", "body",
                 "extraction_method", "first_seen", "last_seen")
DUPLICATE_FIELDS = ("canonical_url", "duplicate_method", "duplicate_score")


def register(subparsers) -> None:
    articles = subparsers.add_parser("articles", help="list stored articles, newest first",
                                     description="List stored articles (near-duplicates included), newest first.")
    articles.add_argument("--site", help="only this site (a name from the sites table, e.g. demo)")
    articles.add_argument("--since", type=iso_date, metavar="DATE",
                          help="published (or first seen) on or after DATE (YYYY-MM-DD)")
    articles.add_argument("--limit", type=limit, default=50, help="at most this many (default 50)")
    add_database_options(articles)
    articles.set_defaults(func=run_articles)

    show = subparsers.add_parser(
        "show", help="print one stored article",
        description="Print one stored article. The body is the published text (line noise removed, as `export` "
                    "writes it); --extracted prints the extractor's output before cleaning.")
    show.add_argument("url", help="the article's URL, as `newscorpus articles` lists it")
    show.add_argument("--json", action="store_true", help="as one JSON object (both bodies)")
    show.add_argument("--extracted", action="store_true",
                      help="print the extracted body before line-noise cleaning instead of the published one")
    add_database_options(show)
    show.set_defaults(func=run_show)

    export = subparsers.add_parser(
        "export", help="write the published corpus (or --all articles) to a JSONL or CSV file",
        description="Write the published corpus (the corpus_articles view: near-duplicates left out, line noise "
                    "removed) to a file; --all writes every stored article with its duplicate link.")
    export.add_argument("--format", choices=("jsonl", "csv", "parquet"),
                        help="file format (default: from OUT's extension, .jsonl/.csv/.parquet, each but parquet "
                             "with .gz or .zst; jsonl for -)")
    export.add_argument("--site", help="only this site")
    export.add_argument("--all", action="store_true",
                        help="every stored article, near-duplicates included, with canonical_url, "
                             "duplicate_method and duplicate_score")
    export.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    export.add_argument("out", metavar="OUT", help="output file, or - for standard output")
    add_database_options(export)
    export.set_defaults(func=run_export)

    again = subparsers.add_parser("reextract", help="extract the stored raw pages again (after an extractor change)")
    again.add_argument("--site", help="only this site (default: every site)")
    add_database_options(again)
    again.set_defaults(func=run_reextract)


def _reading(read, *args, **kwargs):
    """``read(*args, **kwargs)`` of the store's corpus reader; a CommandError when the database cannot be used."""
    from newscorpus.store.errors import DatabaseError

    try:
        return read(*args, **kwargs)
    except DatabaseError as error:
        raise CommandError(str(error)) from None


def run_articles(args) -> int:
    from newscorpus.store.corpus_reader import list_articles

    dsn = open_database(args)
    check_site(dsn, args.site)
    rows = _reading(list_articles, dsn, args.site, args.since, args.limit)
    if rows:   # date: published, else first seen
        print(f"{'date':<10}  {'site':<12} {'lng':<3} {'chars':>6}  title, and the URL below it")
    for row in rows:
        when = (row["published_at"] or row["first_seen"]).strftime("%Y-%m-%d")
        print(f"{when}  {row['site']:<12} {row['language'] or '-':<3} {row['body_chars']:>6}  "
              f"{row['title'] or '(no title)'}\n{'':>12}{row['url']}")
    print(f"{len(rows)} article(s)", file=sys.stderr)
    return 0


def run_show(args) -> int:
    from newscorpus.store.corpus_reader import show_article

    row = _reading(show_article, open_database(args), args.url)
    if row is None:
        raise CommandError(f"no article stored for {args.url} (`newscorpus articles` lists the stored URLs)")
    if args.json:
        print(json.dumps(row, ensure_ascii=False, default=_json_default, indent=2))
        return 0
    for name in ("title", "url", "site", "author", "published_at", "language", "extraction_method",
                 "encoding", "first_seen", "last_seen"):
        print(f"{name}: {row[name] if row[name] is not None else '-'}")
    if row["canonical_url"]:
        print(f"near-duplicate of: {row['canonical_url']} ({row['duplicate_method']} "
              f"{row['duplicate_score']:.3f}; not in the published corpus, `export --all` has it)")
    if args.extracted:
        print("body: as extracted, before line-noise cleaning")
        body = row["extracted_body"]
    elif row["cleaned"]:
        print("body: published text (line noise removed; `export` writes this; --extracted for the extractor's)")
        body = row["body"]
    else:
        print("body: as extracted (not cleaned: its site's line statistics were not ready); `export` writes this")
        body = row["body"]
    print()
    print(body)
    return 0


def _json_default(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(type(value))


def run_export(args) -> int:
    import contextlib

    from newscorpus.core.record_files import RecordFileError, RecordWriter, file_format
    from newscorpus.store.corpus_reader import exported_articles
    from newscorpus.store.errors import DatabaseError

    target = None if args.out == "-" else output_target(args.out, args.force)
    try:
        fmt, compression = ((args.format or "jsonl", None) if args.out == "-"
                            else file_format(args.out, args.format))
    except RecordFileError as error:
        raise CommandError(str(error)) from None
    if fmt == "parquet" and args.out == "-":
        raise CommandError("parquet needs a file (its footer is written last): give OUT.parquet, not -")
    dsn = open_database(args)
    check_site(dsn, args.site)
    fields = EXPORT_FIELDS + DUPLICATE_FIELDS if args.all else EXPORT_FIELDS
    schema = export_schema(fields) if fmt == "parquet" else None
    # written beside the target and renamed at the end: a failed export leaves no half file
    output = replacing(target) if target is not None else contextlib.nullcontext(sys.stdout.buffer)
    try:
        with output as out, exported_articles(dsn, args.site, everything=args.all) as rows, \
                RecordWriter(out, fmt, fields, compression=compression, schema=schema) as writer:
            for row in rows:
                writer.write_row(row)
            count = writer.count
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    except OSError as error:  # standard output
        raise CommandError(f"cannot write {args.out}: {error.strerror or error}") from None
    what = "article(s), near-duplicates included" if args.all else "article(s) of the published corpus"
    print(f"exported {count} {what} to {args.out} ({fmt}{', ' + compression if compression else ''})",
          file=sys.stderr)
    return 0


def export_schema(fields: tuple[str, ...]):
    """The Parquet schema of an export: docs/database.md ("Export files") lists it."""
    import pyarrow as pa

    timestamp = pa.timestamp("us", tz="UTC")
    types = {"id": pa.int64(), "published_at": timestamp, "first_seen": timestamp, "last_seen": timestamp,
             "duplicate_score": pa.float64()}
    return pa.schema([(name, types.get(name, pa.string())) for name in fields])


def run_reextract(args) -> int:
    from newscorpus.builds.reextraction import reextract
    from newscorpus.cli.terminal_progress import Counter
    from newscorpus.store.errors import DatabaseError

    dsn = open_database(args)
    check_site(dsn, args.site)

    try:
        with Counter("re-extracting", "page") as bar:
            counts = reextract(dsn, args.site, progress=lambda c: bar.update(c["pages"], articles=c["articles"]))
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    for name, value in sorted(counts.items()):
        print(f"{name}: {value}")
    return 0
