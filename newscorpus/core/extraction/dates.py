"""Dates as pages write them, read into ISO 8601: numeric (year-first, day-first), spelled (English and other
European month names, ordinals), Chinese (2024年5月20日), and dates in URLs. Pure functions, kept as data.

The page's own clock is kept: a stated offset stays as written (`+08:00`, `Z` -> `+00:00`), a time without one
stays without one, and nothing is converted to another zone, so the calendar day is the page's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from newscorpus.core.word_patterns import grouped_by_first_letter

# Month names and abbreviations: English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish/Danish/
# Norwegian, Polish and Russian (genitive, as in dates), Turkish. Accents optional where sites drop them.
_MONTH_NAMES = {
    1: "january jan januar jänner janvier janv enero ene gennaio gen janeiro januari stycznia января ocak",
    2: "february feb februar février fevrier févr fevr febrero febbraio fevereiro fev februari lutego февраля "
       "şubat subat",
    3: "march mar märz maerz marz mars marzo março marco maart marca marta mart",
    4: "april apr avril avr abril abr aprile aprila kwietnia апреля nisan",
    5: "may mai mayo maggio maio mei maj maja мая mayıs mayis",
    6: "june jun juni juin junio giugno junho czerwca июня haziran",
    7: "july jul juli juillet juil julio luglio julho lipca июля temmuz",
    8: "august aug août aout agosto augustus augusti sierpnia августа ağustos agustos",
    9: "september sep sept septembre septiembre setiembre settembre set setembro września wrzesnia сентября "
       "eylül eylul",
    10: "october oct oktober okt octobre octubre ottobre ott outubro out października pazdziernika октября ekim",
    11: "november nov novembre noviembre novembro listopada ноября kasım kasim",
    12: "december dec dezember dez décembre decembre déc diciembre dic dicembre dezembro grudnia декабря "
        "aralık aralik",
}  # fmt: skip
MONTHS = {name: number for number, names in _MONTH_NAMES.items() for name in names.split()}
# Longest names first; grouped by first letter (word_patterns.grouped_by_first_letter: the same matches, less CPU:
# every 4-digit number sends a line through three patterns holding this alternation).
_MONTH = "(" + grouped_by_first_letter("|".join(sorted(MONTHS, key=len, reverse=True)), ignore_case=True) + r")\.?"
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th|er|e|º|°)?\.?"
_YEAR = r"((?:19|20)\d{2})"
# An optional time after a date: 14:33, 14:33:05, 2:04 p.m., 14时33分, 10h30 (hour, minute, second, am/pm).
_CLOCK = (r"(?:[T\s,]*(?:at\s+|um\s+|à\s+)?(\d{1,2})\s*[:：时h]\s*(\d{2})(?:\s*[:：分]\s*(\d{2}))?"
          r"(?:\s*([AaPp])\.?[Mm]\b)?)?")

ISO = re.compile(
    r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?(?!\d)"
)
# 2024-05-20 14:33, 2024/5/20, 2024.05.20, 2024年5月20日 14时33分
YEAR_FIRST = re.compile(
    r"(?<!\d)" + _YEAR + r"\s*([-/.年])\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)(?:\s*日)?" + _CLOCK
)
# 20.05.2024 (day first), 05/20/2024 or 20/05/2024 (decided by the numbers, else month first), 20-05-2024
NUMBER_FIRST = re.compile(r"(?<![\d.])(\d{1,2})\s*([./-])\s*(\d{1,2})\s*\2\s*" + _YEAR + r"(?![\d])" + _CLOCK)
# May 20, 2024 / May 20th 2024 / Mai 20. 2024; also a capitalised month glued to the word before it by markup
# ("Mental HealthDECEMBER 22, 2022", inline elements joined without a space), so the line's first date is read.
_GLUED_OR_WORD_START = r"(?:(?<![^\W\d_])|(?-i:(?<=[a-z])(?=[A-Z]{3})))"
MONTH_FIRST = re.compile(_GLUED_OR_WORD_START + _MONTH + r"\s*" + _ORDINAL + r",?\s+" + _YEAR + r"(?!\d)" + _CLOCK,
                         re.IGNORECASE)
# 20 May 2024 / 19. Juli 2014 / 29th of December, 2019 / 20-May-2024 / 5 de mayo de 2024
DAY_FIRST = re.compile(
    r"(?<!\d)" + _ORDINAL + r"\s*(?:of\s+|de\s+|-)?" + _MONTH + r"(?![^\W\d_])\s*(?:de\s+|del\s+|-)?,?\s*" + _YEAR
    + r"(?!\d)" + _CLOCK,
    re.IGNORECASE,
)
# 2023 Jan 7 (citation style)
YEAR_MONTH_DAY = re.compile(r"(?<!\d)" + _YEAR + r",?\s+" + _MONTH + r"(?![^\W\d_])\s*" + _ORDINAL + r"(?!\d)" + _CLOCK,
                            re.IGNORECASE)
# 18-03-08 10:23, 发布时间：18-03-08 (two-digit year first, as Chinese portals and forums write it; day-first and
# month-first short dates use dots or slashes): read only with a clock after it or a publication label before it,
# so a score or a part number is no date.
SHORT_YEAR_FIRST = re.compile(r"(?<![\d./:-])(\d{2})-(\d{1,2})-(\d{1,2})(?![\d./-])" + _CLOCK)
SHORT_YEAR_LABEL = re.compile(r"(?:发布|发表|时间|日期|更新|posted|published|date)\s*[:：]?\s*$", re.IGNORECASE)
# Chinese dates without a year are not read; 二〇二二年 spelled numerals are rare on news pages and not read.
# Dates in URLs: /2024/05/20/, /2024-05-20-, /20240520/ (eight digits between separators).
# /2023/october/03/ (a spelled month between the year and the day)
URL_SPELLED_DATE = re.compile(r"/((?:19|20)\d{2})/([a-z]{3,9})/(\d{1,2})(?=/|$)", re.IGNORECASE)
URL_DATE = re.compile(r"(?<![\d])((?:19|20)\d{2})[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])(?![\d])")

_DIGIT = re.compile(r"\d")
_YEAR_DIGITS = re.compile(r"\d{4}")

# Earliest plausible publication date: the web's news sites start in the mid-1990s; zh_web_content_69 has
# 1996 and 1998 pages, so 1990 leaves room. Later than tomorrow (the page's zone may be ahead of ours) is no
# publication date either (copyright years, event dates).
MIN_YEAR = 1990
FUTURE_DAYS = 1


def _valid(year: int, month: int, day: int, today: date | None) -> date | None:
    if year < MIN_YEAR:
        return None
    try:
        found = date(year, month, day)
    except ValueError:
        return None
    limit = (today or date.today()) + timedelta(days=FUTURE_DAYS)
    return found if found <= limit else None


def _iso(found: date, hour: str | None = None, minute: str | None = None, second: str | None = None,
         meridiem: str | None = None, zone: str | None = None) -> str:
    text = found.isoformat()
    if hour is None or minute is None or int(hour) > 23 or int(minute) > 59:
        return text
    hours = int(hour)
    if meridiem and hours <= 12:
        hours = hours % 12 + (12 if meridiem.lower() == "p" else 0)
    text += f"T{hours:02d}:{minute}:{int(second or 0):02d}"
    if zone:
        zone = "+00:00" if zone in ("Z", "+0000", "-0000", "+00:00", "-00:00") else zone
        text += zone if ":" in zone else f"{zone[:3]}:{zone[3:]}"
    return text


def parse_date(text: str | None, today: date | None = None) -> str | None:
    """The first date in `text` (ISO 8601 string: a day, or a day and time with the offset as stated), else None.

    Numbers decide day-first against month-first (`16.12.2012` and `20/05/2024` are day-first, `05/20/2024`
    month-first); an ambiguous slashed date (`05/06/2024`) is read month-first, a dotted one day-first. Each of
    DATE_READERS in turn looks for a date before the earliest found so far; a date at the text's start ends the
    search.
    """
    if not text:
        return None
    if _YEAR_DIGITS.search(text) is None:  # every spelling but the short year-first one has a 4-digit year
        found = _short_year_first(text[:2000], None, today) if "-" in text else None
        return found[1] if found is not None else None
    text = text[:2000]
    best: tuple[int, str] | None = None
    for reader in DATE_READERS:
        found = reader(text, best[0] if best is not None else None, today)
        if found is not None:
            best = found
            if best[0] == 0:
                break
    return best[1] if best is not None else None


DateRead = tuple[int, str]  # (where the date starts in the text, the date in ISO 8601)


def _iso_date(text: str, before: int | None, today: date | None) -> DateRead | None:
    """The first ISO 8601 stamp (2024-05-20, 2024-05-20T14:33:05+08:00), when it is a valid date."""
    match = ISO.search(text)
    if match is None or (before is not None and match.start() >= before):
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    valid = _valid(int(year), int(month), int(day), today)
    return (match.start(), _iso(valid, hour, minute, second, zone=zone)) if valid else None


def _year_first_date(text: str, before: int | None, today: date | None) -> DateRead | None:
    """The first year-first date (2024/5/20, 2024.05.20, 2024年5月20日 14时33分), when it is a valid date."""
    match = YEAR_FIRST.search(text)
    if match is None or (before is not None and match.start() >= before):
        return None
    year, _, month, day, *clock = match.groups()
    valid = _valid(int(year), int(month), int(day), today)
    return (match.start(), _iso(valid, *clock)) if valid else None


def _first_valid(pattern: re.Pattern) -> Callable[[str, int | None, date | None], DateRead | None]:
    """A reader of the first match of `pattern` that is a valid date (_read_match)."""

    def read(text: str, before: int | None, today: date | None) -> DateRead | None:
        for match in pattern.finditer(text):
            if before is not None and match.start() >= before:
                return None
            value = _read_match(pattern, match, today)
            if value:
                return match.start(), value
        return None

    return read


# Day, month, year and clock groups of a match of each spelled or numeric pattern, by pattern.
def _number_first_fields(groups: tuple) -> tuple[int, int | None, int, tuple]:
    first, separator, second, year = int(groups[0]), groups[1], int(groups[2]), int(groups[3])
    day_first = separator == "." or first > 12 or (separator == "-" and second <= 12)
    if separator == "/" and second > 12:
        day_first = False
    day, month = (first, second) if day_first else (second, first)
    return day, month, year, groups[4:8]


def _year_month_day_fields(groups: tuple) -> tuple[int, int | None, int, tuple]:
    # a capital month ("2024 May 5"), so "in 2024 may 5 people" is no date
    month = MONTHS.get(groups[1].lower().rstrip(".")) if groups[1][:1].isupper() else None
    return int(groups[2]), month, int(groups[0]), groups[3:7]


def _month_first_fields(groups: tuple) -> tuple[int, int | None, int, tuple]:
    return int(groups[1]), MONTHS.get(groups[0].lower().rstrip(".")), int(groups[2]), groups[3:7]


def _day_first_fields(groups: tuple) -> tuple[int, int | None, int, tuple]:
    return int(groups[0]), MONTHS.get(groups[1].lower().rstrip(".")), int(groups[2]), groups[3:7]


_MATCH_FIELDS = {
    NUMBER_FIRST: _number_first_fields,
    MONTH_FIRST: _month_first_fields,
    DAY_FIRST: _day_first_fields,
    YEAR_MONTH_DAY: _year_month_day_fields,
}


def _read_match(pattern: re.Pattern, match: re.Match, today: date | None) -> str | None:
    """The ISO date of a match of one of _MATCH_FIELDS' patterns, None when it is no valid date."""
    day, month, year, clock = _MATCH_FIELDS[pattern](match.groups())
    if month is None:
        return None
    valid = _valid(year, month, day, today)
    return _iso(valid, *clock) if valid else None


