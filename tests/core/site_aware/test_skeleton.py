from lxml import etree

from newscorpus.core.site_aware.skeleton import (
    LAYOUT_ATTRIBUTES,
    _budgeted_skeleton,
    _hash,
    _signature_hash,
    build_skeleton,
    signature_text,
)

PAGE = (
    "<html><body id='post-123' class='page'> lead <!-- a comment --> after the comment <?pi x?> after the pi"
    "<div class='row x-42' role='main'><p>one <b>two</b> three</p>\n\t<p>four\u3000five</p> tail</div>"
    "<ul><li>a</li><li>b<i>c</i> d</li></ul><a href='/x/1'>link</a> end </body></html>"
)


def test_the_event_walk_gives_the_budgeted_walks_skeleton_comments_and_pis_included():
    # a parser keeping comments and PIs: their tails are the parent's text, which the event walk does not show
    for parser in (etree.HTMLParser(), etree.HTMLParser(remove_comments=True, remove_pis=True)):
        root = etree.fromstring(PAGE, parser)
        assert build_skeleton(root).to_json() == _budgeted_skeleton(root, 20_000).to_json()


def test_a_subtree_over_the_node_cap_is_cut_as_the_budgeted_walk_cuts_it():
    root = etree.fromstring(PAGE, etree.HTMLParser())
    for cap in (1, 2, 3, 5, 8):
        assert build_skeleton(root, cap).to_json() == _budgeted_skeleton(root, cap).to_json()
    assert build_skeleton(root, 3).size() < build_skeleton(root).size()


def test_the_signature_cache_key_holds_every_layout_attribute():
    # _signature_hash spells LAYOUT_ATTRIBUTES' names out for speed: an attribute added there alone would let two
    # elements that differ only in it share one cached signature.
    for name in LAYOUT_ATTRIBUTES:
        first, second = (etree.fromstring(f"<div {name}='cache-key-{value}'/>") for value in ("a", "b"))
        assert _signature_hash(first) == _hash(signature_text(first))
        assert _signature_hash(second) == _hash(signature_text(second)) != _signature_hash(first), name
