"""Competing regions in the default method: dialogs, repeated posts, thread lists, comment lists,
paragraphs with many links and split paragraph runs."""

from __future__ import annotations

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.parse import parse_html

EN_PARAGRAPHS = [
    f"Paragraph {n} of the council story says the vote was close, and members argued for an hour before "
    "the chair called the question, which passed by one vote."
    for n in range(1, 5)
]
ZH_POSTS = [
    "昨天去金矿玩，那里是当年发现第一块天然黄金的地方，现在是最受游客欢迎的观光城市。"
    "走进小镇，旧时的马车仍在照跑，卖烟的小女孩仍在吆喝，流浪的艺人仍在弹琴，让人时光倒流一百多年。"
    "如果游人有兴趣，可以到土地登记处取得证书，再到小溪旁淘金，反正金矿让人很难忘，尤其是开车一路过去，风景很好。"
    "回来的路上我们还去了一个小酒庄，品尝了当地的葡萄酒，价格也不贵。",
    "长发剪了，感觉很轻松。头发留得很长很长了，每天总是花很多时间去梳头、去洗头，以前总为一头美丽的长发而骄傲，"
    "但是时间久了，也觉得烦了，加上天气实在太热，就下决心去理发店剪短了，现在每天早上都能多睡一会儿。" * 3,
    "周末和朋友去海边走走，看看，听听海的声音。海风很凉爽，天空很清爽，我们在沙滩上坐了一个下午，"
    "聊起了小时候的事情，也聊起了以后的打算，回家的路上大家都说下次还要再来。" * 2,
]


def _page(title: str, body: str) -> str:
    return (
        f"<html><head><title>{title}</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/world'>World</a></nav>"
        f"{body}<footer>Copyright 2024 Example News.</footer></body></html>"
    )


def test_a_dialog_is_not_the_article_en() -> None:
    policy = "".join(
        f"<p>Cookie section {n}: we and our partners use cookies, and you may change your choices at any time.</p>"
        for n in range(12)
    )
    body = (
        "<article><h1>Council vote</h1>"
        + "".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS)
        + f"</article><div role='dialog' aria-label='Cookie Notice'><div id='policy'>{policy}</div></div>"
    )
    result = extract(_page("Council vote", body))
    assert result.body.split("\n") == EN_PARAGRAPHS


def test_a_modal_dialog_is_not_the_article_zh() -> None:
    notice = "".join(f"<p>第{n}条：本网站使用必要的技术手段，以便为您提供更好的服务。</p>" for n in range(12))
    body = f"<div class='text'><p>{ZH_POSTS[0]}</p></div><div aria-modal='true'>{notice}</div>"
    result = extract(_page("小镇游记", body))
    assert result.body == ZH_POSTS[0]


def test_dialog_removal_keeps_the_text_that_follows_it() -> None:
    root = parse_html("<html><body><div>Before.<div role='dialog'>Consent.</div>After, still here.</div></body></html>")
    clean_tree(root)
    texts = [block.text for block in build_blocks(root) if block.text]
    assert texts == ["Before.After, still here."]


def _blog_index(posts: list[str]) -> str:
    items = "".join(
        f"<table><tr><td class='post-title'>第{n}篇</td><td class='post-title'>2005-03-2{n} 01:20:44</td></tr></table>"
        f"<table><tr><td class='post-body'>{post}</td></tr></table>"
        f"<table><tr><td class='post-footer'>由海姑娘张贴 @ 2005-03-2{n} 01:20:44 (359)"
        f"<a href='/c{n}'>共 3 篇评论</a> <a href='/p{n}'>发表评论 >>></a></td></tr></table>"
        for n, post in enumerate(posts)
    )
    return _page("海姑娘 | blog.example.com", f"<div class='posts'>{items}</div>")


