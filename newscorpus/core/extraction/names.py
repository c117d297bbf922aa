"""Person names in bylines: cleaning (labels, roles, dates, e-mail addresses removed), splitting (`A and B`, `A、B`)
and the checks that tell a name from site chrome, a date, a role, an organisation or a source. Kept as data.
"""

from __future__ import annotations

import html
import re

from newscorpus.core.text import HAN_UNIFIED, characters

# Not the author: what follows these labels is an editor, reviewer, photographer or sponsor.
NOT_AUTHOR_LABEL = re.compile(
    r"^\s*(?:last\s+)?(?:updated|reviewed|edited|fact[- ]?checked|medically\s+reviewed|photos?|photograph(?:s|y)?|"
    r"illustrations?|images?|video|translated|produced|sponsored|presented|powered|designed|developed|"
    r"hosted|narrated|curated)\s+(?:by|from)\b|^\s*(?:责任编辑|责编|编辑|来源|稿源|出处|摄影|图片|校对|审核)",
    re.IGNORECASE,
)
# Labels in front of the name.
LABEL = re.compile(
    r"^\s*(?:(?:(?:view|see)\s+all\s+(?:posts|articles|stories)|more\s+(?:posts|articles|stories)|all\s+posts|"
    r"insights|written|posted|story|words|text|reported|article|published|compiled|recipe|contributed|"
    r"(?:a\s+)?(?:guest\s+)?post|submitted)\s+)?(?:by|from)\s*:?\s+|^\s*(?:about\s+the\s+authors?|authors?|"
    r"writer|reporter|byline|posted\s+by|contributor)\s*[:：]?\s+|^\s*(?:作\s*者|记\s*者|文|撰文|编者)\s*[:：/]\s*",
    re.IGNORECASE,
)
# What follows a name in a byline and is not part of it: separators, dates, times, "Updated ...", "says".
NAME_END = re.compile(
    r"\s*(?:[|•·⋅∙‧—–/]|\s-\s|\bon\s+(?:\w+day|\w+\s+\d|\d)|\bon\s*$|\bupdated\b|\bpublished\b|\bposted\b|"
    r"\blast\s+updated\b|\breviewed\b|\bfact[- ]checked\b|\bmedically\b|\bsays\b|\bwrote\b|"
    r"\bin\s+(?:news|blog|guides?|articles?)\b|\d{1,2}\s*(?:min|minute)s?\b|\b\d{4}-\d{2}-\d{2}|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\d{1,2}\s+(?:jan|feb|mar|apr|may|"
    r"jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\d{1,2}/\d{1,2}/|\bfor\s+[A-Z]|\bfollow\b|\bemail\b|\bview\s+all|"
    r"\bmore\s+(?:from|by|posts|articles)|\bread\s+more|\bphotograph|\bconnect\s+on|"
    r"\d+\s*(?:comments?|responses?|replies)\b|viewed\s+\d+\s+times?\b|"
    r"\s(?:发表于|发布于|发布时间|时间|日期|来源|阅读|评论|点击|责任编辑|编辑)|[:：]\s*\d)",
    re.IGNORECASE,
)
SPLIT = re.compile(r"\s+(?:and|&|und|et|y|e)\s+|\s*[;；、]\s*|\s+with\s+|\s*&amp;\s*", re.IGNORECASE)
_EMAIL = re.compile(r"\S+@\S+\.\w+")
_URL = re.compile(r"https?://\S+|www\.\S+")
# Roles that follow a name in author boxes ("Jane Roe Senior Writer", "Jane Roe, Founder at Acme").
ROLE_WORDS = frozenset(
    "founder co-founder cofounder ceo cto cmo coo editor writer reporter correspondent manager engineer specialist "
    "analyst director expert contributor columnist producer strategist consultant coordinator officer president "
    "vp head senior chief lead principal associate staff freelance contributing managing executive deputy "
    "marketing content digital tech technology seo certified licensed registered member partner owner "
    "winemaker journalist blogger".split()
)  # fmt: skip
# Role nouns that end a role, never a person's name: "Event Coordinator", "Travel Editor" (wcxb_train's author
# boxes and meta authors name the role where the name is missing).
ROLE_TITLES = frozenset(
    "editor writer reporter correspondent manager engineer specialist analyst director contributor columnist "
    "producer strategist consultant coordinator officer president founder co-founder cofounder ceo cto journalist "
    "blogger expert chief".split()
)  # fmt: skip
# Words that join the words of a role ("Editor-in-Chief", "Head of Content").
ROLE_JOINERS = frozenset("in of the and at for &".split())
# Buttons and links of author boxes that start with a verb ("Learn More", "Connect on LinkedIn"): no name starts
# with one.
CALL_TO_ACTION = frozenset(
    "learn connect view see click discover explore shop download share join watch subscribe visit continue "
    "read".split()
)  # fmt: skip
# Words that make a text something other than a person's name (site chrome, placeholders, UI).
NOT_A_NAME = frozenset(
    "admin administrator unknown none null anonymous guest user editor editors author authors by staff team "
    "contributor contributors published posted updated share comments comment reply home menu login log sign in "
    "subscribe follow view more read about contact search privacy terms cookie newsletter advertisement "
    "sponsored here bio biography linkedin twitter facebook instagram profile website name email required "
    "posts articles all page head extra undefined true false no not available n/a".split()
)  # fmt: skip
# Chinese surnames (the ~400 most frequent single-character ones and the common compound ones): a name read
# without a label (记者 X, （X）, 编辑 X) must start with one, so bracketed words of prose ("（含税）") are no name.
ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜"
    "崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫阎段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施"
    "文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛"
    "曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席"
    "卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝官封谈匡鞠惠荆乐冀郁"
    "胥南班储原栗燕楚鄢劳谌奚皮粟冼蔺楼满闻位厉伊仝区郜海阚花权强帅屠豆朴盖练廉禹井祖漆巴丰支卿国狄平计索宣晋相"
    "初门云容敬来扈晁芮都普阙浦戈伏鹿薄邸雍辜羊阿乌母裘亓修邰赫杭况那宿鲜印逯隆茹诸战慕危玉银亢嵇公哈湛宾戎勾茅"
    "利於呼居揭干但尉冶斯元束檀衣信展阴昝智幸奉植衡富尧闭由钮郦颉訾"
)  # fmt: skip
ZH_COMPOUND_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "尉迟", "公孙", "慕容", "令狐", "夏侯",
                        "长孙", "宇文", "司徒", "端木", "西门", "南宫", "独孤", "百里", "呼延")


