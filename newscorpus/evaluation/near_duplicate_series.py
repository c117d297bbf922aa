"""Same-site hard cases for `newscorpus eval near-duplicate`, generated at eval time from the dev texts of
../shared/data/dedup (nothing third-party is stored in the project):

- "same series, different story" negatives: a site's recurring series whose issues share the series' template
  text and title words but tell different stories (a weekly news quiz, a voter guide per election, a county's
  restaurant-inspection round-up; 每周新闻测验, 投票指南, 餐饮抽检通报), as real newsrooms publish them. The
  templates are ours; each issue's story part is the opening sentences of another real article, sized so the
  template is 30-75 % of the issue (a quiz is mostly its template);
- same-site positives: an issue published again at a second URL of the same site, updated (a correction line
  added; once also a clarification); and
  cross-site positives: an issue syndicated to another site with a portal header and footer;
- excerpt negatives ("containment of a short text in a long one"): the first paragraph or two of an article
  posted apart (same site, and on another site), about a fifth of the article.
Deterministic (fixed seed), so its figures can be pinned as floors.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from itertools import combinations

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import measure_pair
from newscorpus.core.near_duplicate.keywords import title_keywords
from newscorpus.evaluation.near_duplicate_eval import StreamRun
from newscorpus.evaluation.pair_metrics import PairCounts

SEED = 20261124
ISSUES = 6  # issues per series: 15 same-series pairs each
SHARES = (0.3, 0.45, 0.6, 0.75)  # the template's share of an issue's tokens, in turn (a quiz's is large)
COUNTIES = ("Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir")
ZH_COUNTIES = ("青石", "白沙", "柳林", "桃源", "松江", "梅溪")

# (title, intro lines, outro lines) per series; {n} issue number, {year}, {county}, {date}, {k1}, {k2} from the
# issue's story.
SERIES = {
    "en": {
        "quiz": ("News quiz, week {n}: {k1}, {k2} and more",
                 ["How closely did you follow the news this week? Take our quiz and find out.",
                  "Each question is about a story we covered in the past seven days; the answers are at the bottom."],
                 ["Answers: 1-B, 2-A, 3-D, 4-C, 5-A.",
                  "Share your score with us, and come back next Friday for a new quiz.",
                  "The news quiz is published every Friday morning by the newsroom's weekend desk."]),
        "voter-guide": ("{year} voter guide: {k1} and {k2}",
                        ["Here is what you need to know before you vote in the {year} election.",
                         "Polls open at 7 a.m. and close at 8 p.m. on Election Day. Voters who are in line at "
                         "8 p.m. may still vote.",
                         "Bring a photo ID; if you moved since the last election, update your registration first."],
                        ["Find your polling place on the county elections website.",
                         "This guide is updated as candidates file their statements with the elections office."]),
        "inspections": ("Restaurant inspections in {county} County, week of {date}",
                        ["Health inspectors visited restaurants and food stands in {county} County this week.",
                         "Inspections are a snapshot of one visit; a restaurant can fix a violation the same day."],
                        ["Inspection reports are public records and can be requested from the county health "
                         "department.", "Have a tip about food safety? Email the newsroom."]),
    },
    "zh": {
        "quiz": ("每周新闻测验（第{n}期）：{k1}、{k2}",
                 ["这一周的新闻你都关注了吗？来做做我们的每周新闻测验吧。",
                  "每道题都来自过去七天报道过的新闻，答案附在文末。"],
                 ["答案：1.B 2.A 3.D 4.C 5.A。",
                  "欢迎在评论区晒出你的得分，下周五我们再见。",
                  "每周新闻测验由本报周末编辑部每周五早上发布。"]),
        "voter-guide": ("{year}年投票指南：{k1}与{k2}",
                        ["投票前你需要知道的事项都在这里。",
                         "投票站早上七点开门，晚上八点关闭；八点前已在排队的选民仍可投票。",
                         "请携带本人身份证件，搬家后请先更新登记信息。"],
                        ["投票站地址可在区选举委员会网站查询。",
                         "本指南将随候选人提交材料持续更新。"]),
        "inspections": ("{county}县餐饮抽检通报（{date}）",
                        ["本周，市场监管部门对{county}县的餐饮单位进行了抽检。",
                         "抽检结果只反映检查当天的情况，问题当场整改的不再另行通报。"],
                        ["抽检报告属于公开信息，可向县市场监管局申请查阅。",
                         "如有食品安全线索，欢迎向本报反映。"]),
    },
}
UPDATE = {"en": ["Update, {date}: this story was corrected to give a name in full.",
                 "An earlier version misstated when the results were announced; they came on the following Monday."],
          "zh": ["更新（{date}）：本文已更正一处人名。", "此前版本误写了结果公布的时间，实际公布时间为次周周一。"]}
HEADER = {"en": "Republished from our partner newsroom.", "zh": "本文转载自合作媒体。"}
FOOTER = {"en": "Copyright the original publisher. Reprinted with permission.",
          "zh": "版权归原作者所有，转载请注明出处。"}
EXCERPT_TITLE = {"en": "In brief: {k1}", "zh": "简讯：{k1}"}
_SENTENCE = {"en": re.compile(r"(?<=[.!?])\s+"), "zh": re.compile(r"(?<=[。！？])")}
_TOKENS = {"en": re.compile(r"\w+"), "zh": re.compile(r"\w")}


@dataclass
class SeriesData:
    docs: list[dict] = field(default_factory=list)  # id, lang, title, body, site (None: another site)
    pairs: list[dict] = field(default_factory=list)  # a, b, label, type, lang


def _tokens(text: str, lang: str) -> int:
    return len(_TOKENS[lang].findall(text))


def _sentences(body: str, lang: str) -> list[str]:
    found = [s.strip() for line in body.split("\n") for s in _SENTENCE[lang].split(line)]
    return [s for s in found if _tokens(s, lang) >= (6 if lang == "en" else 10)]


def _story(sentences: list[str], lang: str, wanted: int) -> list[str]:
    taken, count = [], 0
    for sentence in sentences:
        if count >= wanted:
            break
        taken.append(sentence)
        count += _tokens(sentence, lang)
    return taken


def generate(docs: list[dict], kind_of: dict[str, str]) -> SeriesData:
    """The series, update, syndication and excerpt documents and their labelled pairs, from the dev set's real
    articles (`docs`: id, lang, title, body; `kind_of`: id -> kind, originals and distractors are used)."""
    rng = random.Random(SEED)
    out = SeriesData()
    for lang, series in SERIES.items():
        sources = [d for d in docs if d["lang"] == lang and kind_of.get(d["id"]) in ("original", "distractor")]
        sources = [d for d in sources if len(_sentences(d["body"], lang)) >= 6]
        rng.shuffle(sources)
        for name, (title, intro, outro) in series.items():
            if len(sources) <= ISSUES:  # a small data set: as many series as it has stories for
                break
            site = f"{lang}-{name}.example"
            issues = []
            for number in range(ISSUES):
                source = sources.pop()
                keywords = [*title_keywords(source["title"], lang), "local news", "city hall"][:2]
                slots = {"n": 10 + number, "year": 2012 + 2 * number, "county": (ZH_COUNTIES if lang == "zh" else
                         COUNTIES)[number], "date": f"2024-0{1 + number}-1{number}", "k1": keywords[0],
                         "k2": keywords[1]}
                template = [line.format(**slots) for line in intro + outro]
                share = SHARES[number % len(SHARES)]
                wanted = int(_tokens(" ".join(template), lang) * (1 - share) / share)
                story = _story(_sentences(source["body"], lang), lang, wanted)
                body = "\n".join([*template[: len(intro)], *story, *template[len(intro):]])
                issues.append(_add(out, lang, site, title.format(**slots), body))
                if number < 2:  # the same issue again on the site, updated (a second URL): a correction
                    # line added; the second time also a clarification
                    lines = [body] + [line.format(**slots) for line in UPDATE[lang][: number + 1]]
                    update = _add(out, lang, site, title.format(**slots), "\n".join(lines))
                    out.pairs.append(_pair(issues[-1], update, 1, "same-site-update", lang))
                    out.pairs.extend(_pair(other, update, 0, "same-series", lang) for other in issues[:-1])
                if number == 2:  # syndicated to another site
                    copy = _add(out, lang, None, title.format(**slots), f"{HEADER[lang]}\n{body}\n{FOOTER[lang]}")
                    out.pairs.append(_pair(issues[-1], copy, 1, "series-syndicated", lang))
            out.pairs.extend(_pair(a, b, 0, "same-series", lang) for a, b in combinations(issues, 2))
        for number in range(min(6, len(sources))):  # a first paragraph posted apart: same site for half
            source = sources.pop()
            site = f"{lang}-blog.example"
            sentences = _sentences(source["body"], lang)
            whole = _add(out, lang, site, source["title"], source["body"])
            excerpt = "\n".join(_story(sentences, lang, _tokens(source["body"], lang) // 5))
            keyword = ([*title_keywords(source["title"], lang), "notes"])[0]
            short = _add(out, lang, site if number % 2 else None, EXCERPT_TITLE[lang].format(k1=keyword), excerpt)
            out.pairs.append(_pair(whole, short, 0, "same-site-excerpt" if number % 2 else "excerpt", lang))
    rng.shuffle(out.docs)  # arrival order: a series' issues arrive among everything else
    return out


def _add(out: SeriesData, lang: str, site: str | None, title: str, body: str) -> str:
    doc_id = f"s{len(out.docs) + 1:04d}"
    out.docs.append({"id": doc_id, "lang": lang, "title": title, "body": body, "site": site})
    return doc_id


def _pair(a: str, b: str, label: int, kind: str, lang: str) -> dict:
    first, second = sorted((a, b))
    return {"a": first, "b": second, "label": label, "type": kind, "lang": lang}


@dataclass
class SeriesResult:
    counts: dict[tuple[str, str], PairCounts]  # (pair type, lang) -> counts
    jaccard: dict[str, tuple[float, float]]  # pair type -> (min, max) body Jaccard over its pairs

    def by_label(self, label: int) -> PairCounts:
        total = PairCounts()
        for (kind, _lang), counts in self.counts.items():
            if (kind in POSITIVE_TYPES) == bool(label):
                total.tp, total.fn = total.tp + counts.tp, total.fn + counts.fn
                total.fp, total.tn = total.fp + counts.fp, total.tn + counts.tn
        return total


POSITIVE_TYPES = ("same-site-update", "series-syndicated")


def score(series: SeriesData, run: StreamRun, config: NearDuplicateConfig) -> SeriesResult:
    """Our decisions on the labelled pairs (as the stream compared them), and each type's body Jaccard range."""
    same = run.judged_same(config)
    counts: dict[tuple[str, str], PairCounts] = {}
    jaccards: dict[str, list[float]] = {}
    for p in series.pairs:
        counts.setdefault((p["type"], p["lang"]), PairCounts()).add(p["label"], (p["a"], p["b"]) in same)
        jaccards.setdefault(p["type"], []).append(measure_pair(run.features[p["a"]], run.features[p["b"]]).body_jaccard)
    return SeriesResult(counts, {kind: (min(values), max(values)) for kind, values in jaccards.items()})


def format_series(result: SeriesResult) -> str:
    rows = ["**Same-site cases** (generated from the dev texts, newscorpus/evaluation/near_duplicate_series.py): "
            "judged same / pairs", "",
            "| pair type | label | zh | en | whole-text body Jaccard min-max |", "|---|---|---|---|---|"]
    for kind in sorted({kind for kind, _ in result.counts}, key=lambda k: (k not in POSITIVE_TYPES, k)):
        cells = []
        for lang in ("zh", "en"):
            c = result.counts.get((kind, lang), PairCounts())
            cells.append(f"{c.tp + c.fp} / {c.tp + c.fp + c.fn + c.tn}")
        low, high = result.jaccard[kind]
        rows.append(f"| {kind} | {int(kind in POSITIVE_TYPES)} | {cells[0]} | {cells[1]} | {low:.2f}-{high:.2f} |")
    negatives, positives = result.by_label(0), result.by_label(1)
    rows += ["", f"Same-site cases: CE {negatives.ce:.3f} ({negatives.fp} FP of {negatives.fp + negatives.tn}), "
                 f"recall {positives.recall:.3f} ({positives.tp} of {positives.tp + positives.fn})"]
    return "\n".join(rows)
