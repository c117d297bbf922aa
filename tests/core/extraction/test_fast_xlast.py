"""Issue 16 round 11 (helper xlast): the fast forms of clean_tree's container tests, each against the simple form it
replaces."""

from __future__ import annotations

import random

from lxml import etree

from newscorpus.core.extraction.block_tree import Block, _finish, _squash_spaces
from newscorpus.core.extraction.cleaning import (
    BUTTON_MAX_CHARS,
    DROPPED_TAGS,
    _is_email_field,
    clean_tree,
    holds_content,
    more_text_than,
    remove_keeping_tail,
    signup_box,
)
from newscorpus.core.extraction.markup import PageMarkup, read_markup
from newscorpus.core.extraction.parse import parse_html
from tests.core.extraction.test_fast_walks import _pages


def _clean_tree_before(root: etree._Element, markup: PageMarkup) -> None:
    """clean_tree as it was: every button and NESTING_DROPS element walked."""
    fields = [field for field in markup.inputs if _is_email_field(field)]
    field_parents = [field.getparent() for field in fields]
    for button in [b for b in markup.buttons if holds_content(b) or more_text_than(b, BUTTON_MAX_CHARS)]:
        button.tag = "div"
    for element in [e for e in markup.nesting if holds_content(e)]:
        element.tag = "div"
    etree.strip_elements(root, *DROPPED_TAGS, with_tail=False)
    boxes = [signup_box(parent) for parent in field_parents if parent is not None]
    for element in markup.dialogs + [box for box in boxes if box is not None]:
        if element.getparent() is not None:
            remove_keeping_tail(element)


CONTROLS = [
    "<button>Menu</button>", "<button></button>", "<button> " + "x " * 600 + "</button>",
    "<button>" + "y" * 1001 + "</button>", "<button>" + "y" * 1000 + "</button>",
    "<button><span>Share</span></button>", "<button><svg></svg></button>", "<button><div><p>Body</p></div></button>",
    "<button>a<b>" + "z" * 999 + "</b></button>", "<button><div>unclosed <main><p>Page</p></main>",
    "<select><option>A</option><option>B</option></select>", "<select></select>", "<video>no support</video>",
    "<video><p>Transcript</p></video>", "<object><section><h2>T</h2></section></object>", "<canvas>x</canvas>",
    "<picture><source><img></picture>", "<map><area></map>",
]


def test_container_tests_skipping_childless_elements_match_the_walks():
    pages = _pages(60) + [f"<html><body><div>a {control} b</div><p>tail</p></body></html>" for control in CONTROLS]
    pages += ["<html><body>" + "".join(CONTROLS) + "</body></html>"]
    for page in pages:
        fast, simple = parse_html(page), parse_html(page)
        clean_tree(fast, read_markup(fast))
        _clean_tree_before(simple, read_markup(simple))
        assert etree.tostring(fast) == etree.tostring(simple), page


def _finish_squashing_first(raw: str) -> str:
    """_finish's text as it was made: runs of spaces squashed, then each line stripped."""
    text = _squash_spaces(raw.replace("\xa0", " "))
    return "\n".join(filter(None, map(str.strip, text.split("\n"))))


def test_finish_stripping_lines_first_matches_squashing_first():
    rng = random.Random(11)
    pieces = [" ", "  ", "\t", "\r", "\f", "\v", "\n", "\xa0", "\u3000", "\u200b", "\ufeff", "\x1c", "\x85", "\u2002",
              "\u2028", "a", "bc", "新闻", "。", ",", "x y"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(20000)]
    for raw in texts:
        block = Block(None, "p", 0, 1)
        block.parts = [raw]
        _finish(block)
        expected = "" if not raw or raw.isspace() else _finish_squashing_first(raw)
        assert block.text == expected, repr(raw)
        assert block.chars == len(expected) - expected.count(" ") - expected.count("\n"), repr(raw)