def han_person_name(name: str) -> bool:
    """A Chinese name as written in an unlabelled byline: a surname, then one or two characters (three after a
    compound surname; a transliterated name with · may be longer)."""
    if "·" in name:
        return 3 <= len(name) <= 12
    if name.startswith(ZH_COMPOUND_SURNAMES):
        return 3 <= len(name) <= 4
    return 2 <= len(name) <= 3 and name[0] in ZH_SURNAMES


# Accounts, and the widgets whose boxes class names mark as bylines (recommendation feeds, share bars).
ALWAYS_NOT_A_NAME = frozenset(
    "admin administrator webmaster root sign login taboola outbrain revcontent zergnet mgid disqus addthis "
    "sharethis".split()
)  # fmt: skip
# Chinese words that byline patterns catch but that are no name (labels, pronouns, verbs of prose).
ZH_NOT_A_NAME = frozenset(
    "本文 本报 本站 本网 时间 日期 来源 发布 发表 编辑 责任 作者 记者 通讯员 阅读 评论 点击 访问 统计 进来 采访 "
    "报道 我们 他们 你们 网友 用户 管理员 匿名 佚名 未知 转载 原创 摘自 整理 推荐 关闭 窗口 关闭窗口 打印 收藏 返回 "
    "顶部 未完待续 全文 组图 视频 图片 主办 承办 协办 无内容 简体 繁体 简体中 首页 粉丝 关注 加关注 搜狐号 包括 "
    "播报 分享 举报 私信 订阅 作品 文章数 复制链接 复制 链接 分享到 分享至 微信 微博 朋友圈 扫一扫 二维码 客户端 "
    "下载 打开 点赞 转发 收起 展开 更多 字号 小程序 公众号 扫码阅读 手机看 今天 昨天 前天 刚刚 今日 昨日".split()
)  # fmt: skip
ORGANISATION_WORDS = re.compile(
    r"\b(?:inc|llc|ltd|limited|corp|corporation|company|group|media|news|press|agency|foundation|institute|"
    r"university|association|society|council|department|ministry|office|network|magazine|journal|times|post|"
    r"daily|herald|tribune|gazette|studios?|labs?|solutions|services|technologies|systems|hospital|clinic|"
    r"bank|partners|llp|gmbh|plc|centre|center|platform|official)\b|报社?|社$|网$|网络|台$|局$|部$|委$|集团|"
    r"公司|中心|频道|新闻|日报|晚报|时报|政府|研究院|协会",
    re.IGNORECASE,
)
HAN_ONLY = re.compile(f"^[{characters(HAN_UNIFIED)}·]+$")  # a name written in Han characters only
_HAN_ANY = re.compile(f"[{characters(HAN_UNIFIED)}]")
_HAN_PUNCTUATION = re.compile(r"[，。！？“”：；、《》「」…]")
_EDGE_SYMBOLS = re.compile(r"^[^\w(（]+|[^\w.)）]+$")
# Role words in front of a Chinese name: 记者惠禾 -> 惠禾, 本报记者 李明 -> 李明.
ZH_ROLE_PREFIX = re.compile(r"^(?:本报|本刊|本台|本网)?(?:特约|实习|首席)?(?:记者|通讯员|撰稿人?|编辑|作者)"
                            r"\s*[:：]?\s*")
