"""Drop the parsed tree's non-content elements in place: scripts, media and form controls (paper 000 §2.1's drop
list), dialogs, e-mail sign-up boxes and hidden keyword spam."""

from __future__ import annotations

from lxml import etree

from newscorpus.core.extraction.markup import DIALOG_ROLES, NESTING_DROPS, PageMarkup, hides
from newscorpus.core.text import tokenize

# Paper 000 §2.1 drop list plus select/button/svg/... (no article text). Not <form>: ASP.NET pages wrap
# the whole page in one form (zh_web_content_69 has such pages).
DROPPED_TAGS = (
    "script", "style", "img", "iframe", "object", "meta", "applet", "link", "noscript",
    "embed", "svg", "canvas", "video", "audio", "source", "picture", "template", "select", "option",
    "button", "input", "textarea", "head", "map", "math",
)  # fmt: skip
# Dialogs (cookie notices, consent and sign-up pop-ups) are not the page's content: WAI-ARIA marks them
# role="dialog"/"alertdialog" or aria-modal="true" (nbcnews.com's consent dialog holds a long cookie policy).
# Hidden elements (display:none, aria-hidden="true") stay: some sites hide body text until a script shows it; only
# hidden keyword spam goes (keyword_spam).
# Found by a walk of the elements, not by the XPath "//*[@role='dialog' or ...]", which costs more CPU.


def dialogs(root: etree._Element) -> list[etree._Element]:
    """The document's elements (all of it, as "//" reads it, wherever `root` is) marked as a dialog, in document
    order."""
    return [element for element in document_element(root).iter(etree.Element)
            if element.get("role") in DIALOG_ROLES or element.get("aria-modal") == "true"]


def document_element(element: etree._Element) -> etree._Element:
    """The document's root element: "descendant-or-self::" from it finds what "//" finds, in far less CPU in
    libxml2."""
    return element.getroottree().getroot()


# E-mail sign-up boxes (newsletter, "get our stories in your inbox") are not the page's content; their one
# sure mark is an e-mail input field, found in any markup (utility-CSS sites give no class hint). The box
# is the largest ancestor of the field holding at most SIGNUP_BOX_MAX_CHARS non-space characters once
# scripts are gone, and no <p> of its own beside the box (so a short article holding a box keeps its text).
# Swept 200-2000 with `newscorpus eval extraction` on the dev sets (with region.py's landmark rule): the middle of
# the 400-800 plateau; at 200 a box's intro lines stay, from 1200 the box grows into a short video description
# (aeon.co) or a teaser column (theverge.com). Comment forms ("name, e-mail, website") go too, which is no loss.
SIGNUP_BOX_MAX_CHARS = 600
_EMAIL_CASE = str.maketrans("EMAIL", "email")  # XPath translate(@type, 'EMAIL', 'email')


def email_fields(root: etree._Element) -> list[etree._Element]:
    """The document's e-mail input fields, in document order: what "descendant-or-self::input[translate(@type,
    'EMAIL', 'email') = 'email']" finds from the document element, by libxml2's tag-filtered walk rather than the
    XPath engine (tests/core/extraction/test_fast_forms_of_page_preparation.py compares them)."""
    return [field for field in document_element(root).iter("input") if _is_email_field(field)]


def _is_email_field(field: etree._Element) -> bool:
    return (field.get("type") or "").translate(_EMAIL_CASE) == "email"


# A <button> holds a label; one that holds paragraphs, headings or sections, or this much text, wraps page
# content: a </button> met while a <div> opened inside the button is still open is ignored by libxml2, which
# then nests the rest of the page, <main> included, inside the button (wcxb_train: the pages of one publishing
# platform kept no body). Such a button is kept as a plain container instead of dropped.
# Labels and menus are short; 1000 characters leaves room for a menu dropped with its button. Only <button>:
# a <textarea> holding much text holds escaped markup (1905.com), not page content.
BUTTON_MAX_CHARS = 1000
# The same for the other dropped elements that an unclosed start tag can make hold the page (markup.NESTING_DROPS:
# a <select>, an <object>, a <video> never closed): one holding paragraphs, headings or sections becomes a
# container. Not the text-count test: a <select> of 200 countries holds 2,000 characters of options.
_CONTENT_TAGS = ("p", "main", "article", "section", "h1", "h2", "h3")


def holds_content(element: etree._Element) -> bool:
    """Whether the element holds any of _CONTENT_TAGS ("boolean(.//p | .//main | ...)"), from one tag-filtered walk
    of its descendants that stops at the first hit (the XPath union walks them once per tag;
    tests/core/extraction/test_fast_forms_of_page_preparation.py compares the two)."""
    for _ in element.iterdescendants(*_CONTENT_TAGS):
        return True
    return False