def _short_year_first(text: str, before: int | None, today: date | None) -> DateRead | None:
    """The first two-digit-year date (18-03-08 -> 2018-03-08) with a clock after it or a publication label before
    it, when it is a valid date; the century is the one that puts it on or before today."""
    for match in SHORT_YEAR_FIRST.finditer(text):
        if before is not None and match.start() >= before:
            return None
        short, month, day, *clock = match.groups()
        if clock[0] is None and not SHORT_YEAR_LABEL.search(text, 0, match.start()):
            continue
        this_year = (today or date.today()).year
        year = 2000 + int(short) if 2000 + int(short) <= this_year else 1900 + int(short)
        valid = _valid(year, int(month), int(day), today)
        if valid:
            return match.start(), _iso(valid, *clock)
    return None


# The readers parse_date asks, in order: ISO stamps, year-first dates (each only its first match), then the first
# valid date of each other spelling, and last a two-digit year first.
DATE_READERS = (
    _iso_date,
    _year_first_date,
    _first_valid(NUMBER_FIRST),
    _first_valid(MONTH_FIRST),
    _first_valid(DAY_FIRST),
    _first_valid(YEAR_MONTH_DAY),
    _short_year_first,
)


# Month-precision dates: a magazine issue (1998年3月号, 1998年3月), "Updated: June 2022". Read only where no day is
# stated anywhere on the page (date_sources takes them last).
ZH_MONTH = re.compile(r"(?<!\d)" + _YEAR + r"\s*年\s*(\d{1,2})\s*月(?!\s*\d)")
LABELLED_MONTH = re.compile(r"(?:updated|published|posted|revised|issue|edition)\s*(?:on|in)?\s*[:：]?\s*" + _MONTH
                            + r"(?![^\W\d_]),?\s+" + _YEAR + r"(?!\d)", re.IGNORECASE)


