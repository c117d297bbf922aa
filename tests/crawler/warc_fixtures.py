"""Small news pages of our own (English, Chinese in UTF-8 and in GBK) and WARC files made of them with warcio's
writer, for the ingest tests."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import UTC, datetime

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

EN_PARAGRAPHS = [
    "The river council of Elmbrook voted on Tuesday to rebuild the old stone bridge that links the market "
    "square with the northern farms, after engineers found cracks in two of its five arches last winter.",
    "Work is expected to start in the spring and to last about eighteen months, during which a temporary "
    "footbridge will carry pedestrians and cyclists across the water while cars take the ring road.",
    "Farmers on the northern bank said the closure would add half an hour to every delivery, but most agreed "
    "that a safe crossing mattered more than a short detour for a year and a half.",
    "The council will publish the detailed plans next month and hold two public meetings in the town hall, "
    "where residents can ask questions of the engineers and the contractors chosen for the job.",
]
ZH_PARAGRAPHS = [
    "青石镇政府周二宣布，将在明年春天重建连接老街和北部农田的石桥。去年冬天，工程师在桥的五个拱中发现了两处裂缝。",
    "工程预计持续大约十八个月。施工期间，镇上将搭建一座临时人行桥，供行人和骑车的居民通行，汽车则改走环城公路。",
    "北岸的农民表示，封桥会让每次送货多花半个小时，但大多数人认为，一座安全的桥比一年半的绕行更重要。",
    "镇政府将在下个月公布详细方案，并在镇礼堂举行两场公开会议，居民可以当面向工程师和施工单位提问。",
]


def article_html(title: str, paragraphs: list[str], lang: str, charset: str, day: str) -> str:
    body = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="{charset}"><title>{title}</title>'
            f'<meta property="article:published_time" content="{day}T08:00:00+08:00"></head><body>'
            f'<nav><a href="/">Home</a> <a href="/news/">News</a></nav><article><h1>{title}</h1>{body}</article>'
            f'<footer>Copyright the town paper</footer></body></html>')


EN_PAGE = article_html("Elmbrook will rebuild its stone bridge", EN_PARAGRAPHS, "en", "utf-8", "2024-03-05")
ZH_PAGE = article_html("青石镇将重建老石桥", ZH_PARAGRAPHS, "zh", "utf-8", "2024-03-06")
ZH_GBK_TITLE = "南河县春季降雨偏多"
ZH_GBK_PARAGRAPHS = [
    "南河县气象台昨天发布消息，今年入春以来全县降雨量比往年同期多出三成，多条山间小溪的水位明显上涨。",
    "县里已经组织村干部和志愿者沿河巡查，在低洼路段设置了警示牌，并提醒学生上学放学时不要靠近河边。",
    "气象专家说，未来一周仍有两次较强的降雨过程，果农应当及时疏通排水沟，防止果园积水和根系腐烂。",
    "县防汛办公室的值班电话全天开通，居民发现险情可以随时拨打，工作人员会在半小时内赶到现场处理。",
]
ZH_GBK_PAGE = article_html(ZH_GBK_TITLE, ZH_GBK_PARAGRAPHS, "zh", "gbk", "2024-03-07")


@dataclass
class Record:
    url: str
    body: bytes = b""
    content_type: str | None = "text/html; charset=utf-8"
    status: int = 200
    date: str = "2024-03-08T10:00:00Z"
    record_type: str = "response"
    extra: tuple = ()           # more WARC headers: (("WARC-Truncated", "length"),)


def write_warc(path, records: list[Record]) -> list[int]:
    """The records as a gzipped WARC (a warcinfo first, each record its own gzip member); their offsets."""
    offsets = []
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=str(path).endswith(".gz"), warc_version="WARC/1.1")
        writer.write_record(writer.create_warcinfo_record(str(path), {"software": "tests"}))
        for record in records:
            headers = [("Content-Length", str(len(record.body)))]
            if record.content_type:
                headers.insert(0, ("Content-Type", record.content_type))
            if 300 <= record.status < 400:
                headers.append(("Location", "/elsewhere"))
            http = StatusAndHeaders(f"{record.status} X", headers, protocol="HTTP/1.1")
            warc_headers = {"WARC-Date": record.date, **dict(record.extra)}
            if record.record_type == "revisit":
                warc_headers["WARC-Profile"] = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
                warc_headers["WARC-Refers-To-Target-URI"] = record.url
            offsets.append(handle.tell())
            writer.write_record(writer.create_warc_record(
                record.url, record.record_type, payload=io.BytesIO(record.body), http_headers=http,
                warc_headers_dict=warc_headers))
    return offsets


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