def remove_keeping_tail(element: etree._Element) -> None:
    """Remove an element from the tree in place, keeping the text that follows it (its tail)."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def more_text_than(element: etree._Element, max_chars: int) -> bool:
    """Whether the element's text, descendants included, has more than max_chars non-space characters; reads
    only as far as it needs to (a page with many e-mail fields asks this of the whole page once per field)."""
    chars = 0
    for text in element.itertext():
        chars += sum(map(len, text.split()))
        if chars > max_chars:
            return True
    return chars > max_chars


def signup_box(field_parent: etree._Element, max_chars: int = SIGNUP_BOX_MAX_CHARS) -> etree._Element | None:
    """The largest ancestor-or-self of an e-mail field's parent with at most max_chars of text, below <body>,
    that does not reach a container of paragraphs (a short article holding the box stays)."""
    box = None
    element: etree._Element | None = field_parent
    while element is not None and element.tag not in ("body", "html"):
        if more_text_than(element, max_chars):
            break
        if box is not None and any(child.tag == "p" and child is not box for child in element):
            break
        box = element
        element = element.getparent()
    return box


def clean_tree(root: etree._Element, markup: PageMarkup | None = None) -> None:
    """Drop non-content elements in place (comments are already dropped by the parser): scripts, media and
    form controls (DROPPED_TAGS; those that wrap page content are kept as containers), dialogs, e-mail sign-up
    boxes and hidden keyword spam.

    `markup`: `read_markup(root)` (read before cleaning, `root` the document element, the tree unchanged since),
    whose walk found the elements asked for here (its inputs, buttons, NESTING_DROPS and dialogs), which saves four
    walks; the dialogs the drops below detach are skipped, as `dialogs(root)` after the drops would not see them
    (a dropped element has no parent; one inside a dropped element is removed from the detached copy only)."""
    if markup is None:
        fields, buttons, nesting = email_fields(root), root.iter("button"), root.iter(*NESTING_DROPS)
    else:
        fields, buttons, nesting = [field for field in markup.inputs if _is_email_field(field)], markup.buttons, \
            markup.nesting
    field_parents = [field.getparent() for field in fields]
    _keep_wrappers(buttons, nesting)
    etree.strip_elements(root, *DROPPED_TAGS, with_tail=False)
    boxes = [signup_box(parent) for parent in field_parents if parent is not None]
    found = dialogs(root) if markup is None else markup.dialogs
    hidden = markup.hidden if markup is not None else [e for e in root.iter(etree.Element) if hides(e.get("style", ""))]
    spam = [element for element in hidden if keyword_spam(element)]
    for element in found + [box for box in boxes if box is not None] + spam:
        if element.getparent() is not None:  # not inside an element dropped before
            remove_keeping_tail(element)


# A hidden element whose text says the same few things over and over is keyword spam planted for search engines
# (赌场 and lottery names, 北京赛车pk10…, a lorem-ipsum block), never content: below SPAM_MAX_DISTINCT of its
# token 3-grams are distinct, in at least SPAM_MIN_TOKENS scoring tokens (text.tokenize: a CJK character or a
# word). Scanned on the dev sets' hidden elements of 60 tokens or more (180): the fewest distinct are wcxb_train's
# lorem-ipsum blocks (.21-.26, not in the gold); every hidden tab or menu of real text is above .44; spam repeating
# a dozen keywords is below .2.
SPAM_MIN_TOKENS = 100
SPAM_MAX_DISTINCT = 0.3


def keyword_spam(element: etree._Element) -> bool:
    """Whether a hidden element's text is keyword spam (SPAM_MAX_DISTINCT)."""
    tokens = tokenize(" ".join(element.itertext()))
    if len(tokens) < SPAM_MIN_TOKENS:
        return False
    grams = list(zip(tokens, tokens[1:], tokens[2:], strict=False))  # the 3-grams: the later lists are shorter
    return len(set(grams)) < SPAM_MAX_DISTINCT * len(grams)


def _keep_wrappers(buttons, nesting) -> None:
    """The buttons and NESTING_DROPS elements that wrap page content become <div>s, which cleaning keeps."""
    for button in [b for b in buttons if _button_wraps_content(b)]:
        button.tag = "div"
    for element in [e for e in nesting if _drop_wraps_content(e)]:
        element.tag = "div"


def _button_wraps_content(button: etree._Element) -> bool:
    """A button holding paragraphs, headings or sections, or more than BUTTON_MAX_CHARS of text (an element without
    children holds no element, and a text of at most BUTTON_MAX_CHARS characters no more non-space ones)."""
    return bool(len(button) or len(button.text or "") > BUTTON_MAX_CHARS) and (
        holds_content(button) or more_text_than(button, BUTTON_MAX_CHARS))


def _drop_wraps_content(element: etree._Element) -> bool:
    """A NESTING_DROPS element holding paragraphs, headings or sections."""
    return bool(len(element)) and holds_content(element)
