"""Line kinds of an extracted body: code, heading, links, prose, from the markup each line came from."""

from __future__ import annotations

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.line_kinds import line_kinds
from newscorpus.core.extraction.parse import parse_html

PAGE = """<html><head><title>Reading logs without grep</title></head><body>
<div class="post"><h1>Reading logs without grep</h1>
<p>Most of my day starts with a log file, and for years I reached for grep before I had read a single line.</p>
<h2>总结</h2>
<p>A small program reads the file once, keeps what it needs, and prints a summary at the end of the run.</p>
<pre>#include &lt;stdio.h&gt;
int main()
{
    return 0;
}</pre>
<p><code>make &amp;&amp; ./summary app.log</code></p>
<p>See also <a href="/a">my notes on shell history</a> and <a href="/b">backups that restore</a>.</p>
<p><a href="/c">Older posts</a> | <a href="/d">Newer posts</a></p>
<p>That is all there is to it; the rest is reading, which no tool does for you.</p>
</div></body></html>"""


def kinds_of(html: str, body: str) -> dict[str, str]:
    root = parse_html(html)
    clean_tree(root)
    return dict(zip(body.split("\n"), line_kinds(body, build_blocks(root)), strict=True))


def test_code_headings_links_and_prose():
    result = extract(PAGE, "https://pebble.example.org/logs.html")
    kinds = dict(zip(result.body.split("\n"), result.line_kinds, strict=True))
    assert kinds["return 0;"] == "c" and kinds["#include <stdio.h>"] == "c" and kinds["{"] == "c"
    assert kinds["make && ./summary app.log"] == "c"  # a paragraph that is all inline code
    assert kinds["总结"] == "h"
    assert kinds["That is all there is to it; the rest is reading, which no tool does for you."] == "p"


def test_lines_of_links():
    """The extractor drops these two here (link density); a body that holds them gets their kinds."""
    body = "See also my notes on shell history and backups that restore.\nOlder posts | Newer posts"
    assert kinds_of(PAGE, body) == {"See also my notes on shell history and backups that restore.": "l",
                                    "Older posts | Newer posts": "l"}


def test_a_line_found_nowhere_is_prose_and_lengths_match():
    body = "A line the page does not hold.\n总结"
    assert kinds_of(PAGE, body) == {"A line the page does not hold.": "p", "总结": "h"}
    assert line_kinds("", []) == "p"