_LATIN = re.compile(r"[A-Za-z]")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_NOT_NAME_TEXT = re.compile(
    r"[\"=<>{}\[\]]|\bby$|^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?$|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d+\s+(?:jan|feb|mar|apr|may|jun|jul|aug|"
    r"sep|oct|nov|dec)[a-z]*\b|作者|文章|记者|编辑|来源|时间|日期|发布|评论|阅读",
    re.IGNORECASE,
)
PARTICLES = frozenset("van von der den de del della di da du la le al el bin ibn st dos das y".split())
MAX_NAME_CHARS = 60
# Patterns of the functions below, compiled once (a pattern written in the call is looked up in re's cache on every
# call).
_TRAILING_MARKS = re.compile(r"[\s\d*†‡]+$")
_DIGIT = re.compile(r"\d")
_LATIN_WORD = re.compile(r"[A-Za-z]{3}")
_DOMAIN = re.compile(r"\.(?:com|org|net|cn|co|io)\b", re.IGNORECASE)
_NOT_WORD = re.compile(r"[\W_]+")
MAX_AUTHORS = 8


def clean_name(text: str | None, strict: bool = True) -> str | None:
    """A byline's name: labels, trailing roles/dates/separators and decoration removed; None when no name remains
    (_trimmed) or what remains is no person's name (name_rejection).

    `strict` (text read from the page rather than a structured field) also asks a Latin name for capitals."""
    if not text or not isinstance(text, str):
        return None
    text = " ".join(html.unescape(text).split())
    if NOT_AUTHOR_LABEL.search(text):
        return None  # an editor, a photographer, a sponsor
    trimmed = _trimmed(text, strict)
    if trimmed is None or name_rejection(trimmed, strict) is not None:
        return None
    return trimmed


def _trimmed(text: str, strict: bool) -> str | None:
    """The name part of a byline: e-mail addresses, URLs and labels removed, cut where NAME_END starts, Chinese role
    words, trailing marks and edge symbols removed (and a role after the name when `strict`). None when what is
    left holds markup, a label or a date (_NOT_NAME_TEXT)."""
    text = _URL.sub(" ", _EMAIL.sub(" ", text))
    for _ in range(2):
        text = LABEL.sub("", text)
    end = NAME_END.search(text)
    # "Jane Roe for The Times" ends at "for"; "Center for Drug Evaluation" is one organisation's name
    if end and end.start() > 0 and not (end.group(0).lstrip().startswith("for") and
                                        is_organisation_name(text[: end.start()])):
        text = text[: end.start()]
    if _HAN_ANY.search(text):
        text = ZH_ROLE_PREFIX.sub("", text.strip()).strip()
    if _NOT_NAME_TEXT.search(text.strip()):
        return None  # markup ('size="20'), a label ("Written by"), a date ("July 22")
    text = _TRAILING_MARKS.sub("", text).strip(" ,.:;-–—|·•()[]（）【】\"'“”@")
    text = _EDGE_SYMBOLS.sub("", text)
    if text.count("(") > text.count(")"):
        text += ")"
    if _NOT_NAME_TEXT.search(text):
        return None
    return _drop_role(text) if strict else text


