"""Files of records (JSONL, CSV, Parquet), plain or compressed, the format told by the file name: what `newscorpus
export` and the crawl's feed exports (`scrapy crawl site -o FILE`) write."""

from __future__ import annotations

import csv
import gzip
import io
import json
from datetime import date, datetime
from json.encoder import encode_basestring
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

FORMATS = ("jsonl", "csv", "parquet")
COMPRESSIONS = {".gz": "gzip", ".zst": "zstd"}
# Parquet compresses its own columns (zstd inside the file): a .parquet.gz could not be read by pyarrow, pandas or
# datasets, so it is refused rather than written.
COMPRESSIBLE = frozenset({"jsonl", "csv"})
PARQUET_ROWS_PER_GROUP = 2000   # the snapshot writer's batch (newscorpus/builds/snapshot.py): a few MB of text


class RecordFileError(ValueError):
    """A file name or format that cannot be written; the message is one line naming the fix."""


def file_format(name: str, override: str | None = None, *, suffixes: dict[str, tuple[str, ...]] | None = None,
                compressible: frozenset[str] = COMPRESSIBLE, option: str = "--format") -> tuple[str, str | None]:
    """(format, compression) for a file name: ``a.jsonl``, ``a.csv.gz``, ``a.jsonl.zst``, ``a.parquet``;
    ``override`` (--format) names the format when the name does not, and wins when both do. ``suffixes`` maps
    another command's formats to the names that tell them (`newscorpus extract`: ``markdown`` from ``.md``),
    ``compressible`` the formats that may end in .gz or .zst, ``option`` the flag that names a format."""
    suffixes = suffixes or {fmt: (fmt,) for fmt in FORMATS}
    lower = name.lower()
    compression = next((codec for suffix, codec in COMPRESSIONS.items() if lower.endswith(suffix)), None)
    stem = lower.rsplit(".", 1)[0] if compression else lower
    inferred = next((fmt for fmt, ends in suffixes.items() if stem.endswith(tuple("." + end for end in ends))), None)
    fmt = override or inferred
    if fmt is None:
        names = [f".{ends[0]}" for ends in suffixes.values()]
        packed = [fmt for fmt in suffixes if fmt in compressible]
        packed_names = " and ".join([", ".join(packed[:-1]), packed[-1]] if len(packed) > 1 else packed)
        tail = ("each but parquet may end in .gz or .zst" if suffixes.keys() == set(FORMATS)
                else f"{packed_names} may end in .gz or .zst")
        raise RecordFileError(f"cannot tell the format of {name}: name it {', '.join(names[:-1])} or {names[-1]} "
                              f"({tail}), or give {option}")
    if fmt not in suffixes:
        raise RecordFileError(f"unknown format {fmt}: choose one of {', '.join(suffixes)}")
    if compression and fmt not in compressible:
        extension = name.rsplit(".", 1)[-1]
        if fmt == "parquet":
            raise RecordFileError(f"{name}: parquet compresses its own columns; name it .parquet, without "
                                  f"{extension!r}")
        raise RecordFileError(f"{name}: {fmt} is written uncompressed; name it without {extension!r}")
    return fmt, compression


class _KeptOpen(io.RawIOBase):
    """A stream whose close only flushes: pyarrow closes the stream it compresses into, which belongs to the
    caller (Scrapy's feed storage, the export's temporary file)."""

    def __init__(self, stream: BinaryIO):
        self.stream = stream

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        return self.stream.write(data)

    def close(self) -> None:
        self.stream.flush()
        super().close()


def _text(value):
    return value.isoformat() if isinstance(value, datetime | date) else value


