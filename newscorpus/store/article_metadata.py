"""An article row's metadata columns (migrations/0011) from an item: published_at (the instant), the publication
day and UTC offset as the page states them, the modification time, the authors and the site's name."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from newscorpus.store.page_record import PageRecord


def page_datetime(value: str | None) -> tuple[datetime | None, date | None, timedelta | None]:
    """(instant, the page's calendar day, the page's UTC offset) of an ISO 8601 string as extraction gives it.

    A time stated without an offset is stored as written and read as UTC, so the stored instant's UTC day is the
    page's day whatever the connection's time zone; its offset stays unknown (None). A bare day has no
    instant's time: midnight UTC. A month ("1998-03") or a non-ISO text gives (None, None, None).
    """
    if not value:
        return None, None, None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None, None, None
    offset = parsed.utcoffset()
    day = parsed.date()  # the day as written, before any conversion
    return (parsed if offset is not None else parsed.replace(tzinfo=UTC)), day, offset


def _interval(offset: timedelta | None) -> str | None:
    """An offset as Postgres interval text ("-05:00"): a negative timedelta would travel as "-1 days +19:00", which
    AT TIME ZONE refuses."""
    if offset is None:
        return None
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def metadata_columns(item: PageRecord) -> dict:
    """published_at and the columns migrations/0011 added, for a page's article (store.page_record)."""
    published_at, published_date, offset = page_datetime(item.published_at)
    authors = list(item.authors) if item.authors else ([item.author] if item.author else [])
    return {
        "published_at": published_at,
        "published_date": published_date,
        "published_utc_offset": _interval(offset),
        "modified_at": page_datetime(item.modified_at)[0],
        "authors": [name.replace("\x00", "") for name in authors] or None,
        "site_name": item.site_name.replace("\x00", "") if item.site_name else None,
    }
