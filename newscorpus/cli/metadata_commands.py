"""`newscorpus eval metadata`: publication date, title and author against labelled sets, beside anchor tools."""

from __future__ import annotations

import argparse
import time

from newscorpus.cli.arguments import json_file, name_list, positive_int
from newscorpus.cli.eval_output import anchor_not_installed, floors_exit_code
from newscorpus.cli.groups import get_or_add_group
from newscorpus.cli.main import CommandError
from newscorpus.cli.terminal_progress import track


def register(subparsers: argparse._SubParsersAction) -> None:
    evaluate = get_or_add_group(subparsers, "eval", "evaluate a stage on labelled data").add_parser(
        "metadata", help="date (exact, ±1 day, coverage, precision), title (exact, token F1) and author on labelled "
        "sets, beside htmldate / trafilatura / GNE",
    )
    evaluate.add_argument("data_dirs", nargs="+", metavar="DATA_DIR", help="labelled sets (folders with manifest.json)")
    evaluate.add_argument("--compare", type=name_list, default="",
                          help="comma-separated anchors: htmldate,trafilatura,gne")
    evaluate.add_argument("--jsonl", help="per-page answers and scores (all systems) to this JSONL file")
    evaluate.add_argument("--floors", type=json_file,
                          help="JSON file of floors per measure and dataset; exit 1 when one is missed")
    evaluate.add_argument("--cross-validate", action="store_true",
                          help="also choose the date and author source orders on k-1 site folds, score the k-th")
    evaluate.add_argument("--folds", type=positive_int, default=5, help="number of site folds for --cross-validate")
    evaluate.add_argument("--date-sources", action="store_true",
                          help="also say where each of our publication dates came from, and how many are exact")
    evaluate.set_defaults(func=run_eval_metadata)


def run_eval_metadata(args: argparse.Namespace) -> int:
    from newscorpus.evaluation import metadata_eval as ev
    from newscorpus.evaluation.metadata_anchors import SYSTEMS

    try:
        items = ev.load_items(args.data_dirs)
    except ev.DatasetError as error:
        raise CommandError(str(error)) from error
    anchors, floors = args.compare, args.floors
    unknown = [name for name in anchors if name not in SYSTEMS or name == "newscorpus"]
    if unknown:
        raise CommandError(f"unknown anchor(s) {unknown}; known: {sorted(set(SYSTEMS) - {'newscorpus'})}")
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    systems = {}
    for name in ["newscorpus", *anchors]:
        try:
            systems[name] = SYSTEMS[name]()
        except ImportError as error:
            raise anchor_not_installed(name, error) from error
    all_scores, rows, sites = [], {}, {}
    for name, system in systems.items():
        scores = ev.run_system(name, system, track(items, name, "page"), sites)
        all_scores.extend(scores)
        rows[name] = ev.summarise(scores)
    print(f"# {len(items)} pages from {', '.join(args.data_dirs)}; {started}; shares in %")
    print(ev.format_table(rows))
    if args.jsonl:
        ev.write_jsonl(all_scores, args.jsonl)
    if args.cross_validate:
        from newscorpus.evaluation.metadata_cv import cross_validate

        print(f"# source orders chosen on {args.folds - 1} of {args.folds} site folds, scored on the other")
        for line in cross_validate(items, args.folds):
            print(line)
    if args.date_sources:
        from newscorpus.evaluation.metadata_cv import date_source_lines

        print("# our publication date of each dated page by its source (pages, exact)")
        for line in date_source_lines(items):
            print(line)
    if floors is not None:
        return floors_exit_code(ev.check_floors(rows["newscorpus"], floors))
    return 0