def name_rejection(text: str, strict: bool = True) -> str | None:
    """Why a trimmed byline text is no person's name, None when it is one: the first reason of SHAPE_RULES; then a
    name in Han characters only is judged by its characters alone (_han_name_ok), any other by WORD_RULES."""
    for rule in SHAPE_RULES:
        reason = rule(text)
        if reason is not None:
            return reason
    if HAN_ONLY.match(text.replace(" ", "")):
        return None if _han_name_ok(text) else "not a Chinese name"
    words = [word for word in (word.strip(".,'’()（）") for word in text.split()) if word]
    lowered = [word.lower() for word in words]
    for rule in WORD_RULES:
        reason = rule(text, words, lowered, strict)
        if reason is not None:
            return reason
    return None


def _no_text(text: str) -> str | None:
    return "empty" if not text else None


def _too_long(text: str) -> str | None:
    return "too long" if len(text) > MAX_NAME_CHARS else None


def _a_path(text: str) -> str | None:
    return "a URL or a path" if "://" in text or text.startswith("/") else None


def _a_number(text: str) -> str | None:
    """A year, or digits without a Latin word (a date, a count)."""
    return "a year or a number" if _YEAR.search(text) or (_DIGIT.search(text) and not _LATIN_WORD.search(text)) \
        else None


# Chinese buttons and links of byline boxes: a verb of an app or a share bar first (下载App, 打开客户端, 扫码阅读), or a
# page version or a comment link (手机版, 热门跟贴); what a portal's author box also holds (magic_html_article's
# 163, qidian and pinshiwen pages).
ZH_BUTTON = re.compile(r"^(?:下载|打开|扫码|扫一扫|登录|注册|点击|关注|分享|收藏|订阅|返回|查看|进入)|"
                       r"(?:手机|网页|电脑|触屏|极速|简|繁)版$|跟贴|跟帖|客户端|[Aa][Pp][Pp]$")


def _a_button(text: str) -> str | None:
    return "a button" if _HAN_ANY.search(text) and ZH_BUTTON.search(text) else None


# Rules on the text alone, in order.
SHAPE_RULES = (_no_text, _too_long, _a_path, _a_number, _a_button)


