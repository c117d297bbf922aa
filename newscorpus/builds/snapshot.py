"""A versioned snapshot of the published corpus: articles.jsonl, articles.parquet and manifest.json."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from newscorpus.builds.progress import PhaseProgress
from newscorpus.store.builds import snapshot_batches

SNAPSHOT_FORMAT = 1
FETCH_ROWS = 2000  # rows per round trip of the server-side cursor, and per Parquet row group batch
TIMESTAMP = pa.timestamp("us", tz="UTC")
SNAPSHOT_SCHEMA = pa.schema([
    ("id", pa.int64()), ("site", pa.string()), ("url", pa.string()), ("title", pa.string()),
    ("author", pa.string()), ("published_at", TIMESTAMP), ("language", pa.string()), ("body", pa.string()),
    ("extraction_method", pa.string()), ("first_seen", TIMESTAMP), ("last_seen", TIMESTAMP),
    ("updated_at", TIMESTAMP),
])
FIELDS = tuple(SNAPSHOT_SCHEMA.names)
MANIFEST, JSONL, PARQUET = "manifest.json", "articles.jsonl", "articles.parquet"


def _utc(value):
    return value.astimezone(UTC) if isinstance(value, datetime) else value


def _json_value(value):
    return value.isoformat() if isinstance(value, datetime | date) else value


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(snapshot_dir: Path) -> dict | None:
    path = snapshot_dir / MANIFEST
    return json.loads(path.read_text("utf-8")) if path.is_file() else None


def write_snapshot(dsn: str, build_key: str, sites: list[str], since: date | None, out_dir: Path,
                   progress: PhaseProgress | None = None) -> dict:
    """Write ``out_dir/build_key/``; return its manifest. Written into a hidden ``.partial`` folder first and
    renamed at the end, so a folder named after a build is always complete; an existing one is kept."""
    final = out_dir / build_key
    existing = read_manifest(final)
    if existing is not None:
        return existing
    partial = out_dir / f".{build_key}.partial"
    if partial.exists():
        shutil.rmtree(partial)
    partial.mkdir(parents=True)
    per_site: Counter = Counter()
    first_day = last_day = None
    rows = 0
    with (snapshot_batches(dsn, sites, since, cursor_name=f"snapshot_{build_key.replace('-', '_')}",
                           batch_rows=FETCH_ROWS) as batches,
          (partial / JSONL).open("w", encoding="utf-8") as jsonl,
          pq.ParquetWriter(partial / PARQUET, SNAPSHOT_SCHEMA, compression="zstd") as parquet):
        for batch in batches:
            records = [dict(zip(FIELDS, (_utc(v) for v in row), strict=True)) for row in batch]
            for record in records:
                jsonl.write(json.dumps({k: _json_value(v) for k, v in record.items()}, ensure_ascii=False) + "\n")
                per_site[record["site"]] += 1
                day = (record["published_at"] or record["first_seen"]).date()
                first_day = day if first_day is None or day < first_day else first_day
                last_day = day if last_day is None or day > last_day else last_day
            parquet.write_table(pa.Table.from_pylist(records, schema=SNAPSHOT_SCHEMA))
            rows += len(records)
            if progress is not None:
                progress.update(rows)
    manifest = {
        "format": SNAPSHOT_FORMAT,
        "build_id": build_key,
        "created_at": datetime.now(UTC).isoformat(),
        "sites": sorted(sites),
        "since": since.isoformat() if since else None,
        "rows": rows,
        "counts_per_site": dict(sorted(per_site.items())),
        "date_range": {"first": first_day.isoformat() if first_day else None,
                       "last": last_day.isoformat() if last_day else None,
                       "of": "published_at, else first_seen (UTC day)"},
        "files": {name: {"sha256": sha256_file(partial / name), "bytes": (partial / name).stat().st_size}
                  for name in (JSONL, PARQUET)},
        "schema": [{"name": f.name, "type": str(f.type)} for f in SNAPSHOT_SCHEMA],
    }
    (partial / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if final.exists():  # named after this build but without a manifest: not a finished snapshot
        shutil.rmtree(final)
    partial.rename(final)
    return manifest