# A line that is a month and nothing else ("November 2015", "Date: November 2003" split over two lines): the
# dateline of a magazine piece or a report.
MONTH_LINE = re.compile(r"\s*" + _MONTH + r"(?![^\W\d_]),?\s+" + _YEAR + r"\s*", re.IGNORECASE)


def parse_month(text: str | None, today: date | None = None) -> str | None:
    """A month the text states without a day ("YYYY-MM"), else None."""
    if not text or _DIGIT.search(text) is None:
        return None
    match = ZH_MONTH.search(text)
    if match:
        year, month = int(match.group(1)), int(match.group(2))
    else:
        match = LABELLED_MONTH.search(text) or MONTH_LINE.fullmatch(text)
        if not match:
            return None
        year, month = int(match.group(2)), MONTHS.get(match.group(1).lower().rstrip("."), 0)
    return f"{year:04d}-{month:02d}" if 1 <= month <= 12 and _valid(year, month, 1, today) else None


def url_date(url: str | None, today: date | None = None) -> str | None:
    """A day written in a URL's path (`/2024/05/20/`, `/20240520/`, `/2023/october/03/`), else None."""
    if not url:
        return None
    path = url.split("?", 1)[0].split("//", 1)[-1]
    path = path[path.find("/"):] if "/" in path else ""
    for match in URL_DATE.finditer(path):
        valid = _valid(int(match.group(1)), int(match.group(2)), int(match.group(3)), today)
        if valid:
            return valid.isoformat()
    for match in URL_SPELLED_DATE.finditer(path):
        month = MONTHS.get(match.group(2).lower())
        valid = _valid(int(match.group(1)), month, int(match.group(3)), today) if month else None
        if valid:
            return valid.isoformat()
    return None


def other_order(text: str, value: str) -> str | None:
    """The other reading of `value` (parse_date's reading of `text`) when the text writes it as a slashed or dashed
    number-first date whose first two numbers may each be the day or the month (05/06/2024, 03-09-2026), else None.
    Dotted dates (03.04.2021) are day-first wherever they are written and stay as read."""
    if len(value) < 10:
        return None
    month, day = int(value[5:7]), int(value[8:10])
    if month > 12 or day > 12 or month == day or ("/" not in text and "-" not in text):
        return None
    for match in NUMBER_FIRST.finditer(text):
        if match.group(2) != "." and int(match.group(4)) == int(value[:4]) and \
                {int(match.group(1)), int(match.group(3))} == {month, day}:
            return f"{value[:4]}-{day:02d}-{month:02d}{value[10:]}"
    return None


def calendar_day(value: str | None) -> date | None:
    """The calendar day of an ISO string from parse_date (as the page states it, no zone conversion)."""
    if not value:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def utc_stated(value: str | None) -> bool:
    """Whether an ISO datetime is stated in UTC (`+00:00`): its day may be the next or previous local day."""
    return bool(value) and len(value) > 10 and value.endswith("+00:00")
