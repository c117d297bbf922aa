"""benchmarks/real_site.py end to end on a small static blog written here: served on 127.0.0.1, crawled with
`scrapy crawl site` into a fresh schema (dropped after), scored against its references."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.real_site import main
from newscorpus.evaluation.real_site_scoring import (
    Reference,
    Stored,
    date_matches,
    removed_lines,
    same_text,
    score_site,
    url_path,
)

SITE = "Pebble Notes – a blog about small tools"
FOOTER = "Copy freely, but name the author and link back to Pebble Notes."
WORDS = "alder birch cedar dogwood elm fir ginkgo hazel ironwood juniper kapok larch maple".split()
POSTS = 12


def post_parts(number: int) -> tuple[str, list[str], list[str]]:
    """(headline, body lines as the reference has them, the entry-content HTML blocks)."""
    headline = f"Notes on the {WORDS[number]} tool, part {number}"
    opening = f"This post is about the {WORDS[number]} tool and why I keep it around after {number + 2} years of use."
    middle = f"The {WORDS[number]} tool does one thing: it reads a file once and writes what it found, nothing more."
    lines, html = [opening, middle], [f"<p>{opening}</p>", f"<p>{middle}</p>"]
    if number % 2:  # half of the posts: the same small program and a heading many posts share
        code = ["#include <stdio.h>", "int main()", "{", "return 0;", "}"]
        lines += ["Summary", *code]
        html += ["<h2>Summary</h2>", "<pre>" + "\n".join(code).replace("<", "&lt;") + "</pre>"]
    closing = f"That is all for the {WORDS[number]} tool; next time, something smaller still."
    return headline, lines + [closing], html + [f"<p>{closing}</p>"]


def write_blog(root: Path) -> Path:
    links = []
    references = []
    for number in range(POSTS):
        headline, lines, blocks = post_parts(number)
        path = f"/2024/05/post-{number}.html"
        links.append(f'<li><a href="{path}">{headline}</a></li>')
        page = (f"<html><head><title>{headline} | {SITE}</title>"
                f'<meta property="article:published_time" content="2024-05-{number + 1:02d}T09:00:00+00:00">'
                f'</head><body><header><h1 class="site-title"><a href="/">{SITE}</a></h1></header>'
                f'<main><article><h1 class="entry-title">{headline}</h1>'
                f'<div class="entry-content">{"".join(blocks)}<p>{FOOTER}</p></div></article></main>'
                f'<footer><a href="/">Home</a></footer></body></html>')
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")
        references.append({"path": path, "title": headline, "author": None, "date": f"2024-05-{number + 1:02d}",
                           "body": "\n".join(lines)})
    (root / "index.html").write_text(f"<html><body><ul>{''.join(links)}</ul></body></html>", encoding="utf-8")
    refs = root.parent / "references.jsonl"
    refs.write_text("".join(json.dumps(r) + "\n" for r in references), encoding="utf-8")
    config = root.parent / "site.toml"
    config.write_text('name = "pebble-local"\nstart_urls = ["http://127.0.0.1:{port}/"]\n'
                      'allowed_domains = ["127.0.0.1"]\narticle_patterns = [\'/2024/05/post-\\d+\\.html$\']\n'
                      "allow_private_addresses = true\n", encoding="utf-8")
    return refs


def test_the_benchmark_crawls_a_served_mirror_and_scores_it(postgres_server_dsn, tmp_path, capsys):
    references = write_blog(tmp_path / "site")
    figures = tmp_path / "figures.json"
    code = main([str(tmp_path / "site"), "--references", str(references), "--config", str(tmp_path / "site.toml"),
                 "--dsn", postgres_server_dsn, "--no-anchor", "--json", str(figures)])
    report = capsys.readouterr().out
    assert code == 0, report
    result = json.loads(figures.read_text("utf-8"))
    assert result["references"] == result["fetched"] == result["articles"] == POSTS
    assert result["title_site_name"] == 0
    assert result["title"]["hits"] >= POSTS - 2  # the first two pages keep the suffix: two pages are thin evidence
    assert result["date"]["hits"] == POSTS
    assert result["duplicates"] == 0
    assert result["lines_removed"] >= POSTS - 3  # the footer, once its share is known
    assert result["content_lines_removed"] == 0  # the shared code and heading stay
    assert result["not_text_published"] == 0
    assert "| title exact |" in report


def test_scoring_rules():
    assert url_path("http://127.0.0.1:8101/articles/3.html?replytocom=5#c") == "/articles/3.html"
    assert url_path("http://h/a/b/index.html") == "/a/b/"
    assert same_text("Notes  on\u00a0tools", "notes on tools") and not same_text(None, "x")
    from datetime import UTC, datetime
    assert date_matches(datetime(2014, 2, 21, 16, 30, tzinfo=UTC), "2014-02-22")  # 00:30 on the 22nd at +08:00
    assert not date_matches(datetime(2014, 2, 21, 8, 27, tzinfo=UTC), "2014-02-22")
    assert removed_lines("a\nb\nb\nc", "a\nb") == ["b", "c"]
    one, two = "The first line of the post, long enough.", "The second line of the post."
    references = {"/p": Reference("/p", "T", None, None, f"{one}\n{two}")}
    stored = {"/p": Stored(fetched=True, outcome="article", title="T", body=f"{one}\n{two}\nShare",
                           clean_body=one, published=one),
              "/q": Stored(fetched=True, outcome="article", title="Q", body="}\n}", published="}\n}")}
    score = score_site(references, stored)
    assert score.title.hits == 1 and score.content_lines_removed == 1 and score.lines_removed == 2
    assert score.not_text_published == 1 and score.stored_articles == 2
