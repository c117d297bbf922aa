"""Same-site pairs need stronger evidence than cross-site reprints, and a short text inside a long one is
a duplicate only when it is most of the long one."""

from __future__ import annotations

from dataclasses import replace

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import decide, judge_pair
from newscorpus.core.near_duplicate.features import build_features
from tests.core.near_duplicate.texts import (
    EN_PARAGRAPHS,
    EN_TITLE,
    ZH_PARAGRAPHS,
    ZH_TITLE,
    en_quiz,
    en_reprint,
    zh_quiz,
)

CONFIG = NearDuplicateConfig()
SITE, OTHER = 1, 2


def features(title: str, body: str, lang: str, site, config: NearDuplicateConfig = CONFIG):
    return build_features(title, body, lang, config, site)


def test_issues_of_a_weekly_series_on_one_site_are_different_stories():
    """The template is most of each issue: from the third issue on, the text the site's other issues hold is left
    out of the comparison (the titles' numbers tell them apart too: tested alone below)."""
    for quiz, lang in ((en_quiz, "en"), (zh_quiz, "zh")):
        weeks = [features(*quiz(week), lang, SITE) for week in range(3)]
        first, second = weeks[0], replace(weeks[1], title_numbers=weeks[0].title_numbers)
        assert judge_pair(second, "week 10", first, CONFIG).is_duplicate  # two issues alone, same numbers
        decision = decide(weeks[2], [("week 10", weeks[0]), ("week 11", weeks[1])], CONFIG)
        assert decision.duplicates == [], (lang, [j.measures for j in decision.judgements])
        assert all(j.measures.same_site and j.measures.site_text > 0 for j in decision.judgements)
        # A reprint of the third issue on another site is a duplicate of it, not of the other issues: the text
        # the series' site holds on other pages is left out there too.
        reprint = features(quiz(2)[0], "Republished with permission.\n" + quiz(2)[1], lang, OTHER)
        found = decide(reprint, [("week 10", weeks[0]), ("week 11", weeks[1]), ("week 12", weeks[2])], CONFIG)
        assert [j.candidate_id for j in found.duplicates] == ["week 12"], lang


def test_without_site_evidence_the_series_would_be_linked():
    """Sites unknown (None): nothing says the shared template is a site's, and the issues look like one story."""
    for quiz, lang in ((en_quiz, "en"), (zh_quiz, "zh")):
        weeks = [features(*quiz(week), lang, None) for week in range(3)]
        assert decide(weeks[2], [("week 10", weeks[0]), ("week 11", weeks[1])], CONFIG).duplicates, lang


def test_the_same_issue_again_on_its_site_is_a_duplicate_and_a_reprint_elsewhere_too():
    title, body = en_quiz(2)
    issue = features(title, body, "en", SITE)
    again = features(title, body + "\nUpdate: this quiz was corrected to give a name in full.", "en", SITE)
    others = [("week 10", features(*en_quiz(0), "en", SITE)), ("week 11", features(*en_quiz(1), "en", SITE))]
    [verdict] = decide(again, [*others, ("issue", issue)], CONFIG).duplicates
    assert verdict.candidate_id == "issue" and verdict.measures.body_jaccard > 0.7
    reprint = features(*en_reprint(), "en", OTHER)
    original = features(EN_TITLE, "\n\n".join(EN_PARAGRAPHS), "en", SITE)
    verdict = judge_pair(reprint, "original", original, CONFIG)
    assert verdict.is_duplicate and not verdict.measures.same_site
    # Unknown sites (None) are never the same site.
    unknown = judge_pair(features(*en_reprint(), "en", None), "o", features(EN_TITLE, body, "en", None), CONFIG)
    assert not unknown.measures.same_site


def test_a_short_post_inside_a_long_one_is_not_its_duplicate():
    """A blog's one-paragraph note quoted whole in a later long post: containment 1, but a small part of it."""
    for lang, title, paragraphs in (("zh", ZH_TITLE, ZH_PARAGRAPHS), ("en", EN_TITLE, EN_PARAGRAPHS)):
        joiner = "\n" if lang == "zh" else "\n\n"
        long_post = features(title, joiner.join(paragraphs * 3), lang, SITE)
        short_post = features(title, paragraphs[0] + joiner + paragraphs[1], lang, SITE)
        verdict = judge_pair(short_post, "long", long_post, CONFIG)
        assert verdict.measures.body_containment > 0.9 and verdict.measures.body_cover < 0.35
        assert not verdict.is_duplicate, lang
        cross_site = judge_pair(features(title, paragraphs[0] + joiner + paragraphs[1], lang, OTHER), "long",
                                long_post, CONFIG)
        assert not cross_site.is_duplicate, lang
        assert judge_pair(short_post, "long", long_post, replace(CONFIG, min_cover=0.0, same_site_jaccard=0.0)
                          ).is_duplicate, lang


SPRINT = ("The Millbrook tools team will hold its next coding sprint at the old library on {when}. "
          "Everyone is welcome, beginners included: we pair newcomers with someone who knows the code base. "
          "Bring a laptop with the project checked out and built; we will have power strips, coffee and "
          "whiteboards. Topics so far are the file reader, the summary printer and the test suite, and we are "
          "open to other ideas. Add your name to the wiki page so we know how many chairs to set out.")


def test_a_projects_announcements_reusing_text_under_another_headline_are_different_articles():
    """An event announced again with the same wording (another date in the text and the headline)."""
    spring = features("Millbrook tools Easter sprint, April 25 to May 1", SPRINT.format(when="April 25 to May 1"),
                      "en", SITE)
    autumn = features("Millbrook tools Halloween sprint, November 2 to 9", SPRINT.format(when="November 2 to 9"),
                      "en", SITE)
    verdict = judge_pair(autumn, "spring", spring, CONFIG)
    assert verdict.measures.body_jaccard >= CONFIG.same_site_jaccard  # the text alone says "the same"
    assert verdict.measures.title_overlap < CONFIG.same_site_title and not verdict.is_duplicate
    again = features("Millbrook tools Easter sprint, April 25 to May 1", SPRINT.format(when="April 25 to May 1")
                     + " Updated: the room has changed.", "en", SITE)
    assert judge_pair(again, "spring", spring, CONFIG).is_duplicate  # the same announcement at a second URL


def test_a_numbered_series_under_one_headline_is_told_apart_by_its_numbers():
    """Release notes that reuse their text and headline words, the version alone changing (two issues, no other
    issue yet to show the shared text is the site's)."""
    body = SPRINT.format(when="the release week") + " This release fixes the file reader and the summary printer."
    first = features("Millbrook tools v2.4.1 release", body.replace("release week", "2.4.1 release week"), "en", SITE)
    second = features("Millbrook tools v2.4.2 release", body.replace("release week", "2.4.2 release week"), "en", SITE)
    verdict = judge_pair(second, "v2.4.1", first, CONFIG)
    assert verdict.measures.title_overlap == 1.0 and verdict.measures.body_jaccard >= CONFIG.same_site_jaccard
    assert not verdict.measures.same_title_numbers and not verdict.is_duplicate
    elsewhere = features("Millbrook tools v2.4.2 release", body.replace("release week", "2.4.1 release week"), "en",
                         OTHER)  # across sites the numbers are not asked for
    assert judge_pair(elsewhere, "v2.4.1", first, CONFIG).is_duplicate
