"""How a page in one charset fails when decoded as UTF-8: the share of its non-ASCII bytes that are invalid.

Sets newscorpus.core.decoding.MAX_INVALID_SHARE: a page with a few broken bytes (far below it) keeps its charset,
a page in another charset (far above it) goes on to detection. Usage:
    .venv/bin/python benchmarks/decoding_invalid_share.py ../shared/data/extraction/*
"""

from __future__ import annotations

import sys
from pathlib import Path

from newscorpus.core.decoding import MAX_INVALID_SHARE, decode_html, invalid_byte_share

MIN_NON_ASCII_BYTES = 200   # pages with less non-ASCII text say nothing about their charset


def main(folders: list[str]) -> int:
    shares = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.htm*")):
            body = path.read_bytes()
            if len(body.translate(None, bytes(range(128)))) < MIN_NON_ASCII_BYTES:
                continue
            page = decode_html(body)
            if page.encoding != "utf-8":
                shares.append((invalid_byte_share(body, "utf-8")[1], page.encoding, str(path)))
    shares.sort()
    for share, encoding, path in shares[:5]:
        print(f"{share:.3f}  {encoding:<12} {path}")
    if shares:
        print(f"{len(shares)} non-UTF-8 pages decoded as UTF-8: invalid share {shares[0][0]:.3f} .. {shares[-1][0]:.3f}"
              f" (MAX_INVALID_SHARE {MAX_INVALID_SHARE}: margin {shares[0][0] / MAX_INVALID_SHARE:.0f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