def test_blog_index_without_headline_gives_its_first_post_zh() -> None:
    # The second post is the longest; the page's first item is the one a reader (and the gold) takes, so the
    # region starts there. The region may climb over the next posts when their title and footer lines are under
    # a third of what they add (here they are): stopping the climb at the other items would cut guides whose
    # sections look like items, and changes no real blog page of the dev sets. The first post still leads (the
    # posts' title, date and footer lines come with them: a known cost on synthetic index pages like this one).
    lines = extract(_blog_index(ZH_POSTS)).body.split("\n")
    assert ZH_POSTS[0] in lines
    assert lines.index(ZH_POSTS[0]) < lines.index(ZH_POSTS[1])


def test_two_items_are_not_a_list_of_posts() -> None:
    # Two posts: no first-item rule, the longer one leads the region.
    assert ZH_POSTS[1] in extract(_blog_index(ZH_POSTS[:2])).body.split("\n")


def test_thread_list_does_not_outscore_the_first_post_zh() -> None:
    post = "导游的收入很大一部分来自购物的回扣，这是业内的行规，境内游境外游都是这样的。所以，一定要看清楚合同。"
    replies = "".join(
        f"<li><a href='/t{n}'>第{n}个回复的标题</a>【网友{n}】08-11 16:{n:02d} 138字 [140/0]</li>" for n in range(60)
    )
    body = f"<div class='topic'><p class='large'>{post}</p></div><ul class='thread'>{replies}</ul>"
    lines = extract(_page("央视论坛", body)).body.split("\n")
    assert lines[0] == post
    assert not any("网友" in line for line in lines)


def test_comment_list_with_content_classes_stays_out_en() -> None:
    article = EN_PARAGRAPHS[0] + " " + EN_PARAGRAPHS[1]
    long_comment = " ".join(["Before he died, the founder gave the designer a lot of power, and it shows."] * 6)
    body = (
        f"<h1>New notebook expected</h1><div class='content'><p>{article}</p></div>"
        f"<div class='comments'><div class='comment'><div class='content'>{long_comment}</div></div>"
        "<div class='comment'><div class='content'>Nice, finally a good keyboard again.</div></div></div>"
    )
    assert extract(_page("New notebook expected", body)).body == article


def test_a_negative_body_class_does_not_cover_the_page() -> None:
    body = "<div class='story'>" + "".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS) + "</div>"
    page = _page("Council vote", body).replace("<body>", "<body class='has-nav-bar'>")
    root = parse_html(page)
    clean_tree(root)
    assert all(block.hint >= 0 for block in build_blocks(root))
    assert extract(page).body.split("\n") == EN_PARAGRAPHS


def test_paragraph_with_many_links_but_its_own_sentence_is_kept_en() -> None:
    linked = (
        "<p><a href='/a'>The council's chair, Jane Doe,</a> and <a href='/b'>her deputy, John Roe,</a> spoke to "
        "reporters at <a href='/c'>the city hall</a> on Saturday, after the vote.</p>"
    )
    body = "<article><h1>Council vote</h1>" + "".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS[:2])
    body += linked + "<p><a href='/more'>More council news, here.</a></p></article>"
    lines = extract(_page("Council vote", body)).body.split("\n")
    assert lines[:2] == EN_PARAGRAPHS[:2]
    assert lines[2].startswith("The council's chair, Jane Doe, and her deputy")
    assert "More council news" not in lines[2]
    assert len(lines) == 3


def test_paragraph_runs_around_a_promo_are_joined_en() -> None:
    # The first paragraphs sit beside the container that holds the rest, split by a link promo; their class
    # carries a modifier ("para speakable") that the others lack.
    first = "".join(f"<div class='para speakable'>{p}</div>" for p in EN_PARAGRAPHS[:2])
    promo = "<div class='promo-box'><p><a href='/show'>Watch the weekly show, every Friday.</a></p></div>"
    rest = "<div class='read-all'>" + "".join(f"<div class='para'>{p}</div>" for p in EN_PARAGRAPHS[2:] * 3) + "</div>"
    body = f"<h1>Council vote</h1><div class='container'>{first}{promo}{rest}</div>"
    lines = extract(_page("Council vote", body)).body.split("\n")
    assert lines[:2] == EN_PARAGRAPHS[:2]
    assert "Watch the weekly show" not in "\n".join(lines)
