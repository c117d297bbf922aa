"""Synthetic same-site news pages written for these tests (no data-set pages)."""

from __future__ import annotations

NAV = (
    '<div class="nav"><a href="/">首页</a> <a href="/news/">新闻</a> <a href="/tech/">科技</a> '
    '<a href="/sports/">体育</a></div>'
)
FOOTER = '<div class="footer"><p>关于我们 | 联系我们 | 版权所有 © 2024 示例新闻网</p></div>'
SIDEBAR = (
    '<div class="side"><h3>热门</h3><ul><li><a href="/a">热门文章一</a></li>'
    '<li><a href="/b">热门文章二</a></li></ul></div>'
)

PARAGRAPHS_ZH = [
    "新华社北京5月1日电 今年一季度，我国经济运行总体平稳，主要指标好于预期，市场信心持续恢复。",
    "国家统计局数据显示，一季度国内生产总值同比增长百分之五点三，比上年四季度加快零点一个百分点。",
    "专家表示，随着各项政策措施落地见效，经济回升向好的态势将进一步巩固，全年目标有望顺利实现。",
    "与此同时，消费市场持续回暖，服务消费增长较快，假日经济表现亮眼，新型消费不断涌现。",
]
PARAGRAPHS_EN = [
    "The city council voted on Tuesday to expand the bus network, adding twelve routes by next spring.",
    "Officials said the plan, which costs about forty million dollars, would cut average commutes by ten minutes.",
    "Critics argued that the money would be better spent on repairing roads, which have been neglected for years.",
    "The mayor is expected to sign the measure next week, after a final review by the transport committee.",
]


def article(number: int, body_class: str = "article-body", relaid: bool = False, english: bool = False) -> str:
    """One article page of the synthetic site; `relaid`: the body container renamed and nested deeper."""
    paragraphs = PARAGRAPHS_EN if english else PARAGRAPHS_ZH
    rotated = paragraphs[number % len(paragraphs) :] + paragraphs[: number % len(paragraphs)]
    text = "".join(f"<p>{p}（{number}）</p>" if not english else f"<p>{p} ({number})</p>" for p in rotated)
    title = f"Council expands bus network, part {number}" if english else f"一季度经济运行总体平稳 第{number}期"
    container = f'<div class="{body_class}">{text}</div>'
    if relaid:
        container = f'<div class="layout-wrap"><div class="renamed-x">{text}</div></div>'
    return (
        f"<html><head><title>{title}</title></head><body>{NAV}"
        f'<div class="main"><h1>{title}</h1><div class="info"><span>来源：示例新闻网</span></div>'
        f"{container}</div>{SIDEBAR}{FOOTER}</body></html>"
    )


def url(number: int) -> str:
    return f"https://news.example.com/c/2024-05-{number:02d}/doc-{number}0001.shtml"
