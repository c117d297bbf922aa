"""Line kinds of an extracted body: code, heading, links, prose, from the markup each line came from."""

from __future__ import annotations

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.line_kinds import line_kinds, prose_language
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


# A blog post whose code outweighs its prose: the language is the prose's.
_CODE = "\n".join(f"def handler_{n}(request, response):\n    return response.write(request.body)" for n in range(30))
_HIGHLIGHTED = "".join(f'<div class="line">const value{n} = await fetch(url).then(r =&gt; r.json());</div>'
                       for n in range(40))


def _blog(title: str, first: str, last: str, code: str) -> str:
    return (f"<html><head><title>{title}</title></head><body><article><h1>{title}</h1><p>{first}</p>{code}"
            f"<p>{last}</p></article></body></html>")


def test_a_chinese_post_with_code_is_chinese():
    first = "最近在整理旧项目，顺手把一个小工具重写了一遍。下面的代码演示了最基本的请求处理方式，每个函数只做一件事。"
    last = "运行之后，用浏览器打开本地端口就能看到结果。如果有问题，欢迎在评论里留言。"
    title = "用 Python 写一个简单的服务器"
    result = extract(_blog(title, first, last, f"<pre><code>{_CODE}</code></pre>"), "https://blog.example.cn/p/1.html")
    assert result.is_article and "c" in result.line_kinds
    assert result.language == "zh"
    root = parse_html(_blog(title, first, last, f'<div class="highlight">{_HIGHLIGHTED}</div>'))
    clean_tree(root)
    blocks = build_blocks(root)
    lines = [line for block in blocks for line in block.text.split("\n") if line]
    assert prose_language(lines, line_kinds("\n".join(lines), blocks)) == "zh"


def test_an_english_post_with_code_is_english_and_code_alone_keeps_its_reading():
    first = ("I have been tidying up an old project, and this is the smallest handler that still shows how the "
             "requests are read. Each function does one thing, and the response is written at the end.")
    last = "Run it, open the local port in a browser, and the answer is there. Questions are welcome below."
    result = extract(_blog("Writing a tiny server in Python", first, last, f"<pre><code>{_CODE}</code></pre>"),
                     "https://blog.example.com/p/1.html")
    assert result.language == "en"
    assert prose_language(["return x;", "}"], "cc") == prose_language(["return x;", "}"], "pp")
