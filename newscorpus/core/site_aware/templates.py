"""Self-repairing site templates of paper 001 (基于模板的自适应Web数据抽取): per field a queue of XPaths
plus search rules (keyword, tag, context, font); when no XPath yields a valid value the page's nodes are
scored bottom-up with the rules, the best one above a threshold is taken and its XPath appended to the
queue (the template repairs itself). `induce` builds a template from K confident generic extractions
with a consistent body XPath (beyond the paper, which writes templates by hand).
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import lru_cache

from lxml import etree

from newscorpus.core.extraction import MIN_BODY_CHARS, body_chars
from newscorpus.core.extraction.block_tree import Block
from newscorpus.core.extraction.punctuation import PAPER_MAX_RATIO, prose_value
from newscorpus.core.extraction.region_trim import hint_dropped, in_caption, keep_line, link_dropped
from newscorpus.core.site_aware.site_titles import fold

log = logging.getLogger(__name__)

BODY = "body"
# Search threshold (paper 001: 评价函数值大于搜索阈值时搜索成功; its value is not in the text). 0.5 =
# the mean relevance of the rules a field defines must pass one half; the repair test and the repair
# experiment (`newscorpus eval site-aware --repair-experiment`) recover with it.
SEARCH_THRESHOLD = 0.5
# A body value is valid when its node holds prose like a body: F of (share of the page's prose it
# holds, share of its own text that is prose) at least this. Calibrated on cleanportaleval pages: the
# induced body nodes score 0.6-1.0, a stale XPath hitting a sidebar or footer scores under 0.2.
VALID_BODY_TEXT_F = 0.3
MAX_FIELD_CHARS = 300  # title/author/time values longer than this are not those fields
# Induction: K confident generic extractions agreeing on the body XPath (K = 3: the fewest where
# agreement is not chance; the multi-page dev sites have 12-15 pages); "confident" as the generic
# extractor's own confidence, whose median on the dev articles is ~0.6.
INDUCE_K = 3
INDUCE_MIN_CONFIDENCE = 0.4
CONTEXT_MAX_DISTANCE = 4  # sibling/ancestor steps searched for a context label
CONTEXT_MAX_CHARS = 30  # a label is short fixed text ("来源", "Share this")
_STYLE_COLOR = re.compile(r"(?:^|;)\s*color\s*:\s*([^;]+)", re.IGNORECASE)
_STYLE_SIZE = re.compile(r"font-size\s*:\s*([^;]+)", re.IGNORECASE)
_VOLATILE = re.compile(r"\d{3,}")  # ids/classes carrying article numbers differ on every page


@dataclass
class SearchRules:
    keyword: str | None = None  # unique text inside the value ("来源")
    tag: str | None = None  # "h1"
    context: str | None = None  # nearby fixed label ...
    distance: int | None = None  # ... and its distance in sibling/ancestor steps (+ before, - after)
    color: str | None = None  # font colour (inline style)
    size: str | None = None  # font size (inline style)
    css_class: str | None = None  # class attribute (the "font ... from class")


@dataclass
class FieldTemplate:
    xpaths: list[str] = field(default_factory=list)
    rules: SearchRules = field(default_factory=SearchRules)
    misses: int = 0  # consecutive checks where the field disagreed with the page's own evidence (cascade.py)


@dataclass
class SiteTemplate:
    site: str
    url: str  # an example page url: pages match by URL similarity (url_similarity.matches)
    page_type: str = "article"
    fields: dict[str, FieldTemplate] = field(default_factory=dict)
    hits: int = 0
    repairs: int = 0
    source: str = "induced"  # "induced" | "config"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> SiteTemplate:
        fields = {
            name: FieldTemplate(list(value.get("xpaths", [])), SearchRules(**value.get("rules", {})),
                                int(value.get("misses", 0)))
            for name, value in data.get("fields", {}).items()
        }
        known = {k: data[k] for k in ("page_type", "hits", "repairs", "source") if k in data}
        return cls(data["site"], data["url"], fields=fields, **known)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SiteTemplate:
        return cls.from_dict(json.loads(text))


@dataclass
class Repair:
    site: str
    field: str
    xpath: str
    score: float


@dataclass
class TemplateResult:
    values: dict[str, str]
    repairs: list[Repair]
    body_lines: list[str]


class PageIndex:
    """Blocks of one cleaned page with per-block subtree prose/character sums (shared by apply and induce)."""

    def __init__(self, root: etree._Element, blocks: list[Block]) -> None:
        self.root = root
        self.blocks = blocks
        self.index = {block.element: i for i, block in enumerate(blocks)}
        values = [prose_value(block) for block in blocks]
        self.prose = values[:]
        self.chars = [float(block.chars) for block in blocks]
        for i in range(len(blocks) - 1, 0, -1):
            parent = blocks[i].parent
            if parent >= 0:
                self.prose[parent] += self.prose[i]
                self.chars[parent] += self.chars[i]
        self.page_prose = self.prose[0] if blocks else 0.0
        self._tag_counts: Counter | None = None

    def block_of(self, element: etree._Element) -> int | None:
        node = element
        while node is not None:
            if node in self.index:
                return self.index[node]
            node = node.getparent()
        return None

    def text_f(self, block: int) -> float:
        """F of recall (share of the page's prose in the subtree) and precision (prose share of its text)."""
        if not self.page_prose or not self.chars[block]:
            return 0.0
        recall = self.prose[block] / self.page_prose
        precision = min(self.prose[block] / self.chars[block], 1.0)
        return 2 * recall * precision / (recall + precision) if recall + precision else 0.0

    def body_lines(self, roots: list[int]) -> list[str]:
        """The region's lines, trimmed as the default method trims its region (link density, hints, captions,
        over-punctuated lines), so a template reads what the generic extractor would read from the same node."""
        lines: list[str] = []
        covered = -1
        for root in sorted(roots):
            if root < covered:
                continue
            covered = self.blocks[root].end
            top_hint = self.blocks[root].hint
            for i in range(root, self.blocks[root].end):
                block = self.blocks[i]
                if not block.chars or link_dropped(block, PAPER_MAX_RATIO):
                    continue
                if hint_dropped(self.blocks, i, top_hint) or in_caption(self.blocks, i, root):
                    continue
                kept = (line for line in block.text.split("\n") if line and keep_line(line, block, PAPER_MAX_RATIO))
                lines.extend(kept)
        return lines


def line_agreement(first: list[str], second: list[str]) -> float:
    """F of the two bodies' shared lines, weighted by characters: 1 the same lines, 0 none in common."""
    first_chars = sum(len(line) for line in first)
    second_chars = sum(len(line) for line in second)
    if not first_chars or not second_chars:
        return 0.0
    in_second, in_first = set(second), set(first)
    precision = sum(len(line) for line in first if line in in_second) / first_chars
    recall = sum(len(line) for line in second if line in in_first) / second_chars
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


@lru_cache(maxsize=1024)
def _compiled(xpath: str) -> etree.XPath | None:
    """XPaths compiled once (a site's queue is read on every page); None for an invalid one."""
    try:
        return etree.XPath(xpath)
    except (etree.XPathError, TypeError, ValueError):
        return None


# `//tag[@attr="value"]` (what xpath_for writes most) is matched with iter(tag), ~3x faster than XPath,
# so the template path stays faster than the generic region scoring it replaces.
_ANCHORED = re.compile(r'^//([a-z][a-z0-9]*)\[@(id|class)="([^"]*)"\]$')


def select_nodes(root: etree._Element, xpath: str) -> list[etree._Element]:
    anchored = _ANCHORED.match(xpath)
    if anchored:
        tag, attribute, value = anchored.groups()
        return [node for node in root.iter(tag) if node.get(attribute) == value]
    compiled = _compiled(xpath)
    if compiled is None:
        return []
    try:
        found = compiled(root)
    except (etree.XPathError, TypeError, ValueError):
        return []
    return [node for node in found if isinstance(node, etree._Element)] if isinstance(found, list) else []


def field_value(page: PageIndex, name: str, nodes: list[etree._Element]) -> tuple[str, list[str]] | None:
    """The field's value from the selected nodes, or None when it is not valid."""
    if not nodes:
        return None
    if name == BODY:
        roots = [b for b in (page.block_of(node) for node in nodes) if b is not None]
        if not roots or max(page.text_f(r) for r in roots) < VALID_BODY_TEXT_F:
            return None
        lines = page.body_lines(roots)
        body = "\n".join(lines)
        if body_chars(body) < MIN_BODY_CHARS:
            return None
        return body, lines
    text = _text(nodes[0])
    return (text, []) if 0 < len(text) <= MAX_FIELD_CHARS else None


def _font(element: etree._Element) -> tuple[str | None, str | None]:
    style = element.get("style") or ""
    color, size = _STYLE_COLOR.search(style), _STYLE_SIZE.search(style)
    return (color.group(1).strip().lower() if color else None, size.group(1).strip().lower() if size else None)


def context_labels(element: etree._Element) -> list[tuple[str, int]]:
    """Short texts before (distance > 0) and after (< 0) the element, in sibling/ancestor steps."""
    labels: list[tuple[str, int]] = []
    node, steps = element, 0
    while node is not None and steps < CONTEXT_MAX_DISTANCE:
        _sibling_labels(node.getprevious(), steps, 1, labels)   # before the node: positive distances
        _sibling_labels(node.getnext(), steps, -1, labels)      # after it: negative
        node, steps = node.getparent(), steps + 1
    return labels


def _sibling_labels(sibling, steps: int, direction: int, labels: list[tuple[str, int]]) -> None:
    """Short texts of the siblings on one side (direction 1: previous ones, -1: next ones), with their signed
    distance in sibling + ancestor steps."""
    distance = steps
    while sibling is not None and distance < CONTEXT_MAX_DISTANCE:
        distance += 1
        if isinstance(sibling.tag, str):
            text = _text(sibling)
            if 0 < len(text) <= CONTEXT_MAX_CHARS:
                labels.append((text, direction * distance))
        sibling = sibling.getprevious() if direction == 1 else sibling.getnext()


def rule_score(page: PageIndex, name: str, rules: SearchRules, element: etree._Element) -> float:
    """Paper 001's evaluation function: the keyword relevance when the keyword is found, else the mean of the
    relevances of the rules the field defines (RULE_RELEVANCES: tag, context, font; plus prose F for the body)."""
    if _keyword_found(name, rules, element):
        return 1.0
    scores = [score for score in (relevance(page, name, rules, element) for relevance in RULE_RELEVANCES)
              if score is not None]
    return sum(scores) / len(scores) if scores else 0.0


def _keyword_found(name: str, rules: SearchRules, element: etree._Element) -> bool:
    """The field's keyword in the element's text, which is short enough for the field (any length for the body)."""
    if not rules.keyword:
        return False
    text = _text(element)
    return rules.keyword in text and len(text) <= (10**9 if name == BODY else MAX_FIELD_CHARS)


# The relevance of one rule to an element: (page, field name, rules, element) -> 0..1, or None when the field
# defines no such rule.
def _tag_relevance(page: PageIndex, name: str, rules: SearchRules, element: etree._Element) -> float | None:
    if not rules.tag:
        return None
    return 1.0 if element.tag == rules.tag else 0.0


def _context_relevance(page: PageIndex, name: str, rules: SearchRules, element: etree._Element) -> float | None:
    """1 / (1 + how far the nearest copy of the context label is from its learnt distance); 0 without one."""
    if not rules.context:
        return None
    found = [d for label, d in context_labels(element) if label == rules.context]
    wanted = rules.distance or 0
    return max((1.0 / (1 + abs(d - wanted)) for d in found), default=0.0)


def _font_relevance(page: PageIndex, name: str, rules: SearchRules, element: etree._Element) -> float | None:
    """The mean agreement of the font colour, the font size and the class (Jaccard of the class words)."""
    if not (rules.color or rules.size or rules.css_class):
        return None
    color, size = _font(element)
    parts = []
    if rules.color:
        parts.append(1.0 if color == rules.color.lower() else 0.0)
    if rules.size:
        parts.append(1.0 if size == rules.size.lower() else 0.0)
    if rules.css_class:
        mine, theirs = set((element.get("class") or "").split()), set(rules.css_class.split())
        parts.append(len(mine & theirs) / len(mine | theirs) if mine | theirs else 0.0)
    return sum(parts) / len(parts)


def _prose_relevance(page: PageIndex, name: str, rules: SearchRules, element: etree._Element) -> float | None:
    """For the body: the prose F of the element's block (PageIndex.text_f)."""
    if name != BODY:
        return None
    block = page.index.get(element)
    return page.text_f(block) if block is not None else 0.0


RULE_RELEVANCES = (_tag_relevance, _context_relevance, _font_relevance, _prose_relevance)


def search(page: PageIndex, name: str, rules: SearchRules) -> tuple[etree._Element | None, float]:
    """Score nodes bottom-up (deepest first); ties keep the deeper node. Body candidates are blocks."""
    if name == BODY:
        candidates = [page.blocks[i].element for i in range(len(page.blocks) - 1, 0, -1)]
    else:
        candidates = [e for e in reversed(list(page.root.iter())) if isinstance(e.tag, str)]
    best, best_score = None, 0.0
    for element in candidates:
        score = rule_score(page, name, rules, element)
        if score > best_score + 1e-9:
            best, best_score = element, score
    return best, best_score


def xpath_for(element: etree._Element) -> str:
    """An XPath for the element: its stable id or class when unique on the page, else steps from the
    nearest ancestor that has one, else the absolute path."""
    root = element.getroottree().getroot()
    steps: list[str] = []
    node = element
    while node is not None:
        anchor = _anchor(root, node)
        if anchor:
            return anchor + ("/" + "/".join(reversed(steps)) if steps else "")
        parent = node.getparent()
        if parent is None:
            break
        same = [child for child in parent if child.tag == node.tag]
        steps.append(f"{node.tag}[{same.index(node) + 1}]")
        node = parent
    return element.getroottree().getpath(element)


def _anchor(root: etree._Element, node: etree._Element) -> str | None:
    for attribute in ("id", "class"):
        value = node.get(attribute)
        if not value or '"' in value or _VOLATILE.search(value):
            continue
        xpath = f'//{node.tag}[@{attribute}="{value}"]'
        if len(select_nodes(root, xpath)) == 1:
            return xpath
    return None


def apply(template: SiteTemplate, page: PageIndex) -> TemplateResult:
    """Each field from its XPath queue; when none is valid, repair by search rules (appending the XPath)."""
    values: dict[str, str] = {}
    repairs: list[Repair] = []
    body_lines: list[str] = []
    for name, field_template in template.fields.items():
        found = None
        for xpath in field_template.xpaths:
            found = field_value(page, name, select_nodes(page.root, xpath))
            if found is not None:
                break
        if found is None:
            element, score = search(page, name, field_template.rules)
            if element is not None and score > SEARCH_THRESHOLD:
                found = field_value(page, name, [element])
                if found is not None:
                    xpath = xpath_for(element)
                    if xpath not in field_template.xpaths:
                        field_template.xpaths.append(xpath)
                    repairs.append(Repair(template.site, name, xpath, round(score, 3)))
                    template.repairs += 1
                    log.info("template repaired: site %s field %s -> %s (%.2f)", template.site, name, xpath, score)
        if found is not None:
            values[name] = found[0]
            if name == BODY:
                body_lines = found[1]
    return TemplateResult(values, repairs, body_lines)


@dataclass
class Observation:
    """What induction needs from one confident generic extraction."""

    url: str
    body_xpath: str
    body_rules: SearchRules
    title_xpath: str | None = None
    title_tag: str | None = None
    title_text: str | None = None  # the headline's text: a node whose text repeats across pages is the site's


def observe(url: str, page: PageIndex, roots: list[int], headline: int | None) -> Observation | None:
    """The generic extraction's region as an XPath plus rules, or None when the region is not one node."""
    if not roots:
        return None
    if len(roots) > 1:
        parent = page.blocks[roots[0]].parent
        if parent < 0 or any(page.blocks[r].parent != parent for r in roots):
            return None
        element = page.blocks[parent].element
    else:
        element = page.blocks[roots[0]].element
    color, size = _font(element)
    labels = context_labels(element)
    rules = SearchRules(tag=element.tag, color=color, size=size, css_class=element.get("class") or None)
    observation = Observation(url, xpath_for(element), rules)
    observation.body_rules.context = "\n".join(f"{d}\t{t}" for t, d in labels)  # all candidates; induce picks
    if headline is not None:
        head = page.blocks[headline].element
        observation.title_xpath, observation.title_tag = xpath_for(head), head.tag
        observation.title_text = page.blocks[headline].text
    return observation


def induce(site: str, observations: list[Observation], k: int = INDUCE_K) -> SiteTemplate | None:
    """A template when at least k observations agree on the body XPath: the body's rules from the agreeing
    observations (_body_rules), and a title field where they agree on the headline's node (_title_field)."""
    counts = Counter(o.body_xpath for o in observations)
    if not counts:
        return None
    xpath, count = counts.most_common(1)[0]
    if count < k:
        return None
    agreeing = [o for o in observations if o.body_xpath == xpath]
    fields = {BODY: FieldTemplate([xpath], _body_rules(agreeing))}
    title = _title_field(agreeing, k)
    if title is not None:
        fields["title"] = title
    return SiteTemplate(site, agreeing[0].url, fields=fields)


def _body_rules(agreeing: list[Observation]) -> SearchRules:
    """The first observation's tag and class; its font colour and size where every observation has the same; and
    as context the first of its labels that every other observation has too."""
    first = agreeing[0]
    rules = SearchRules(tag=first.body_rules.tag, css_class=first.body_rules.css_class)
    if all(o.body_rules.color == first.body_rules.color for o in agreeing):
        rules.color = first.body_rules.color
    if all(o.body_rules.size == first.body_rules.size for o in agreeing):
        rules.size = first.body_rules.size
    shared = next((line for line in (first.body_rules.context or "").split("\n")
                   if line and all(line in (o.body_rules.context or "").split("\n") for o in agreeing[1:])), None)
    if shared:
        distance, label = shared.split("\t", 1)
        rules.context, rules.distance = label, int(distance)
    return rules


def _title_field(agreeing: list[Observation], k: int) -> FieldTemplate | None:
    """The headline's XPath when at least k observations share it and the node holds each page's own headline,
    not one text on k pages (the site's name in a logo <h1>)."""
    titles = Counter(o.title_xpath for o in agreeing if o.title_xpath)
    if not titles:
        return None
    title_xpath, title_count = titles.most_common(1)[0]
    texts = Counter(fold(o.title_text or "") for o in agreeing if o.title_xpath == title_xpath)
    if title_count < k or texts.most_common(1)[0][1] >= k:
        return None
    tag = next(o.title_tag for o in agreeing if o.title_xpath == title_xpath)
    return FieldTemplate([title_xpath], SearchRules(tag=tag))
