"""WARC files as plain values: which paths are WARC files, their response records (FastWARC), and a rotating
WARC/1.1 writer (warcio), one gzip member per record. Imports no Scrapy, Twisted or psycopg."""

from __future__ import annotations

import glob
import gzip
import io
import os
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path

WARC_SUFFIXES = (".warc", ".warc.gz")
LIST_SUFFIXES = (".txt", ".paths", ".lst")       # a list file: one WARC path a line (CC-NEWS's warc.paths)
GZIP_MAGIC = b"\x1f\x8b"
WARC_MAGIC = b"WARC/"
# A gzip member's start, searched for past a corrupt record (every record is its own member in CC and our files).
MEMBER_START = b"\x1f\x8b\x08"
RESYNC_CHUNK = 1 << 20


class WarcPathError(ValueError):
    """A path given to ingest that is missing, or no WARC file: one line for the user."""


@dataclass(frozen=True)
class WarcResponse:
    """One `response` or `revisit` record: where it is, what it says of the fetch, and the HTTP payload (content
    encodings undone)."""
    file: str
    offset: int
    record_type: str            # "response" | "revisit"
    url: str
    date: datetime | None       # WARC-Date
    status: int | None          # None: no HTTP status line (not an HTTP record)
    content_type: str | None    # the HTTP Content-Type header as sent (charset included)
    body: bytes
    truncated: str | None       # WARC-Truncated: "length", "time", ... when the payload was cut


@dataclass(frozen=True)
class WarcFault:
    """A record that could not be read; reading goes on after it."""
    file: str
    offset: int
    error: str


