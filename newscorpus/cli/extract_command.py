"""`newscorpus extract`: the pages the command line names (files, folders, a URL list, stdin), each extracted and
written in the asked format to stdout, a file or a file of its own; what became of them counted and summed up on
stderr (docs/extraction.md, "newscorpus extract"). The extractor, the formats and the fetcher are imported when the
command runs."""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from newscorpus.cli.main import CommandError
from newscorpus.cli.output_files import output_target, replacing

HTML_SUFFIXES = (".html", ".htm")


@dataclass
class _Page:
    """One page to extract: a file, a URL to fetch or standard input; ``label`` names it in messages."""

    label: str
    path: Path | None = None
    url: str | None = None
    fetch: bool = False
    name: str = "stdin"   # its --output-dir file name, before the format's suffix


@dataclass
class _Tally:
    """What became of the pages: extracted, no body (by reason) or an error (by outcome)."""

    read: int = 0
    extracted: int = 0
    no_body: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)

    def summary(self) -> str:
        def detail(counts: Counter) -> str:
            return f" ({', '.join(f'{name} {n}' for name, n in sorted(counts.items()))})" if counts else ""

        return (f"extract: {self.read} page(s) read: {self.extracted} extracted, {sum(self.no_body.values())} no body"
                f"{detail(self.no_body)}, {sum(self.errors.values())} error(s){detail(self.errors)}")


def _html_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.iterdir() if p.suffix.lower() in HTML_SUFFIXES))
        elif path.is_file():
            files.append(path)
        else:
            raise CommandError(f"no such file or directory: {raw}")
    return files


def _manifest_urls(manifests: list[str]) -> dict[str, str]:
    urls: dict[str, str] = {}
    for raw in manifests:
        try:
            manifest = json.loads(Path(raw).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read manifest {raw}: {error}") from error
        for item in manifest.get("items", []) if isinstance(manifest, dict) else []:
            if isinstance(item, dict) and item.get("stem") and item.get("url"):
                urls[item["stem"]] = item["url"]
    return urls


def _url_name(url: str) -> str:
    """A file name for a page's URL: host, port, path and query, other characters as ``_`` (at most 120)."""
    parts = urlsplit(url)
    path = re.sub(r"\.s?html?$", "", parts.path, flags=re.IGNORECASE)
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", parts.netloc + path + ("_" + parts.query if parts.query else ""))
    name = name.strip("._") or "page"
    if len(name) > 120:  # kept apart from another long URL of the same start by its digest
        name = name[:111] + "_" + hashlib.sha1(url.encode("utf-8")).hexdigest()[:8]
    return name


def _pages(args: argparse.Namespace) -> list[_Page]:
    """Every page the command line names, in order: files, --input-dir, -i; standard input when none."""
    urls = _manifest_urls(args.manifest)
    pages = [_Page(str(path), path, urls.get(path.stem), name=path.stem)
             for path in _html_files(args.paths)]
    for raw in args.input_dir:
        folder = Path(raw)
        if not folder.is_dir():
            raise CommandError(f"--input-dir {raw}: no such folder")
        for path in sorted(p for p in folder.rglob("*") if p.suffix.lower() in HTML_SUFFIXES and p.is_file()):
            relative = path.relative_to(folder).with_suffix("")
            pages.append(_Page(str(path), path, urls.get(path.stem), name=relative.as_posix()))
    if args.input_file:
        try:
            lines = Path(args.input_file).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as error:
            raise CommandError(f"cannot read the URL list {args.input_file}: {error.strerror or error}") from None
        listed = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
        pages.extend(_Page(url, url=url, fetch=True, name=_url_name(url)) for url in listed)
    if not (args.paths or args.input_dir or args.input_file):
        if sys.stdin is None or sys.stdin.isatty():
            raise CommandError("nothing to extract: give FILE_OR_DIR, --input-dir DIR, -i URLS, or pipe a page "
                               "on stdin (newscorpus extract < page.html)")
        pages.append(_Page("-", url=args.url, name=_url_name(args.url) if args.url else "stdin"))
    if args.url and (len(pages) != 1 or pages[0].fetch):
        raise CommandError("--url needs exactly one file (or the page on stdin); use --manifest for many")
    if args.url:
        pages[0].url = args.url
    return pages


def _named_outputs(pages: list[_Page], folder: Path, suffix: str, force: bool) -> list[Path]:
    """Each page's --output-dir file (a name taken twice gets -2, -3, ...), refusing existing ones unless
    ``force``."""
    taken: set[str] = set()
    targets = []
    for page in pages:
        name, n = page.name, 1
        while name.lower() in taken:
            n += 1
            name = f"{page.name}-{n}"
        taken.add(name.lower())
        targets.append(folder / (name + suffix))
    existing = [target for target in targets if target.exists()]
    if existing and not force:
        raise CommandError(f"{len(existing)} output file(s) exist in {folder}, e.g. {existing[0]}: --force overwrites "
                           "them, or give another --output-dir")
    return targets


def _output_format(args: argparse.Namespace) -> tuple[str, str | None]:
    from newscorpus.core.extraction_formats import COMPRESSIBLE, SUFFIXES
    from newscorpus.core.record_files import RecordFileError, file_format

    if args.output is None or args.output == "-":
        return args.output_format or "json", None
    try:
        return file_format(args.output, args.output_format, suffixes=SUFFIXES, compressible=COMPRESSIBLE,
                           option="--output-format")
    except RecordFileError as error:
        raise CommandError(str(error)) from None


def _fetcher(args: argparse.Namespace):
    from newscorpus.crawler import settings
    from newscorpus.crawler.polite_fetch import FetchConfig, PoliteFetcher

    return PoliteFetcher(FetchConfig(
        user_agent=args.user_agent or settings.USER_AGENT,
        # the crawl's AutoThrottle starts at this delay per host and only lengthens it
        delay_seconds=settings.AUTOTHROTTLE_START_DELAY if args.delay is None else args.delay,
        timeout_seconds=settings.DOWNLOAD_TIMEOUT if args.timeout is None else args.timeout,
        max_bytes=settings.DOWNLOAD_MAXSIZE,
    ))


def run_extract(args: argparse.Namespace) -> int:
    if args.output is not None and args.output_dir is not None:
        raise CommandError("give -o FILE or --output-dir DIR, not both")
    fetch_flags = [flag for flag, value in (("--delay", args.delay), ("--timeout", args.timeout),
                                            ("--user-agent", args.user_agent)) if value is not None]
    if fetch_flags and not args.input_file:
        raise CommandError(f"{fetch_flags[0]} is for fetching a URL list: give -i URLS")
    fmt, compression = _output_format(args)
    target = None if args.output in (None, "-") else output_target(args.output, args.force)
    pages = _pages(args)
    targets = None
    if args.output_dir is not None:
        from newscorpus.core.extraction_formats import file_suffix

        folder = Path(args.output_dir)
        if folder.exists() and not folder.is_dir():
            raise CommandError(f"--output-dir {folder} is a file: give a folder")
        targets = _named_outputs(pages, folder, file_suffix(fmt), args.force)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"cannot create --output-dir {folder}: {error.strerror or error}") from None
    if target is not None:
        with replacing(target) as stream:
            tally = _extract_pages(args, pages, fmt, stream, compression=compression)
    else:
        tally = _extract_pages(args, pages, fmt, None if targets else sys.stdout.buffer, targets=targets)
    print(tally.summary() + (f"; written to {args.output or args.output_dir}" if target or targets else ""),
          file=sys.stderr)
    return 1 if tally.errors else 0


