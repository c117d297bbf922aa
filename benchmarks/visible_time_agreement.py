"""Date spot check on a mirror of a real site: the day `extract` gives against the day of the page's own visible
publication `<time datetime>` (an element whose class names the entry/post/published date), in the page's own
offset. Pages without such an element are not counted. A check of agreement with the page's visible date, not
of truth; use it on sites whose templates render that element from the post's own date (WordPress themes do).

    python -m benchmarks.visible_time_agreement MIRROR_DIR [--glob 'articles/*.html'] [--show 20]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lxml import html as lxml_html

from newscorpus.core.extraction import extract

VISIBLE_TIME = ("//time[@datetime][contains(@class,'entry-date') or contains(@class,'published') or "
                "contains(@class,'post-date')]")


def visible_day(data: bytes) -> str | None:
    try:
        found = lxml_html.fromstring(data).xpath(VISIBLE_TIME)
    except Exception:  # noqa: BLE001 - an unparsable page has no visible date to compare
        return None
    return found[0].get("datetime")[:10] if found else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirror", type=Path)
    parser.add_argument("--glob", default="**/*.html")
    parser.add_argument("--show", type=int, default=10, help="list this many disagreeing pages")
    args = parser.parse_args(argv)
    if not args.mirror.is_dir():
        print(f"error: {args.mirror} is not a folder", file=sys.stderr)
        return 2
    compared, off = 0, []
    for path in sorted(p for p in args.mirror.glob(args.glob) if p.is_file()):
        data = path.read_bytes()
        wanted = visible_day(data)
        if wanted is None:
            continue
        compared += 1
        got = extract(data, "http://127.0.0.1/" + path.relative_to(args.mirror).as_posix()).published_at
        if (got or "")[:10] != wanted:
            off.append((path.relative_to(args.mirror).as_posix(), wanted, got))
    share = 100 * (compared - len(off)) / compared if compared else 0.0
    print(f"{compared} pages with a visible publication <time>; extracted day equal on {compared - len(off)} "
          f"({share:.1f} %)")
    for row in off[:args.show]:
        print("  off:", *row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