def is_warc_file(path: str | os.PathLike) -> bool:
    """Whether the file starts with a WARC record (through gzip when it is gzipped)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(2)
            handle.seek(0)
            if head == GZIP_MAGIC:
                try:
                    with gzip.GzipFile(fileobj=handle) as unzipped:
                        head = unzipped.read(len(WARC_MAGIC))
                except (OSError, EOFError):
                    return False
            else:
                head = handle.read(len(WARC_MAGIC))
    except OSError:
        return False
    return head == WARC_MAGIC


def _listed(list_file: Path) -> list[str]:
    opener = gzip.open if list_file.name.endswith(".gz") else open
    with opener(list_file, "rt", encoding="utf-8") as handle:
        lines = [line.strip() for line in handle]
    return [str(list_file.parent / line) if not os.path.isabs(line) else line
            for line in lines if line and not line.startswith("#")]


def warc_paths(arguments: list[str]) -> list[str]:
    """The WARC files that ``arguments`` name: files, folders (their *.warc and *.warc.gz, sorted), globs and list
    files (*.txt, *.paths, *.lst, gzipped or not: one path a line, relative to the list). Order kept, each file
    once; a missing path, an empty glob or a file that is no WARC raises WarcPathError naming it."""
    found: list[str] = []
    for argument in arguments:
        if glob.has_magic(argument):
            matches = sorted(glob.glob(argument, recursive=True))
            if not matches:
                raise WarcPathError(f"{argument}: no file matches")
            candidates = matches
        else:
            candidates = [argument]
        for candidate in candidates:
            path = Path(candidate)
            if path.is_dir():
                found.extend(sorted(str(p) for p in path.rglob("*") if p.is_file() and p.name.endswith(WARC_SUFFIXES)))
            elif not path.exists():
                raise WarcPathError(f"{candidate}: no such file or folder")
            elif path.name.removesuffix(".gz").endswith(LIST_SUFFIXES) and not is_warc_file(path):
                found.extend(warc_paths(_listed(path)))
            else:
                found.append(str(path))
    unique = list(dict.fromkeys(found))
    for path in unique:
        if not is_warc_file(path):
            raise WarcPathError(f"{path}: not a WARC file (no WARC/ record at its start)")
    if not unique:
        raise WarcPathError(f"{' '.join(arguments)}: no WARC files (*.warc, *.warc.gz) found")
    return unique


def _response(path: str, record, revisit) -> WarcResponse:
    headers = record.headers
    record_type = "revisit" if record.record_type == revisit else "response"
    status = content_type = None
    if record.is_http:
        status = record.http_headers.status_code
        content_type = record.http_headers.get("Content-Type")
    body = record.reader.read() if record_type == "response" else b""
    # GNU wget writes the URI in angle brackets, as a draft of WARC 1.1 had it
    url = (headers.get("WARC-Target-URI") or "").strip().removeprefix("<").removesuffix(">")
    return WarcResponse(
        file=path, offset=record.stream_pos, record_type=record_type, url=url,
        date=record.record_date, status=status, content_type=content_type, body=body,
        truncated=headers.get("WARC-Truncated"))


def _next_member(handle, start: int) -> int | None:
    """The offset of the first gzip member that starts after ``start``, or None at the end of the file."""
    position = start + 1
    while True:
        handle.seek(position)
        chunk = handle.read(RESYNC_CHUNK + len(MEMBER_START))
        if len(chunk) < len(MEMBER_START):
            return None
        found = chunk.find(MEMBER_START)
        if found >= 0:
            return position + found
        position += RESYNC_CHUNK


def read_responses(path: str) -> Iterator[WarcResponse | WarcFault]:
    """The file's response and revisit records in file order, HTTP content encodings undone. Unreadable bytes are
    one WarcFault (its offset: the last record read before them); in a gzipped file reading goes on at the next
    gzip member that reads (one record per member), in a plain file the rest of the file is lost."""
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    wanted = (WarcRecordType.response, WarcRecordType.revisit)
    with open(path, "rb") as handle:
        gzipped = handle.read(2) == GZIP_MAGIC
        start: int | None = 0
        last = 0
        failing = False   # the last attempt failed before reading a record: still the same fault
        while start is not None:
            handle.seek(start)
            try:
                for record in ArchiveIterator(handle, parse_http=True, auto_decode="all", fsspec_args=False):
                    last, failing = record.stream_pos, False   # absolute offsets, whatever the seek
                    if record.record_type in wanted:
                        yield _response(path, record, WarcRecordType.revisit)
                start = None
            except Exception as error:  # noqa: BLE001 - a corrupt record is counted; the file goes on
                if not failing:
                    yield WarcFault(path, last, f"{type(error).__name__}: {error}"[:300])
                failing = True
                start = _next_member(handle, max(last, start)) if gzipped else None


# --- writing ---------------------------------------------------------------------------------------------------

def _warc_date(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class HttpExchange:
    """One fetch, as the crawler saw it on the wire: the request sent and the response received."""
    url: str
    method: str
    request_headers: list[tuple[str, str]]
    protocol: str               # "HTTP/1.1"
    status: int
    response_headers: list[tuple[str, str]]
    body: bytes                 # as received (content encodings kept; the headers say which)
    date: datetime


def _http_headers(lines: list[tuple[str, str]], *, drop: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    return [(name, value) for name, value in lines if name.lower() not in drop]


class RotatingWarcWriter:
    """Writes exchanges as WARC/1.1 request + response records, each record one gzip member, into
    ``directory/PREFIX-TIMESTAMP-PID-SERIAL.warc.gz``; a new file, opened by a warcinfo record naming the
    software, once the current one holds ``max_bytes``. Safe to call from one writer thread."""

    def __init__(self, directory: str | os.PathLike, max_bytes: int, software: str, prefix: str = "newscorpus"):
        if max_bytes <= 0:
            raise ValueError(f"max_bytes must be > 0, not {max_bytes}")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.max_bytes = max_bytes
        self.software = software
        self.prefix = prefix
        self.files: list[str] = []
        self.records = 0
        self._serial = 0
        self._handle = None
        self._writer = None
        self._lock = threading.Lock()
        self._stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")

    def _open(self) -> None:
        from warcio.warcwriter import WARCWriter

        name = f"{self.prefix}-{self._stamp}-{os.getpid()}-{self._serial:05d}.warc.gz"
        self._serial += 1
        path = self.directory / name
        self._handle = open(path, "wb")  # noqa: SIM115 - held across writes, closed by _close
        self._writer = WARCWriter(self._handle, gzip=True, warc_version="WARC/1.1")
        info = self._writer.create_warcinfo_record(name, {"software": self.software, "format": "WARC File Format 1.1",
                                                          "conformsTo": "https://iipc.github.io/warc-specifications/"
                                                                        "specifications/warc-format/warc-1.1/"})
        self._writer.write_record(info)
        self.files.append(str(path))

    def _close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = self._writer = None

    def write(self, exchange: HttpExchange) -> None:
        from warcio.statusandheaders import StatusAndHeaders

        with self._lock:
            if self._handle is not None and self._handle.tell() >= self.max_bytes:
                self._close()
            if self._handle is None:
                self._open()
            writer = self._writer
            date = _warc_date(exchange.date)
            try:
                reason = HTTPStatus(exchange.status).phrase
            except ValueError:
                reason = ""
            # The body is stored as received, so a Content-Length of the wire stays right; chunking is undone by
            # the client, so Transfer-Encoding would lie about the stored bytes.
            response_headers = _http_headers(exchange.response_headers, drop=("transfer-encoding", "content-length"))
            response_headers.append(("Content-Length", str(len(exchange.body))))
            http = StatusAndHeaders(f"{exchange.status} {reason}".strip(), response_headers,
                                    protocol=exchange.protocol)
            response_id = f"<urn:uuid:{uuid.uuid4()}>"
            response = writer.create_warc_record(
                exchange.url, "response", payload=io.BytesIO(exchange.body), http_headers=http,
                warc_headers_dict={"WARC-Date": date, "WARC-Record-ID": response_id})
            target = exchange.url.split("://", 1)[-1]
            path = "/" + target.split("/", 1)[1] if "/" in target else "/"
            request_http = StatusAndHeaders(f"{exchange.method} {path} HTTP/1.1", exchange.request_headers,
                                            is_http_request=True)
            request = writer.create_warc_record(
                exchange.url, "request", payload=io.BytesIO(b""), http_headers=request_http,
                warc_headers_dict={"WARC-Date": date, "WARC-Concurrent-To": response_id})
            writer.write_record(request)
            writer.write_record(response)
            self._handle.flush()   # whole records on disk: a file can be read while the crawl runs
            self.records += 2

    def close(self) -> None:
        with self._lock:
            self._close()