def _read_page(page: _Page, content_type: str | None, fetcher) -> tuple:
    """(html, content type, url) of a page, or (None, outcome, detail) when it cannot be had."""
    if page.fetch:
        fetched = fetcher.fetch(page.url)
        if fetched.outcome is not None:
            return None, fetched.outcome, fetched.detail
        return fetched.body, fetched.content_type, fetched.url
    try:
        html = page.path.read_bytes() if page.path is not None else sys.stdin.buffer.read()
    except OSError as error:
        return None, "read_error", error.strerror or str(error)
    return html, content_type, page.url


def _extract_pages(args: argparse.Namespace, pages: list[_Page], fmt: str, stream, *, compression: str | None = None,
                   targets: list[Path] | None = None) -> _Tally:
    """Extracts every page, writing each to ``stream`` or its file of ``targets``; a page that cannot be read,
    fetched or written is named on stderr and counted."""
    from newscorpus.cli.terminal_progress import Counter as Progress
    from newscorpus.core.extraction import extract
    from newscorpus.core.extraction_formats import DocumentWriter, document, page_record

    tally = _Tally()
    fetcher = _fetcher(args) if any(page.fetch for page in pages) else None
    writer = (DocumentWriter(stream, fmt, with_metadata=args.with_metadata, many=len(pages) > 1,
                             compression=compression) if stream is not None else None)

    def failed(page: _Page, outcome: str, detail: str | None, counts: Counter) -> None:
        counts[outcome] += 1
        progress.note(f"newscorpus: {outcome}{f' ({detail})' if detail else ''}: {page.label}")

    with Progress("extract", "page", total=len(pages)) as progress:
        for done, page in enumerate(pages, 1):
            tally.read += 1
            read = _read_page(page, args.content_type, fetcher)
            if read[0] is None:
                failed(page, read[1], read[2], tally.errors)
            else:
                html, content_type, url = read
                result = extract(html, url, content_type=content_type, method=args.method)
                record = page_record(result, str(page.path) if page.path else None, url)
                if result.reason is None:
                    tally.extracted += 1
                else:
                    failed(page, result.reason, None, tally.no_body)
                if writer is not None:
                    writer.write(record)
                elif result.reason is None:
                    target = targets[done - 1]
                    try:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(document(record, fmt, args.with_metadata))
                    except OSError as error:
                        failed(page, "write_error", f"{target}: {error.strerror or error}", tally.errors)
            progress.update(done, extracted=tally.extracted, errors=sum(tally.errors.values()))
    if writer is not None:
        writer.close()
    return tally