def _han_sentence(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """Han characters with Chinese punctuation, or more than 12 characters before a bracket."""
    if _HAN_ANY.search(text) and (_HAN_PUNCTUATION.search(text) or len(text.split("(")[0]) > 12):
        return "a headline or a sentence"
    return None


def _chrome_words(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """No words, only NOT_A_NAME words, or more than one of them ("Share this post")."""
    if not words or all(word in NOT_A_NAME for word in lowered) or sum(word in NOT_A_NAME for word in lowered) > 1:
        return "site chrome"
    return None


def _too_many_words(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    return "a sentence" if len(words) > 6 else None


def _placeholder(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """A template placeholder ("page.head.author")."""
    return "a template placeholder" if text.count(".") >= 2 and " " not in text else None


def _lower_case_words(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """With `strict`, a Latin name of several words whose words (particles aside) are not capitalised: prose. One
    lower-case word is let pass in a name of three or more words."""
    if not strict or not _LATIN.search(text) or len(words) <= 1:
        return None
    lower = sum(not w[:1].isupper() for w in words if w.lower() not in PARTICLES and _LATIN.match(w))
    return "prose" if lower > (0 if len(words) <= 2 else 1) else None


def _account_word(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """A word of ALWAYS_NOT_A_NAME ("NOC Admin")."""
    return "an account" if any(word in ALWAYS_NOT_A_NAME for word in lowered) else None


def _acronym(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """One Latin word in capitals, at most 5 letters ("WRAL"): a site or an organisation."""
    if len(words) == 1 and words[0].isupper() and len(words[0]) <= 5 and _LATIN.search(words[0]):
        return "an acronym"
    return None


def _call_to_action(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """A button's words ("Learn More", "Connect on LinkedIn"): a verb of CALL_TO_ACTION first."""
    return "a button" if lowered and lowered[0] in CALL_TO_ACTION and len(words) <= 4 else None


def _role_only(text: str, words: list[str], lowered: list[str], strict: bool) -> str | None:
    """A role without a name: every word a role word ("Senior Editor", "Editor-in-Chief", "Marketing"), or two
    words ending with a role noun ("Event Coordinator")."""
    parts = [part for word in lowered for part in word.split("-") if part and part not in ROLE_JOINERS]
    if parts and all(part in ROLE_WORDS or part in ROLE_TITLES for part in parts):
        return "a role"
    return "a role" if len(words) == 2 and lowered[-1] in ROLE_TITLES else None


# Rules on a name not written in Han characters only, in order: (text, its words, their lower case, strict).
WORD_RULES = (_han_sentence, _chrome_words, _too_many_words, _placeholder, _lower_case_words, _account_word, _acronym,
              _call_to_action, _role_only)


def _drop_role(text: str) -> str:
    """"Jane Roe Senior Writer" -> "Jane Roe": cut at the first role word after two name words."""
    if "(" in text:
        inside = text.split("(", 1)[1].strip(" )").split()
        if inside and inside[0].lower() in ROLE_WORDS:
            text = text.split("(", 1)[0].strip()
    words = text.split()
    for index, word in enumerate(words):
        if index >= 2 and word.lower().strip(",.").split("-")[0] in ROLE_WORDS:
            return " ".join(words[:index]).rstrip(",")
    return text


def _han_name_ok(text: str) -> bool:
    parts = text.split()
    return all(2 <= len(part) <= 8 and part not in ZH_NOT_A_NAME and not ORGANISATION_WORDS.search(part)
               for part in parts)


def split_names(text: str | None, strict: bool = True) -> tuple[str, ...]:
    """Several names in one byline (`A and B`, `A, B and C`, `王建宏 张文攀`, `A、B`); parts that are an
    organisation ("Jane Roe, The Daily Post") are dropped when a person remains."""
    if not text or not isinstance(text, str):
        return ()
    if NOT_AUTHOR_LABEL.search(text):
        return ()
    raw = " ".join(html.unescape(text).split())
    raw = _cut_role_tail(LABEL.sub("", raw)) if strict else LABEL.sub("", raw)
    names = [clean_name(part, strict) for part in _byline_parts(raw)]
    names = [name for name in dict.fromkeys(n for n in names if n)]
    people = [name for name in names if not is_organisation_name(name)]
    return tuple(people or names)[:MAX_AUTHORS]


def _byline_parts(raw: str) -> list[str]:
    """The byline cut at SPLIT's separators; a Han-only byline at its spaces (`王建宏 张文攀`); a part of
    comma-separated full names at its commas ("Jane Roe, John Doe", but not "Jane Roe, MD")."""
    parts = [p for p in SPLIT.split(raw) if p and p.strip()]
    if len(parts) > 1 and _one_organisation(raw, parts):
        return [raw]
    if len(parts) == 1 and HAN_ONLY.match(raw.replace(" ", "")) and " " in raw.strip():
        parts = raw.split()
    spread: list[str] = []
    for part in parts:
        pieces = part.split(",")
        if len(pieces) > 1 and all(len(p.split()) >= 2 or HAN_ONLY.match(p.strip()) for p in pieces if p.strip()):
            spread.extend(pieces)
        else:
            spread.append(part)
    return spread


def _one_organisation(raw: str, parts: list[str]) -> bool:
    """"Center for Drug Evaluation and Research", "Department of Health and Human Services": an organisation's name
    holding "and", not several names (a part is a single word or an organisation; no comma lists names)."""
    return "," not in raw and is_organisation_name(raw) and any(
        len(part.split()) < 2 or is_organisation_name(part) for part in parts)


def _cut_role_tail(text: str) -> str:
    """"Jane Roe, Home & Security Expert" -> "Jane Roe": a comma followed by a role ends the names."""
    parts = text.split(",")
    for index in range(1, len(parts)):
        if any(word.lower().strip(".").split("-")[0] in ROLE_WORDS for word in " ".join(parts[index:]).split()):
            return ",".join(parts[:index])
    return text


def is_organisation_name(name: str) -> bool:
    return bool(ORGANISATION_WORDS.search(name)) or name.lower().startswith("the ") or \
        bool(_DOMAIN.search(name))


def name_key(text: str) -> str:
    return _NOT_WORD.sub("", text).lower()
