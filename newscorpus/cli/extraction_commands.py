"""`newscorpus extract`, `newscorpus eval extraction` and `newscorpus train extraction`."""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from pathlib import Path

from newscorpus.cli.arguments import json_file, name_list, positive_int, positive_seconds, seconds
from newscorpus.cli.eval_output import floors_exit_code, load_anchors
from newscorpus.cli.extract_command import run_extract
from newscorpus.cli.groups import get_or_add_group
from newscorpus.cli.main import CommandError
from newscorpus.cli.terminal_progress import track

# newscorpus.core.extraction.METHODS, written here so that building the parser does not import the extractor
# (tests/cli/test_cli_imports.py checks the two agree).
METHODS = ("default", "punctuation", "blocks")
# newscorpus.core.extraction_formats.FORMATS, written here for the same reason (the same test checks them).
OUTPUT_FORMATS = ("txt", "json", "markdown", "xml", "csv")


def register(subparsers: argparse._SubParsersAction) -> None:
    extract = subparsers.add_parser(
        "extract", help="extract title/author/time/body of HTML files, URLs or stdin as json, csv, txt, markdown "
        "or xml", description="Extract the article of each page: HTML files and folders, --input-dir, a URL list "
        "(-i, fetched politely) or, given none, the page on standard input. One JSON line per page unless "
        "--output-format or -o FILE's extension says otherwise; --output-dir writes one file per page. Progress and "
        "a summary go to stderr; a page that cannot be read is named there and the run goes on (exit 1 at the end).",
    )
    extract.add_argument("paths", nargs="*", metavar="FILE_OR_DIR", help="HTML files, or folders of them")
    extract.add_argument("--input-dir", action="append", default=[], metavar="DIR",
                         help="a folder of HTML files, read with its subfolders (repeatable)")
    extract.add_argument("-i", "--input-file", metavar="URLS",
                         help="a file of URLs, one a line, fetched politely: robots.txt obeyed, --delay per host")
    extract.add_argument("-u", "--url", help="the page's url (a single file or the page on stdin)")
    extract.add_argument(
        "--manifest", action="append", default=[], help="manifest.json giving each stem's url (repeatable)"
    )
    extract.add_argument("--method", choices=METHODS, default="default", help="extraction method (default: default)")
    extract.add_argument("--content-type", help="HTTP Content-Type header to decode files with")
    extract.add_argument("--output", "-o", metavar="FILE",
                         help="write to this file (its extension names the format: .jsonl/.json, .csv, .txt, .md, "
                         ".xml; .jsonl and .csv may end in .gz or .zst) instead of stdout")
    extract.add_argument("--output-dir", metavar="DIR", help="write one file per page here, named after the page")
    extract.add_argument("--output-format", choices=OUTPUT_FORMATS,
                         help="json (default: one JSON line per page), csv, txt, markdown or xml")
    extract.add_argument("--with-metadata", dest="with_metadata", action="store_true", default=True,
                         help="title, authors, dates, site, language with the body (the default)")
    extract.add_argument("--no-metadata", dest="with_metadata", action="store_false",
                         help="the body alone (json/csv: path, url, body, reason)")
    extract.add_argument("--force", action="store_true", help="overwrite the -o file or --output-dir files")
    extract.add_argument("--delay", type=seconds, metavar="SECONDS",
                         help="-i: seconds between two requests to one host (default: the crawl's, 1; robots.txt's "
                         "Crawl-delay when longer)")
    extract.add_argument("--timeout", type=positive_seconds, metavar="SECONDS",
                         help="-i: seconds to wait for a page (default: the crawl's DOWNLOAD_TIMEOUT, 30)")
    extract.add_argument("--user-agent", help="-i: the User-Agent sent (default: the crawl's, $NEWSCORPUS_USER_AGENT)")
    extract.set_defaults(func=run_extract)

    evaluate = get_or_add_group(subparsers, "eval", "evaluate a stage on labelled data").add_parser(
        "extraction", help="P/R/F1 of body extraction on labelled sets, optionally beside anchor tools"
    )
    evaluate.add_argument("data_dirs", nargs="+", metavar="DATA_DIR", help="labelled sets (folders with manifest.json)")
    evaluate.add_argument("--method", choices=METHODS, default="default", help="our method to score (default: default)")
    evaluate.add_argument(
        "--compare",
        type=name_list,
        default="",
        help="comma-separated anchors: trafilatura,trafilatura_precision (both given our decoded text),"
        "trafilatura_plain,trafilatura_bytes,trafilatura_precision_bytes,readability,gne,justext,resiliparse",
    )
    evaluate.add_argument("--jsonl", help="per-page results (all systems) to this JSONL file")
    evaluate.add_argument("--floors", type=json_file,
                          help="JSON file of per-language F1 floors; exit 1 when one is missed")
    evaluate.add_argument(
        "--by",
        choices=["dataset", "site"],
        action="append",
        default=[],
        help="also print F1 per dataset (every system, side by side) or our F1 per site",
    )
    evaluate.add_argument("--worst", type=positive_int, default=0, metavar="N", help="also list our N lowest-F1 pages")
    evaluate.set_defaults(func=run_eval)

    train = get_or_add_group(subparsers, "train", "fit a stage's model on labelled data").add_parser(
        "extraction", help="fit block supports, PSO weights/threshold and punctuation p; write model.json"
    )
    train.add_argument("--data", nargs="+", required=True, metavar="DIR", help="labelled sets to fit on")
    train.add_argument("--seed", type=int, default=20240601, help="random seed (default 20240601)")
    train.add_argument("--output", help="model file (default: the one shipped in the package)")
    train.add_argument(
        "--cross-validate",
        action="store_true",
        help="also report held-out F1 of the default method (its constants re-tuned on each fold's training "
        "pages) over k folds by site (registrable domain), per set and language",
    )
    train.add_argument("--folds", type=positive_int, default=5, help="number of by-site folds for --cross-validate")
    train.add_argument(
        "--all-methods",
        action="store_true",
        help="with --cross-validate: also leave-one-dataset-out for the blocks and punctuation methods and the "
        "default method",
    )
    train.add_argument(
        "--no-fit", action="store_true", help="do not fit or write the block model (cross-validate only)"
    )
    train.add_argument(
        "--block-model",
        metavar="PATH",
        nargs="?",
        const="",
        help="fit the default method's learned block model on the data and write it (default: the one shipped in "
        "the package); needs LightGBM (the eval extra)",
    )
    train.set_defaults(func=run_train)


