"""`newscorpus clean|noise|eval line-noise` (old name `eval linenoise`): count a site's line statistics again and
clean every stored article with them (newscorpus.builds.reextraction), show and allow-list a site's noise lines,
evaluate the filter on labelled multi-page sites."""

from __future__ import annotations

import sys

from newscorpus.cli.arguments import limit, positive_int
from newscorpus.cli.database_options import add_database_options, no_such_site, open_database, site_names
from newscorpus.cli.groups import add_parsers, get_or_add_group
from newscorpus.cli.main import CommandError


def register(subparsers) -> None:
    clean = subparsers.add_parser("clean", help="count the line statistics again from the stored articles and "
                                                 "clean every article with them, as the crawl's end does")
    clean.add_argument("--site", help="only this site (default: every site)")
    _add_setting_option(clean)
    add_database_options(clean)
    clean.set_defaults(func=run_clean)

    noise = subparsers.add_parser("noise", help="a site's lines removed most often; allow-list one")
    noise.add_argument("--site", required=True, help="the site whose noise lines to show")
    noise.add_argument("--limit", type=limit, default=20, help="at most this many lines (default 20)")
    noise.add_argument("--allow", metavar="HASH_OR_TEXT",
                       help="never remove this line on this site (then run `newscorpus clean --site S`)")
    add_database_options(noise)
    noise.set_defaults(func=run_noise)

    for evaluate in add_parsers(get_or_add_group(subparsers, "eval"), "line-noise", ("linenoise",),
                                help="extraction P/R/F1 with and without line-noise removal, on multi-page sites"):
        _add_eval_arguments(evaluate)


def _add_eval_arguments(evaluate) -> None:
    evaluate.add_argument("directories", nargs="+", metavar="DIR", help="labelled sets (manifest.json)")
    evaluate.add_argument("--plot", metavar="PNG", help="write the learning curve (precision by position)")
    evaluate.add_argument("--min-pages", type=positive_int, default=2, help="sites with at least this many pages")
    evaluate.add_argument("--method", default="default",
                          help="extraction method feeding the filter (default, punctuation, blocks)")
    evaluate.add_argument("--check", action="store_true",
                          help="exit 1 when recall drops more than 1 point or precision drops")
    _add_setting_option(evaluate)
    evaluate.set_defaults(func=run_eval)


def _add_setting_option(parser) -> None:
    parser.add_argument("-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="override a NEWSCORPUS_LINE_NOISE_* setting (defaults: LineNoiseConfig, "
                             "newscorpus/core/line_noise.py)")


def _config(args):
    from dataclasses import fields

    from newscorpus.crawler.stage_settings import RENAMED, STAGES, setting_name
    from newscorpus.pipelines.line_noise import config_from_settings

    field_names = [field.name for field in fields(STAGES["LINE_NOISE"])]
    known = {setting_name("LINE_NOISE", name) for name in field_names}
    known |= {old for old, new in RENAMED.items() if new in known}
    values = {}
    for assignment in args.settings:
        name, equals, value = assignment.partition("=")
        if not equals or name not in known:
            raise CommandError(f"-s {assignment!r}: expected NEWSCORPUS_LINE_NOISE_<FIELD>=VALUE, FIELD one of "
                               + ", ".join(sorted(field.upper() for field in field_names)))
        values[name] = value
    try:
        return config_from_settings(values)
    except ValueError as error:
        raise CommandError(str(error)) from None


def run_clean(args) -> int:
    from newscorpus.builds.reextraction import clean
    from newscorpus.cli.terminal_progress import Counter
    from newscorpus.store.errors import DatabaseError

    config = _config(args)
    dsn = open_database(args)
    if args.site and args.site not in site_names(dsn):
        raise CommandError(no_such_site(args.site, site_names(dsn)))
    try:
        with Counter("cleaning", "article") as bar:
            totals = clean(dsn, args.site, config,
                           progress=lambda t: bar.update(t["cleaned"], lines_removed=t["lines_removed"]))
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    for name in ("sites", "cleaned", "cleaned_changed", "lines_removed", "empty_after_cleaning",
                 "near_duplicates_rechecked", "changed"):
        print(f"{name}: {totals[name]}")
    return 0


def run_noise(args) -> int:
    from newscorpus.store import line_noise as store
    from newscorpus.store.connection import connect
    from newscorpus.store.errors import DatabaseError

    dsn = open_database(args)
    try:
        with connect(dsn, autocommit=True) as connection:
            site_id = store.site_id_of(connection, args.site)
            if site_id is None:
                raise CommandError(no_such_site(args.site, site_names(dsn)))
            if args.allow:
                try:
                    digest, text = store.parse_line_ref(args.allow)
                except ValueError as error:
                    raise CommandError(str(error)) from None
                if not store.line_article_count(connection, site_id, digest):
                    raise CommandError(f"no stored article of {args.site} has the line {args.allow!r} (hash {digest}); "
                                       f"`newscorpus noise --site {args.site}` lists its noise lines")
                store.allow_line(connection, site_id, digest, text)
                print(f"allowed on {args.site}: {digest} (run `newscorpus clean --site {args.site}` to apply)")
                return 0
            rows = store.noise_report(connection, site_id, args.limit)
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    print(f"{'removed':>8} {'LC':>7}  {'hash':<36}  line")
    for row in rows:
        flag = " [allowed]" if row["allowed"] else ""
        print(f"{row['removed']:>8} {row['articles']:>7}  {row['line_hash']}  {row['sample'] or '-'}{flag}")
    print(f"{len(rows)} line(s); removed = stored articles it was removed from, LC = articles containing it",
          file=sys.stderr)
    return 0


def run_eval(args) -> int:
    from newscorpus.evaluation import line_noise_eval
    from newscorpus.evaluation.extraction_eval import DatasetError

    config = _config(args)
    try:
        results = line_noise_eval.run(args.directories, config, min_pages=args.min_pages, method=args.method)
    except (DatasetError, OSError, ValueError) as error:
        raise CommandError(str(error)) from None
    if not results:
        raise CommandError(f"no site with at least {args.min_pages} labelled pages")
    print(line_noise_eval.format_report(results))
    print(line_noise_eval.format_learning_curve(results))
    if args.plot:
        line_noise_eval.plot_learning_curve(results, args.plot)
        print(f"learning curve written to {args.plot}", file=sys.stderr)
    problems = line_noise_eval.check_recall(results)
    for problem in problems:
        print(f"check: {problem}", file=sys.stderr)
    return 1 if args.check and problems else 0
