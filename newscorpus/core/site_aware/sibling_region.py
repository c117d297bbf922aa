"""The body node of a confident sibling page, read on a page before the site has a template.

Until a template is induced (templates.py: K agreeing pages), the site's most recent confident page already says
where the site keeps its article: its generic region's node (an `Observation`, K = 1). This module reads that node
on the new page with the default method's own line rules (`templates.field_value`, as a template reads it, so the
page reads the same when a template induced there reads it later) and says whether it replaces the generic region:
it decides which region, never which lines.

The node must be one element and a valid body; it replaces the generic region only when the two are different
regions the page alone cannot tell apart (`relation`):
- INSIDE: it lies inside the generic region and holds most of its text (`inside_share`): the generic region is a
  wider container around the site's article (dates, share widgets, counters);
- ELSEWHERE: the two are disjoint and the node is long (`min_elsewhere_chars`): the generic region took another
  block (a consent dialog only this page carries, a list of other stories);
never when it is the generic region or holds it. When the generic region is template text (most of its lines on the
site's recent pages: `template_text`), the node is read when most of its lines are new to the site, prose or not.
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
    """The sibling's body node read on this page, when it replaces the generic region (the module's docstring).
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
