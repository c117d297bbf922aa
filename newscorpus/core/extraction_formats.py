"""An extracted page as txt, json, markdown, xml or csv: what `newscorpus extract` writes, one document per page
(docs/extraction.md, "newscorpus extract", describes each format)."""

from __future__ import annotations

import io
import re
from typing import BinaryIO
from xml.etree import ElementTree

from newscorpus.core.record_files import RecordWriter

FORMATS = ("txt", "json", "markdown", "xml", "csv")
# The endings that tell a file's format (record_files.file_format); the first is the one --output-dir writes.
SUFFIXES = {"txt": ("txt",), "json": ("json", "jsonl"), "markdown": ("md", "markdown"), "xml": ("xml",),
            "csv": ("csv",)}
# One record per line or row, so a file of many pages may be compressed (the record files' formats).
COMPRESSIBLE = frozenset({"json", "csv"})
RECORD_FIELDS = ("path", "url", "title", "author", "authors", "published_at", "modified_at", "site_name", "body",
                 "language", "method", "confidence", "reason", "encoding")
PLAIN_FIELDS = ("path", "url", "body", "reason")  # --no-metadata
# <doc> attributes (xml) and markdown metadata lines, in this order, from these record fields.
DOC_ATTRIBUTES = (("url", "url"), ("title", "title"), ("author", "authors"), ("date", "published_at"),
                  ("modified", "modified_at"), ("sitename", "site_name"), ("language", "language"),
                  ("path", "path"))
# XML 1.0 forbids most control characters; a page's text may hold them (a stray \x0b from a CMS).
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def file_suffix(fmt: str) -> str:
    return "." + SUFFIXES[fmt][0]


def page_record(result, path: str | None, url: str | None) -> dict:
    """The fields of one page's extraction (an ``Extraction``), as the json and csv formats write them."""
    return {
        "path": path,
        "url": url,
        "title": result.title,
        "author": result.author,
        "authors": list(result.authors),
        "published_at": result.published_at,
        "modified_at": result.modified_at,
        "site_name": result.site_name,
        "body": result.body,
        "language": result.language,
        "method": result.method,
        "confidence": round(result.confidence, 4),
        "reason": result.reason,
        "encoding": result.encoding,
    }


def _value(record: dict, field: str) -> str | None:
    value = record.get(field)
    if isinstance(value, list):
        value = "; ".join(value)
    return value if value not in (None, "") else None


def as_text(record: dict, with_metadata: bool = True) -> str:
    """The title, a blank line and the body (its paragraphs one a line); the body alone without metadata."""
    title = _value(record, "title")
    head = f"{title}\n\n" if with_metadata and title else ""
    return head + record["body"] + "\n"


def as_markdown(record: dict, with_metadata: bool = True) -> str:
    """``# title``, the metadata as ``- name: value`` lines, then the paragraphs separated by blank lines."""
    parts = []
    if with_metadata:
        title = _value(record, "title")
        if title:
            parts.append(f"# {title}")
        lines = [f"- {name}: {_value(record, field)}" for name, field in DOC_ATTRIBUTES
                 if name != "title" and _value(record, field)]
        if lines:
            parts.append("\n".join(lines))
    parts.extend(line for line in record["body"].split("\n") if line.strip())
    return "\n\n".join(parts) + "\n"


def as_xml_element(record: dict, with_metadata: bool = True) -> ElementTree.Element:
    """``<doc url=... title=... author=... date=...><main><p>...</p></main></doc>``: the metadata as attributes
    (absent when unknown), one ``<p>`` per body paragraph."""
    doc = ElementTree.Element("doc")
    for name, field in DOC_ATTRIBUTES if with_metadata else (("url", "url"), ("path", "path")):
        value = _value(record, field)
        if value is not None:
            doc.set(name, _NOT_XML.sub("", value))
    main = ElementTree.SubElement(doc, "main")
    for line in record["body"].split("\n"):
        if line.strip():
            ElementTree.SubElement(main, "p").text = _NOT_XML.sub("", line)
    return doc


def as_xml(record: dict, with_metadata: bool = True) -> str:
    return ElementTree.tostring(as_xml_element(record, with_metadata), encoding="unicode") + "\n"


class DocumentWriter:
    """Writes page records to a binary stream in one of FORMATS. json and csv write every page (a page without
    an article has an empty body and its ``reason``), one line or row each; txt, markdown and xml write the pages
    with a body, one after the other (txt and markdown separated by a blank line; xml inside ``<docs>`` when
    ``many``, a single ``<doc>`` otherwise)."""

    def __init__(self, stream: BinaryIO, fmt: str, *, with_metadata: bool = True, many: bool = True,
                 compression: str | None = None):
        self.stream, self.fmt, self.with_metadata, self.many = stream, fmt, with_metadata, many
        self.fields = RECORD_FIELDS if with_metadata else PLAIN_FIELDS
        self.written = 0
        self._records = None
        if fmt in COMPRESSIBLE:
            self._records = RecordWriter(stream, "jsonl" if fmt == "json" else "csv", self.fields,
                                         compression=compression)
        elif fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt}")
        elif fmt == "xml":
            self.stream.write(b'<?xml version="1.0" encoding="utf-8"?>\n' + (b"<docs>\n" if many else b""))

    def write(self, record: dict) -> bool:
        """Writes the page; False when its format leaves out a page without a body."""
        if self._records is not None:
            self._records.write(record)
        elif not record["body"]:
            return False
        else:
            text = {"txt": as_text, "markdown": as_markdown, "xml": as_xml}[self.fmt](record, self.with_metadata)
            if self.written and self.fmt != "xml":
                text = "\n" + text
            self.stream.write(text.encode("utf-8"))
        self.written += 1
        return True

    def close(self) -> None:
        if self._records is not None:
            self._records.close()
        elif self.fmt == "xml" and self.many:
            self.stream.write(b"</docs>\n")

    def __enter__(self) -> DocumentWriter:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def document(record: dict, fmt: str, with_metadata: bool = True) -> bytes | None:
    """One page as a whole file in ``fmt`` (--output-dir); None for a page without a body."""
    if not record["body"]:
        return None
    buffer = io.BytesIO()
    with DocumentWriter(buffer, fmt, with_metadata=with_metadata, many=False) as writer:
        writer.write(record)
    return buffer.getvalue()
