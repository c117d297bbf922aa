"""Broken document skeletons (repair.py): the article is recovered rather than lost."""

from __future__ import annotations

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.repair import close_title, swallowing_title

STORY = "".join(
    f"<p>Paragraph {n} of the harbour story: the council voted to dredge the channel, and the ferry company "
    "said the work would close the quay for two weeks in March.</p>"
    for n in range(1, 5)
)
HEADLINE = "Council votes to dredge the harbour"


def test_unclosed_title_is_closed_at_its_first_tag():
    html = (f"<html><head><title>{HEADLINE}</titavaScript src='x.js'></script></head><body>"
            f"<div id='story'><h1>{HEADLINE}</h1>{STORY}</div>" + "<p>Filler.</p>" * 60 + "</body></html>")
    root = parse_html(html)
    assert not swallowing_title(root)
    assert root.findtext("head/title").startswith(HEADLINE)
    result = extract(html)
    assert result.reason is None
    assert "dredge the channel" in result.body
    assert result.title == HEADLINE


def test_close_title_leaves_pages_without_title_alone():
    assert close_title("<html><body><p>no title here</p></body></html>") is None
    assert close_title("<title>open and never closed") is None


def test_well_formed_title_is_not_swallowing():
    root = parse_html(f"<html><head><title>{HEADLINE}</title></head><body>{STORY}</body></html>")
    assert not swallowing_title(root)


def test_garbled_html_tag_keeps_the_page_in_one_tree():
    # libxml2 ends the first <html> at the garbled attribute and opens a second one beside it
    html = ('<!DOCTYPE html><html xmogo.jpg" alt="Logo &amp; Co" width="145" /></a></td>'
            f"<td><div class='article'><h1>{HEADLINE}</h1>{STORY}</div></td></tr></table></body></html>")
    root = parse_html(html)
    assert all(not "".join(sibling.itertext()).strip() for sibling in root.itersiblings())
    assert "dredge the channel" in "".join(root.itertext())
    result = extract(html)
    assert result.reason is None
    assert "ferry company" in result.body


def test_content_left_in_head_moves_to_body():
    # a page that never opens <body>: libxml2 keeps the unknown element and its table inside <head>
    html = (f"<html><head><title>{HEADLINE}</title><meta name='robots' content='all'><mbox>"
            f"<tr><td><div>{STORY}</div></td></tr></mbox></head></html>")
    root = parse_html(html)
    assert root.find("head/mbox") is None
    assert root.find("body/mbox") is not None
    clean_tree(root)  # drops <head>: the story must survive it
    assert "dredge the channel" in "".join(root.itertext())
    result = extract(html)
    assert "dredge the channel" in result.body


def test_unclosed_select_holding_the_article_keeps_it():
    html = (f"<html><body><form><select name='s'><option>One<div id='main'><h1>{HEADLINE}</h1>{STORY}</div>"
            "</form></body></html>")
    result = extract(html)
    assert result.reason is None
    assert "dredge the channel" in result.body


def test_select_of_options_is_still_dropped():
    options = "".join(f"<option>Country number {n}</option>" for n in range(200))
    root = parse_html(f"<html><body><div>{STORY}</div><select>{options}</select></body></html>")
    clean_tree(root)
    assert "Country number" not in "".join(root.itertext())


def test_garbage_never_raises():
    for html in ("<html x<<<", "<title>" + "<" * 5000, "<head><mbox>" * 300, "<html></html><html></html>"):
        result = extract(html)
        assert result.reason in (None, "no_body", "listing_page", "empty", "not_html")