def _iso(value):
    """JSON's fallback for the values it has no type for: dates in ISO 8601, as ``_text`` writes them."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


# json.dumps(..., ensure_ascii=False) with dates as ISO text, the encoder built once: the C encoder calls _iso only
# for the dates, where a _text call per field cost a third of the export's time (cProfile of 100k rows).
_json_line = json.JSONEncoder(ensure_ascii=False, default=_iso).encode


def _json_date(value: date) -> str:
    return '"' + value.isoformat() + '"'  # ISO 8601 text holds no character JSON escapes


# The JSON text of a value by its exact type, as _json_line writes it (the C encoder's string escaping, int repr,
# dates through _iso); any other type (bool, float, list) goes through _json_line itself. A row's line is built
# from these and each field's precomputed '"name": ', without a dict per row: 17 against 19 us of CPU per row (150k
# rows of benchmarks/search_scale.py's 1M corpus, both alternated in one process); the rest is the fetch, the
# escaping and isoformat.
_JSON_TEXT = {str: encode_basestring, int: int.__repr__, type(None): lambda _: "null", datetime: _json_date,
              date: _json_date}
# Lines are joined into one write up to this many characters: the buffer is bounded in bytes, whatever the
# articles' size (a line count let the 716 long real texts of benchmarks/search_scale.py add 21 MB of peak RSS).
JSON_CHARS_PER_WRITE = 256 * 1024


class RecordWriter:
    """Writes dict records with ``fields`` to a binary stream, in ``fmt``; compressed when asked. Parquet takes
    ``schema`` (a pyarrow schema naming ``fields``); the others write values as text (dates in ISO 8601)."""

    def __init__(self, stream: BinaryIO, fmt: str, fields: tuple[str, ...], *, compression: str | None = None,
                 schema: pa.Schema | None = None):
        self.fields, self.fmt, self.schema = fields, fmt, schema
        self.count = 0
        self._closing: list = []
        if compression == "gzip":
            stream = gzip.GzipFile(fileobj=stream, mode="wb")
            self._closing.append(stream)
        elif compression == "zstd":
            stream = pa.CompressedOutputStream(pa.PythonFile(_KeptOpen(stream), mode="w"), "zstd")
            self._closing.append(stream)
        self.stream = stream
        self._batch: list[tuple] = []  # Parquet rows, as write_row's values
        self._lines: list[str] = []
        self._chars = 0
        self._keys = tuple(encode_basestring(name) + ": " for name in fields)
        self._parquet = None
        self._csv = None
        if fmt == "parquet":
            if schema is None:
                raise ValueError("a parquet file needs a schema")
            self._parquet = pq.ParquetWriter(stream, schema, compression="zstd")
        elif fmt == "csv":
            self._text = io.TextIOWrapper(stream, encoding="utf-8", newline="", write_through=True)
            self._csv = csv.writer(self._text)
            self._csv.writerow(fields)
        elif fmt != "jsonl":
            raise RecordFileError(f"unknown format {fmt}: choose one of {', '.join(FORMATS)}")

    def write(self, record: dict) -> None:
        """One record; a field it lacks is written as null (empty in CSV)."""
        self.write_row(tuple(record.get(name) for name in self.fields))

    def write_row(self, values: tuple) -> None:
        """One record as its values in the order of ``fields``: the same file as ``write`` of their dict."""
        self.count += 1
        if self._parquet is not None:
            self._batch.append(values)
            if len(self._batch) >= PARQUET_ROWS_PER_GROUP:
                self._flush_parquet()
        elif self._csv is not None:
            self._csv.writerow(["; ".join(value) if isinstance(value, list) else _text(value) for value in values])
        else:
            text = _JSON_TEXT.get
            line = "{" + ", ".join([key + (text(type(value)) or _json_line)(value)
                                    for key, value in zip(self._keys, values, strict=True)]) + "}\n"
            self._lines.append(line)
            self._chars += len(line)
            if self._chars >= JSON_CHARS_PER_WRITE:
                self._flush_lines()

    def _flush_lines(self) -> None:
        if self._lines:
            self.stream.write("".join(self._lines).encode("utf-8"))
            self._lines, self._chars = [], 0

    def _flush_parquet(self) -> None:
        if self._batch:
            columns = dict(zip(self.fields, map(list, zip(*self._batch, strict=True)), strict=True))
            self._parquet.write_table(pa.Table.from_pydict(columns, schema=self.schema))
            self._batch = []

    def close(self) -> None:
        """Finish the file (a Parquet footer, a compressed stream's end); the underlying stream stays open."""
        if self._parquet is not None:
            self._flush_parquet()
            self._parquet.close()
        elif self._csv is not None:
            self._text.flush()
            self._text.detach()
        else:
            self._flush_lines()
        for stream in reversed(self._closing):
            stream.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
