"""`newscorpus near-duplicates`: near-duplicate clusters of the corpus; `newscorpus eval near-duplicate`:
near-duplicate detection against the baselines on the labelled data (old names `dups`, `eval dedup`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from newscorpus.cli.arguments import json_file, limit, name_list
from newscorpus.cli.eval_output import floors_exit_code
from newscorpus.cli.groups import add_parsers, get_or_add_group

BASELINE_NAMES = ("chunk-md5", "simhash-k3", "simhash-k7", "minhash-lsh")


def register(subparsers: argparse._SubParsersAction) -> None:
    from newscorpus.cli.database_options import add_database_options

    for clusters in add_parsers(subparsers, "near-duplicates", ("dups",),
                                help="near-duplicate clusters: canonical article and its duplicates"):
        clusters.add_argument("--site", help="clusters with an article of this site (default: every site)")
        clusters.add_argument("--limit", type=limit, default=20, help="clusters shown, largest first (default 20)")
        add_database_options(clusters)
        clusters.set_defaults(func=run_near_duplicates)

    group = get_or_add_group(subparsers, "eval", "evaluate a stage on labelled data")
    for evaluate in add_parsers(group, "near-duplicate", ("dedup",),
                                help="pair P/R/F1, CE/EE, ARI and docs/s of near-duplicate detection beside the "
                                "baselines"):
        _add_eval_arguments(evaluate)


def _add_eval_arguments(evaluate: argparse.ArgumentParser) -> None:
    evaluate.add_argument("data_dir", metavar="DATA_DIR", help="folder with docs.jsonl, pairs.jsonl, clusters.jsonl")
    evaluate.add_argument(
        "--compare",
        type=name_list,
        default=",".join(BASELINE_NAMES),
        help=f"comma-separated baselines, or 'none' (default: {','.join(BASELINE_NAMES)})",
    )
    evaluate.add_argument("--floors", type=json_file, default={},
                          help="JSON file {lang: {f1_min, ce_max}}; exit 1 when one is missed")
    evaluate.add_argument("--jsonl", help="our per-pair decisions and measures to this JSONL file")
    evaluate.add_argument(
        "--tune", action="store_true", help="fit w, m, the overlap measure, tau and body_tau; report 2-fold CV"
    )
    evaluate.set_defaults(func=run_eval_near_duplicate)


def run_near_duplicates(args: argparse.Namespace) -> int:
    from newscorpus.cli.database_options import check_site, open_database
    from newscorpus.store.near_duplicate.index import list_clusters

    dsn = open_database(args)
    check_site(dsn, args.site)
    clusters = list_clusters(dsn, args.site, args.limit)
    if not clusters:
        print("no near-duplicate clusters" + (f" for site {args.site}" if args.site else ""))
    for cluster in clusters:
        print(f"{cluster['title'] or '(no title)'}\n  canonical [{cluster['site']}] {cluster['url']}")
        for member in cluster["members"]:
            print(f"  duplicate [{member['site']}] {member['url']}  {member['method']} {member['score']:.3f}")
    return 0


def _baselines(given: list[str]) -> list[str]:
    from newscorpus.cli.main import CommandError

    names = [name for name in given if name != "none"]
    unknown = sorted(set(names) - set(BASELINE_NAMES))
    if unknown:
        raise CommandError(f"unknown baseline(s) {', '.join(unknown)}; choose from {', '.join(BASELINE_NAMES)}")
    return names


def run_eval_near_duplicate(args: argparse.Namespace) -> int:
    from newscorpus.cli.main import CommandError
    from newscorpus.core.near_duplicate.config import NearDuplicateConfig
    from newscorpus.evaluation.near_duplicate_eval import load_near_duplicate_data
    from newscorpus.evaluation.near_duplicate_runner import check_floors, run_near_duplicate_eval, write_decisions

    data_dir = Path(args.data_dir)
    if not data_dir.is_dir():
        raise CommandError(f"no such directory: {data_dir}")
    compare, floors = _baselines(args.compare), args.floors
    try:
        data = load_near_duplicate_data(data_dir)
    except (OSError, ValueError, KeyError) as error:
        raise CommandError(f"cannot read the near-duplicate data in {data_dir}: {error}") from error
    outcome = run_near_duplicate_eval(data, NearDuplicateConfig(), compare, args.tune)
    print(outcome.report())
    if args.jsonl and outcome.stream_run is not None:
        write_decisions(Path(args.jsonl), outcome.stream_run, outcome.config, data)
    failures = check_floors(outcome.ours(), floors, outcome.series)
    return floors_exit_code(failures) if floors or failures else 0
