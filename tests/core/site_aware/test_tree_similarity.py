import pytest
from lxml import etree

from newscorpus.core.site_aware.skeleton import Skeleton, build_skeleton, content_root
from newscorpus.core.site_aware.tree_similarity import istm, position_weights, relaxed_istm


def skeleton(html: str) -> Skeleton:
    return build_skeleton(content_root(etree.fromstring(html, etree.HTMLParser())))


PAGE = (
    "<html><body><div class='nav'><a>a</a><a>b</a></div><div class='main'><p>x</p><p>y</p></div>"
    "<div class='foot'><span>c</span></div></body></html>"
)


def test_position_weights_favour_the_edges():
    assert position_weights(3) == pytest.approx([0.4, 0.2, 0.4])
    assert position_weights(1) == [1.0]
    weights = position_weights(5)
    assert weights[0] == weights[4] > weights[1] == weights[3] > weights[2]


def test_identical_structure_is_one_even_with_other_text():
    assert istm(skeleton(PAGE), skeleton(PAGE.replace(">x<", ">other text<"))) == 1.0


def test_edge_block_change_costs_more_than_middle_change():
    nav_changed = PAGE.replace("<a>b</a>", "")  # nav has one child less: block unequal
    middle_changed = PAGE.replace("<p>y</p>", "")
    base = skeleton(PAGE)
    assert istm(base, skeleton(nav_changed)) == pytest.approx(0.6)
    assert istm(base, skeleton(middle_changed)) == pytest.approx(0.8)


def test_different_root_child_count_is_zero_strict_but_not_relaxed():
    extra = PAGE.replace("</body>", "<div class='banner'>ad</div></body>")
    assert istm(skeleton(PAGE), skeleton(extra)) == 0.0
    assert 0.0 < relaxed_istm(skeleton(PAGE), skeleton(extra)) < 1.0


def test_skeleton_json_round_trip():
    original = skeleton(PAGE)
    assert Skeleton.from_json(original.to_json()) == original
    assert original.size() == 9  # body, 3 blocks, 2 links, 2 paragraphs, 1 span
