"""The body node of a confident sibling page, read on a page before the site has a template.

A template (templates.py, paper 001) is induced from K agreeing confident pages; until then each page is
read by the generic region alone, which sees one page. The most recent confident page of the same site
already says where the site keeps its article: its generic region's node (an `Observation`, K = 1). This
module reads that node on the new page and says whether it replaces the generic region. It decides which
region, never which lines: the node is read with the default method's own line rules
(`templates.field_value`, as a template reads it), so a page reads the same when a template induced at the
same node reads it later.

The node replaces the generic region only when the two are different regions the page-by-page extractor
could not tell apart, and the sibling's node is an article there:
- inside: the node lies inside the generic region and holds most of its text (`inside_share`): the generic
  region is a wider container around the site's article (dates, share widgets, "+1" counters);
- elsewhere: the node and the generic region are disjoint, and the node is long (`min_elsewhere_chars`,
  the cascade's guard for a region elsewhere): the generic region took another block (a consent dialog
  only this page carries, a list of other stories);
- the node is the generic region or contains it: the generic result stands (it is the same region, or the
  generic extractor read a narrower, more precise part of the site's node).
The node must be one element on the page and a valid body (`templates.field_value`: prose F, length).
When the generic region is template text (`template_text`: most of its lines were on the site's recent
pages, the cascade's test for running the cluster difference) it is known not to be the article, and the
node is read when most of its lines are new to the site (`recent`), prose or not, short or not (a short post
with no punctuation scores no prose F, and the teaser guard compares with a region that is not an article).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from newscorpus.core.extraction import MIN_BODY_CHARS, body_chars
from newscorpus.core.site_aware import templates as templates_module
from newscorpus.core.site_aware.templates import BODY, Observation, PageIndex

INSIDE = "inside"
ELSEWHERE = "elsewhere"


@dataclass(frozen=True)
class SiblingRegion:
    body: str
    lines: list[str]
    root: int  # the node's block in the page's PageIndex (for observing the page as read)
    relation: str  # INSIDE or ELSEWHERE


def relation(node: etree._Element, generic_roots: list[etree._Element]) -> str | None:
    """INSIDE / ELSEWHERE of `node` against the generic region's root elements; None when it is one of them
    or an ancestor of one (the generic region stands)."""
    ancestors = set(node.iterancestors())
    if any(root is node for root in generic_roots):
        return None
    if any(root in ancestors for root in generic_roots):
        return INSIDE
    if any(node in set(root.iterancestors()) for root in generic_roots):
        return None
    return ELSEWHERE


def sibling_region(
    index: PageIndex,
    generic_roots: list[int],
    generic_lines: list[str],
    sibling: Observation,
    inside_share: float,
    min_elsewhere_chars: int,
    template_text: bool = False,
    recent: frozenset[int] = frozenset(),
) -> SiblingRegion | None:
    """The sibling's body node read on this page, when it replaces the generic region (module docstring).
    `inside_share`: the share of the generic region's characters a node inside it holds, and the share of a
    node's lines new to the site when the generic region is template text (half, as the cascade's
    SAME_REGION_SHARE it is given); `recent`: hashes (`hash(line)`) of the lines of the site's recent pages."""
    if not generic_roots:
        return None
    nodes = templates_module.select_nodes(index.root, sibling.body_xpath)
    if len(nodes) != 1:
        return None
    root = index.block_of(nodes[0])
    if root is None:
        return None
    where = relation(nodes[0], [index.blocks[r].element for r in generic_roots])
    if where is None:
        return None
    if template_text:
        lines = index.body_lines([root])
        body = "\n".join(lines)
        new = sum(hash(line) not in recent for line in lines)
        if body_chars(body) < MIN_BODY_CHARS or new < inside_share * len(lines):
            return None  # the node holds the site's repeated text too
        return SiblingRegion(body, lines, root, where)
    found = templates_module.field_value(index, BODY, nodes)
    if found is None:
        return None
    body, lines = found
    chars, generic_chars = body_chars(body), body_chars("\n".join(generic_lines))
    if where == INSIDE and chars < inside_share * generic_chars:
        return None  # one paragraph of the generic region, not the article it wraps
    if where == ELSEWHERE and chars < min(generic_chars, min_elsewhere_chars):
        return None  # a short block elsewhere is a teaser
    return SiblingRegion(body, lines, root, where)
