"""`newscorpus eval site-aware` (old name `eval siteaware`): per-site F1 of the site-aware cascade vs the generic
extractor vs anchors; `newscorpus templates`: the stored site templates with hit and repair counts."""

from __future__ import annotations

import argparse

from newscorpus.cli.arguments import name_list, positive_int
from newscorpus.cli.database_options import add_database_options, open_database, site_names
from newscorpus.cli.eval_output import load_anchors
from newscorpus.cli.groups import add_parsers, get_or_add_group
from newscorpus.cli.main import CommandError


def register(subparsers: argparse._SubParsersAction) -> None:
    group = get_or_add_group(subparsers, "eval", "evaluate a stage on labelled data")
    for evaluate in add_parsers(group, "site-aware", ("siteaware",),
                                help="per-site F1 of the site-aware cascade (template -> cluster diff -> sibling "
                                "region -> generic) vs generic and anchors"):
        _add_eval_arguments(evaluate)

    templates = subparsers.add_parser("templates", help="site templates (site-aware extraction) with hit/repair counts")
    templates.add_argument("--site", help="one site: its name (e.g. demo) or a host without www.")
    templates.add_argument("--json", action="store_true", help="print each template in full, one JSON line each")
    add_database_options(templates)
    templates.set_defaults(func=run_templates)


def _add_eval_arguments(evaluate: argparse.ArgumentParser) -> None:
    evaluate.add_argument("data_dirs", nargs="+", metavar="DATA_DIR", help="labelled sets (folders with manifest.json)")
    evaluate.add_argument("--compare", type=name_list, default="",
                          help="comma-separated anchors, e.g. trafilatura,readability")
    evaluate.add_argument("--min-pages", type=positive_int, default=2, help="sites with at least this many pages")
    evaluate.add_argument(
        "--repair-experiment",
        action="store_true",
        help="relay half of each site's pages (body class renamed, nested one level deeper); count repairs",
    )
    evaluate.add_argument(
        "--held-out",
        action="store_true",
        help="fit the thresholds leave-one-site-out over the threshold grid and score each held-out site (slow)",
    )
    evaluate.add_argument(
        "--speed",
        type=int,
        nargs="?",
        const=5,
        metavar="ROUNDS",
        help="pages/s cold and with templates warm, generic vs cascade, best of ROUNDS (default 5)",
    )
    evaluate.add_argument(
        "--time-cap", action="store_true", help="seconds per generated huge page: generic vs the cascade, capped or not"
    )
    evaluate.set_defaults(func=run_eval_site_aware)


def template_hosts(dsn: str, site: str | None) -> list[str | None]:
    """The template keys (hosts without www.) ``--site`` names: a stored site's hosts, or a host as given."""
    from newscorpus.store.corpus_reader import site_hosts
    from newscorpus.store.errors import DatabaseError
    from newscorpus.store.site_aware import SiteTemplateStore

    if site is None:
        return [None]
    try:
        if site not in site_names(dsn):
            if not SiteTemplateStore(dsn).has_templates(site) and "." not in site:
                # a host may have no template yet; a name must exist
                names = ", ".join(site_names(dsn)) or "none yet"
                raise CommandError(f"no site or template host named {site!r} (sites: {names}); "
                                   "give a site name or a host without www.")
            return [site]
        return site_hosts(dsn, site)
    except DatabaseError as error:
        raise CommandError(str(error)) from None


def run_templates(args: argparse.Namespace) -> int:
    import json

    from newscorpus.store.site_aware import SiteTemplateStore

    dsn = open_database(args)
    store = SiteTemplateStore(dsn)
    rows = [row for host in template_hosts(dsn, args.site) for row in store.list(host)]
    if args.json:
        for row in rows:
            print(json.dumps(row.template.to_dict() | {"hits": row.hits, "repairs": row.repairs}, ensure_ascii=False))
        return 0
    if not rows:
        print("no templates" + (f" for {args.site}" if args.site else ""))
        return 0
    print(f"{'site':<28}{'type':<9}{'source':<9}{'hits':>7}{'repairs':>9}  fields: XPath queue")
    for row in rows:
        fields = "; ".join(f"{name}: {' | '.join(f.xpaths)}" for name, f in row.template.fields.items())
        print(f"{row.site:<28}{row.page_type:<9}{row.source:<9}{row.hits:>7}{row.repairs:>9}  {fields}")
    return 0


def run_eval_site_aware(args: argparse.Namespace) -> int:
    from newscorpus.evaluation import extraction_eval as ev
    from newscorpus.evaluation import site_aware_eval as sa

    try:
        items = ev.load_items(args.data_dirs)
    except ev.DatasetError as error:
        raise CommandError(str(error)) from error
    if args.speed is not None and args.speed < 1:
        raise CommandError(f"--speed ROUNDS must be at least 1, not {args.speed}")
    anchors = load_anchors(args.compare)
    sites = sa.load_pages(sa.multi_page_sites(items, args.min_pages))
    if not sites:
        raise CommandError(f"no site with {args.min_pages} or more pages")
    for line in sa.report(sites, anchors, args.data_dirs, speed_rounds=args.speed, held_out=args.held_out,
                          time_cap=args.time_cap, repair=args.repair_experiment):
        print(line, flush=True)
    return 0
