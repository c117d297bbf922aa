"""newscorpus.core.warc: which paths are WARC files, reading records past a corrupt one, and the rotating writer."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime

import pytest
from fastwarc.warc import ArchiveIterator, WarcRecordType

from newscorpus.core.warc import (
    HttpExchange,
    RotatingWarcWriter,
    WarcFault,
    WarcPathError,
    WarcResponse,
    is_warc_file,
    read_responses,
    warc_paths,
)


def exchange(number: int, body: bytes = b"") -> HttpExchange:
    return HttpExchange(
        url=f"http://news.example.com/{number}.html", method="GET", request_headers=[("User-Agent", "tests")],
        protocol="HTTP/1.1", status=200, response_headers=[("Content-Type", "text/html; charset=utf-8")],
        body=body or f"<html><p>第{number}篇 page {number}</p></html>".encode(), date=datetime.now(UTC))


def written(directory, count: int, max_bytes: int = 10**9) -> RotatingWarcWriter:
    writer = RotatingWarcWriter(directory, max_bytes, "newscorpus tests")
    for number in range(count):
        writer.write(exchange(number))
    writer.close()
    return writer


def test_the_writer_names_the_software_and_pairs_request_and_response(tmp_path):
    writer = written(tmp_path, 3)
    [path] = writer.files
    with open(path, "rb") as handle:
        records = [(record.record_type, record.headers.asdict(), record.stream_pos, record.reader.read())
                   for record in ArchiveIterator(handle, fsspec_args=False)]
    types = [record[0] for record in records]
    assert types == [WarcRecordType.warcinfo] + [WarcRecordType.request, WarcRecordType.response] * 3
    assert b"software: newscorpus tests" in records[0][3]
    assert records[1][1]["WARC-Concurrent-To"] == records[2][1]["WARC-Record-ID"]
    assert path.endswith(".warc.gz")
    with open(path, "rb") as handle:   # one gzip member per record: each offset starts one
        for record in records:
            handle.seek(record[2])
            assert handle.read(2) == b"\x1f\x8b"


def test_the_writer_rotates_files_at_the_size_limit(tmp_path):
    writer = written(tmp_path, 12, max_bytes=2000)
    assert len(writer.files) > 2
    urls = [record.url for path in writer.files for record in read_responses(path)]
    assert urls == [f"http://news.example.com/{number}.html" for number in range(12)]


def test_records_after_a_corrupt_one_are_read(tmp_path):
    [path] = written(tmp_path, 4).files
    offsets = [record.offset for record in read_responses(path)]
    data = bytearray(open(path, "rb").read())
    data[offsets[1] + 30:offsets[1] + 60] = b"\xff" * 30
    bad = tmp_path / "bad.warc.gz"
    bad.write_bytes(bytes(data))
    read = list(read_responses(str(bad)))
    assert [type(record) for record in read] == [WarcResponse, WarcFault, WarcResponse, WarcResponse]
    assert [record.url for record in read if isinstance(record, WarcResponse)] == [
        "http://news.example.com/0.html", "http://news.example.com/2.html", "http://news.example.com/3.html"]


def test_a_plain_warc_reads_as_its_gzipped_form(tmp_path):
    [path] = written(tmp_path, 2).files
    plain = tmp_path / "plain.warc"
    plain.write_bytes(gzip.decompress(open(path, "rb").read()))
    assert [(r.url, r.body) for r in read_responses(str(plain))] == [(r.url, r.body) for r in read_responses(path)]
    assert "第1篇".encode() in list(read_responses(str(plain)))[1].body


def test_paths_from_files_folders_globs_and_list_files(tmp_path):
    [first] = written(tmp_path / "a", 1).files
    [second] = written(tmp_path / "b", 1).files
    (tmp_path / "b" / "notes.md").write_text("not a WARC", encoding="utf-8")
    listing = tmp_path / "warc.paths"
    listing.write_text(f"# CC-NEWS style\n{first.removeprefix(str(tmp_path) + '/')}\n", encoding="utf-8")
    assert warc_paths([str(listing)]) == [first]
    assert warc_paths([str(tmp_path / "b")]) == [second]
    assert warc_paths([str(tmp_path / "*" / "*.warc.gz")]) == sorted([first, second])
    assert warc_paths([first, str(tmp_path / "a")]) == [first]   # each file once
    assert is_warc_file(first) and not is_warc_file(tmp_path / "b" / "notes.md")


@pytest.mark.parametrize("name, words", [("missing.warc.gz", "no such file"), ("page.html", "not a WARC file"),
                                         ("*.nothing", "no file matches"), ("empty", "no WARC files")])
def test_a_bad_path_names_itself(tmp_path, name, words):
    (tmp_path / "page.html").write_text("<html></html>", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    with pytest.raises(WarcPathError, match=words):
        warc_paths([str(tmp_path / name)])