def run_eval(args: argparse.Namespace) -> int:
    from newscorpus.evaluation import extraction_eval as ev

    try:
        items = ev.load_items(args.data_dirs)
    except ev.DatasetError as error:
        raise CommandError(str(error)) from error
    anchors, floors = load_anchors(args.compare), args.floors
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    all_results = ev.run_system("newscorpus", ev.newscorpus_system(args.method), track(items, "newscorpus", "page"))
    ours = list(all_results)
    rows = {"newscorpus": ev.summarise(ours)}
    for name, system in anchors.items():
        results = ev.run_system(name, system, track(items, name, "page"))
        all_results.extend(results)
        rows[name] = ev.summarise(results)
    header = f"# {len(items)} pages from {', '.join(args.data_dirs)}; method={args.method}; {started}"
    for line in ev.report_lines(rows, all_results, header, args.by, args.worst):
        print(line)
    if args.jsonl:
        ev.write_jsonl(all_results, args.jsonl)
    if floors is not None:
        return floors_exit_code(ev.check_floors(rows["newscorpus"], floors, ours))
    return 0


def run_train(args: argparse.Namespace) -> int:
    from newscorpus.core.extraction import training
    from newscorpus.evaluation import extraction_eval as ev

    if (args.block_model is not None or args.cross_validate) and importlib.util.find_spec("lightgbm") is None:
        raise CommandError("the learned block model is fitted with LightGBM, which is not installed "
                           "(pip install 'newscorpus[eval]')")
    try:
        items = ev.load_items(args.data)
    except ev.DatasetError as error:
        raise CommandError(str(error)) from error
    if not args.no_fit:
        model = training.fit_model(items, seed=args.seed, data_dirs=args.data)
        path = Path(args.output) if args.output else training.DEFAULT_MODEL_PATH
        training.save_model(model, path)
        print(
            f"wrote {path}: train F1 blocks {model['fit']['blocks_f1']:.3f}, punctuation p={model['punctuation_p']:.3f}"
        )
    if args.block_model is not None:
        _write_block_model(items, args)
    if args.cross_validate:
        print(f"# default method, constants re-tuned per fold: {args.folds} folds by site (seed {args.seed})")
        for line in ev.cross_validate_default(ev.site_folds(items, args.folds, args.seed)):
            print(line, flush=True)
        print(f"# default method with the learned block model trained per fold: {args.folds} folds by site")
        for line in ev.cross_validate_learned(ev.site_folds(items, args.folds, args.seed), args.seed):
            print(line, flush=True)
        if args.all_methods:
            for line in ev.cross_validate(items, seed=args.seed):
                print(line)
            print("# default method, constants re-tuned per fold: leave one dataset out")
            for line in ev.cross_validate_default(ev.dataset_folds(items)):
                print(line)
    return 0


def _write_block_model(items: list, args: argparse.Namespace) -> None:
    from newscorpus.core.extraction import block_classifier, block_training
    from newscorpus.evaluation import extraction_eval as ev

    articles = [item for item in items if item.page_type not in ev.NOT_ARTICLE_TYPES]
    by_page = ev.block_rows(articles)
    kept = [item for item in articles if (item.dataset, item.stem) in by_page]
    command = "newscorpus train extraction --data " + " ".join(args.data) + f" --seed {args.seed} --block-model"
    rows = [by_page[(item.dataset, item.stem)] for item in kept]
    model = block_training.fit(rows, args.seed, {"data": list(args.data), "command": command},
                               groups=[ev.site_key(item) for item in kept])
    path = Path(args.block_model) if args.block_model else block_classifier.MODEL_PATH
    path.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    block_classifier.load_model.cache_clear()
    print(f"wrote {path}: {len(model['trees'])} trees over {model['source']['rows']} blocks of {len(rows)} pages")
