"""Many sites in one build: N news sites served at once on distinct loopback hosts (127.0.0.2, 127.0.0.3, ...),
all crawled by one `newscorpus build` into a throwaway schema of the given Postgres.

    python -m benchmarks.many_sites --sites 20,50,100 --total 800 [--dsn DSN] [--anchor-connections 74]

The sites are made at run time from the labelled zh and en texts of ../shared/data/extraction (never copied into
the project): each story is drawn from a shuffled pool of their sentences without replacement, so two stories share
no sentence unless the generator says so. Each site has its own page template (header, navigation, related box,
footer), a sitemap and a feed. A share of the stories are wire reprints: the same story on 2-10 publishers of its
language, each copy edited (another headline, a paragraph dropped or added, an editor's line, a photo caption);
each site also runs a weekly series whose episodes share a headline, an intro paragraph and nothing else (not
duplicates). The ground truth is the generator's.

Per N: wall seconds of the build, pages/s, the build's peak RSS (the summed RSS of its process tree, sampled every
0.1 s), the most Postgres connections it held at once (pg_stat_activity rows with the run's own application_name,
polled every 0.1 s) beside the bound, reprint-link precision and recall against the truth (pairs of stored
articles sharing a canonical), series episodes linked, the most requests in flight at once on any one host
(counted by the servers) beside CONCURRENT_REQUESTS_PER_DOMAIN, and whether every article was stored or named as
not saved in the build's log. With --anchor-connections the first N is also built with that bound (more sites at
once; enough for every site is the build before the bound), in the same process on the same sites, and the wall
time is given as a ratio. --total: the articles shared by the sites (the texts give about 800 distinct stories).

The crawl keeps the project's politeness (AutoThrottle, DOWNLOAD_DELAY, 4 requests per host), as a build has it:
the wall time is bound by it, per site, so the figures say what the bound on sites crawled at once costs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from html import escape
from http.server import BaseHTTPRequestHandler
from itertools import combinations
from pathlib import Path

import psutil
import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from newscorpus.demo.server import QuietServer

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = Path(os.environ.get("NEWSCORPUS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data")) / "extraction"
TEXT_FOLDERS = ("magic_html_article", "scrapinghub_aeb", "zh_web_content_69")
NEWSCORPUS = Path(sys.executable).parent / "newscorpus"
PER_HOST_LIMIT = 4  # CONCURRENT_REQUESTS_PER_DOMAIN (the project's default)
WIRE_SHARE = 0.25   # of each language's article slots taken by wire copies
SERIES_EPISODES = 3
LISTING_PAGE_SIZE = 20
# The project's politeness as a build has it (AutoThrottle, DOWNLOAD_DELAY 0.25 s, 4 per host); `--settings
# DOWNLOAD_DELAY=0 --settings AUTOTHROTTLE_ENABLED=0` for a CPU-bound build (the limit of 4 per host still holds).
CRAWL_SETTINGS: dict[str, str] = {}
_ZH_SENTENCE = re.compile(r"[^。！？]+[。！？]")
_EN_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")


# --- the texts -------------------------------------------------------------------------------------------------
def load_sentences(data_dir: Path = DATA_DIR) -> dict[str, list[str]]:
    """Distinct sentences of the labelled zh and en gold texts, in a fixed order."""
    pools: dict[str, dict[str, None]] = {"zh": {}, "en": {}}
    for folder in TEXT_FOLDERS:
        manifest = json.loads((data_dir / folder / "manifest.json").read_text("utf-8"))
        for item in manifest["items"]:
            lang = item.get("lang")
            if lang not in pools:
                continue
            text = (data_dir / folder / f"{item['stem']}.txt").read_text("utf-8", errors="replace")
            for line in text.splitlines():
                line = line.strip()
                if lang == "zh":
                    for sentence in _ZH_SENTENCE.findall(line):
                        sentence = sentence.strip()
                        if 18 <= len(sentence) <= 150:
                            pools[lang][sentence] = None
                else:
                    for sentence in _EN_SENTENCE.split(line):
                        sentence = sentence.strip()
                        if 10 <= len(sentence.split()) <= 60 and sentence[-1:] in ".!?":
                            pools[lang][sentence] = None
    return {lang: list(pool) for lang, pool in pools.items()}


class SentencePool:
    """Sentences handed out once each, in a seeded order."""

    def __init__(self, sentences: list[str], rng: random.Random):
        self.sentences = list(sentences)
        rng.shuffle(self.sentences)

    def take(self, count: int) -> list[str]:
        if count > len(self.sentences):
            raise ValueError("the texts hold too few sentences for so many articles: use fewer --articles")
        taken, self.sentences = self.sentences[:count], self.sentences[count:]
        return taken


# --- the sites ----------------------------------------------------------------------------------------------------
@dataclass
class Article:
    number: int
    title: str
    paragraphs: list[str]
    published: date
    kind: str                    # "own", "wire", "series"
    group: str | None = None     # the wire story's or the series' id
    caption: str | None = None

    @property
    def path(self) -> str:
        return f"/news/{self.published:%Y/%m/%d}/story-{self.number:04d}.html"


@dataclass
class Site:
    index: int
    lang: str
    host: str
    name: str
    layout: int
    articles: list[Article] = field(default_factory=list)
    port: int = 0

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"


EN_NAMES = ("Harbor Daily", "Valley Courier", "Northern Ledger", "Coastal Post", "City Herald", "River Times")
ZH_NAMES = ("东方日报", "南岭晚报", "北江新闻", "西湖时报", "中原商报", "海峡导报")
EN_EDITORS = ("Jane Porter", "Liam Brooks", "Ana Silva", "Tom Reyes", "Mia Chen")
ZH_EDITORS = ("王芳", "李强", "张敏", "刘洋", "陈静")
SERIES_TOPICS_EN = ("markets", "science", "culture", "sports", "technology")
SERIES_TOPICS_ZH = ("财经", "科技", "文化", "体育", "教育")


def _story(pool: SentencePool, lang: str, rng: random.Random) -> tuple[str, list[str]]:
    joiner = " " if lang == "en" else ""
    paragraphs = [joiner.join(pool.take(2)) for _ in range(rng.randint(3, 5))]
    head = pool.take(1)[0]
    title = " ".join(head.split()[:9]).rstrip(",.;:") if lang == "en" else head[:18].rstrip("，。；：")
    return title, paragraphs


def _wire_copy(title: str, paragraphs: list[str], site: Site, pool: SentencePool, rng: random.Random,
               copy: int) -> tuple[str, list[str], str]:
    """A publisher's edit of a wire story: headline, one paragraph dropped or added, an editor's line, a caption."""
    if site.lang == "en":
        heads = ("{t}", "{t}, officials say", "UPDATE: {t}", "{t} - report", "What we know: {t}", "{t} (analysis)")
    else:
        heads = ("{t}", "快讯：{t}", "{t}（组图）", "{t}——记者观察", "独家：{t}", "{t}（更新）")
    headline = heads[copy % len(heads)].format(t=title)
    body = list(paragraphs)
    if rng.random() < 0.5 and len(body) > 3:
        del body[rng.randrange(1, len(body))]
    else:
        joiner = " " if site.lang == "en" else ""
        body.insert(rng.randrange(1, len(body) + 1), joiner.join(pool.take(2)))
    editor = rng.choice(EN_EDITORS if site.lang == "en" else ZH_EDITORS)
    body.append(f"Edited by {editor} for {site.name}." if site.lang == "en" else f"（责任编辑：{editor}）")
    caption = (f"Photo: {pool.take(1)[0][:80]} ({site.name}/file)" if site.lang == "en"
               else f"图为{pool.take(1)[0][:30]}。{site.name}记者 摄")
    return headline, body, caption


def generate_sites(count: int, articles_per_site: int, seed: int = 20261207,
                   sentences: dict[str, list[str]] | None = None) -> list[Site]:
    """``count`` sites of ``articles_per_site`` articles each (zh and en in turn); each article says whether it is
    the site's own, a wire copy or a series episode, and of which story or series (the truth, truth_groups)."""
    rng = random.Random(seed)
    sentences = sentences or load_sentences()
    pools = {lang: SentencePool(sentences[lang], rng) for lang in ("zh", "en")}
    sites = []
    for index in range(count):
        lang = "zh" if index % 2 == 0 else "en"
        names = ZH_NAMES if lang == "zh" else EN_NAMES
        sites.append(Site(index, lang, f"127.0.0.{index + 2}", f"{names[index % len(names)]}{index + 2:03d}",
                          layout=index % len(LAYOUTS)))
    start = date(2026, 10, 1)
    counters = [0] * count
    for lang in ("zh", "en"):
        group = [site for site in sites if site.lang == lang]
        if not group:
            continue
        pool = pools[lang]
        free = {site.index: articles_per_site for site in group}
        series_n = SERIES_EPISODES if articles_per_site >= 2 * SERIES_EPISODES and len(group) else 0
        for site in group:
            free[site.index] -= series_n
        wire_slots = int(WIRE_SHARE * articles_per_site * len(group)) if len(group) >= 2 else 0
        story = 0
        while wire_slots >= 2:
            open_sites = [site for site in group if free[site.index] > 0]
            if len(open_sites) < 2:
                break
            copies = min(rng.randint(2, 10), len(open_sites), wire_slots)
            if copies < 2:
                break
            title, paragraphs = _story(pool, lang, rng)
            published = start + timedelta(days=rng.randrange(60))
            for copy, site in enumerate(rng.sample(open_sites, copies)):
                headline, body, caption = _wire_copy(title, paragraphs, site, pool, rng, copy)
                counters[site.index] += 1
                site.articles.append(Article(counters[site.index], headline, body, published, "wire",
                                             f"{lang}-wire-{story}", caption))
                free[site.index] -= 1
            wire_slots -= copies
            story += 1
        for site in group:
            if series_n:
                topic = (SERIES_TOPICS_EN if lang == "en" else SERIES_TOPICS_ZH)[site.index % 5]
                intro = (f"Every week the {site.name} {topic} desk gathers the stories our readers asked about, "
                         f"with the figures behind them and what to watch for in the days ahead."
                         if lang == "en" else
                         f"每周，{site.name}{topic}组为读者梳理本周最受关注的新闻，附上背后的数据，并提示未来几天值得关注的动向。")
                for episode in range(1, series_n + 1):
                    _, paragraphs = _story(pool, lang, rng)
                    title = (f"Weekly {topic} roundup, week {episode}" if lang == "en"
                             else f"每周{topic}观察（第{episode}期）")
                    counters[site.index] += 1
                    site.articles.append(Article(counters[site.index], title, [intro, *paragraphs],
                                                 start + timedelta(weeks=episode), "series",
                                                 f"{site.host}-series"))
            for _ in range(free[site.index]):
                title, paragraphs = _story(pool, lang, rng)
                counters[site.index] += 1
                site.articles.append(Article(counters[site.index], title, paragraphs,
                                             start + timedelta(days=rng.randrange(60)), "own"))
    return sites


def truth_groups(sites: list[Site]) -> dict[str, dict[str, list[str]]]:
    """``{"wire": {story: [urls]}, "series": {series: [urls]}}``, URLs as served."""
    groups: dict[str, dict[str, list[str]]] = {"wire": defaultdict(list), "series": defaultdict(list)}
    for site in sites:
        for article in site.articles:
            if article.group:
                groups[article.kind][article.group].append(site.base_url + article.path)
    return {kind: dict(value) for kind, value in groups.items()}


# --- the pages ----------------------------------------------------------------------------------------------------
SECTIONS_EN = ("World", "Business", "Science", "Sport", "Opinion")
SECTIONS_ZH = ("国内", "国际", "财经", "科技", "体育")
# Each layout: (header id, nav class, main id, body class, related id, footer id): one template per site.
LAYOUTS = (
    ("masthead", "menu", "content", "story-body", "related", "colophon"),
    ("top", "nav-bar", "main", "article-text", "more-stories", "site-footer"),
    ("header", "sections", "primary", "entry-content", "also-read", "bottom"),
    ("brand", "topnav", "page", "post-body", "recommended", "legal"),
)


def _page(site: Site, title: str, main: str, related: list[Article]) -> bytes:
    header, nav_class, main_id, _, related_id, footer = LAYOUTS[site.layout]
    sections = SECTIONS_EN if site.lang == "en" else SECTIONS_ZH
    nav = " ".join(f'<a href="/">{name}</a>' for name in sections)
    box = "".join(f'<li><a href="{a.path}">{escape(a.title)}</a></li>' for a in related)
    box_title = "Related stories" if site.lang == "en" else "相关新闻"
    notice = (f"© 2026 {site.name}. All rights reserved. Contact us | Advertise | Privacy"
              if site.lang == "en" else f"版权所有 © 2026 {site.name} 未经授权禁止转载 联系我们 | 广告服务 | 隐私政策")
    return (f'<!DOCTYPE html><html lang="{site.lang}"><head><meta charset="utf-8"><title>{escape(title)} - '
            f'{escape(site.name)}</title></head><body><div id="{header}"><div class="logo">{escape(site.name)}</div>'
            f'<div class="{nav_class}">{nav}</div></div><div id="{main_id}">{main}</div>'
            f'<div id="{related_id}"><h3>{box_title}</h3><ul>{box}</ul></div>'
            f'<div id="{footer}"><p>{escape(notice)}</p></div></body></html>').encode()


def render_article(site: Site, article: Article) -> bytes:
    body_class = LAYOUTS[site.layout][3]
    byline = (f"By {site.name} staff | Published {article.published:%d %B %Y}" if site.lang == "en"
              else f"来源：{site.name}　发布时间：{article.published:%Y-%m-%d} 09:00")
    figure = f'<figure><figcaption>{escape(article.caption)}</figcaption></figure>' if article.caption else ""
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in article.paragraphs)
    main = (f'<h1>{escape(article.title)}</h1><div class="byline">{escape(byline)}</div>'
            f'<div class="{body_class}">{figure}{paragraphs}</div>'
            f'<time datetime="{article.published:%Y-%m-%d}T09:00:00+00:00"></time>')
    others = [a for a in site.articles if a.number != article.number]
    start = article.number % max(1, len(others))
    return _page(site, article.title, main, (others[start:] + others[:start])[:4])


def render_listing(site: Site, page: int) -> bytes:
    ordered = sorted(site.articles, key=lambda a: (a.published, a.number), reverse=True)
    chunk = ordered[(page - 1) * LISTING_PAGE_SIZE: page * LISTING_PAGE_SIZE]
    items = "".join(f'<li><a href="{a.path}">{escape(a.title)}</a> {a.published:%Y-%m-%d}</li>' for a in chunk)
    more = f'<a href="/page/{page + 1}/">next</a>' if page * LISTING_PAGE_SIZE < len(ordered) else ""
    return _page(site, site.name, f'<ul class="list">{items}</ul>{more}', [])


def render_sitemap(site: Site) -> bytes:
    entries = "".join(f"<url><loc>{site.base_url}{a.path}</loc></url>" for a in site.articles)
    return (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{entries}</urlset>").encode()


def render_feed(site: Site) -> bytes:
    latest = sorted(site.articles, key=lambda a: (a.published, a.number), reverse=True)[:LISTING_PAGE_SIZE]
    items = "".join(f"<item><title>{escape(a.title)}</title><link>{site.base_url}{a.path}</link>"
                    f"<pubDate>{a.published:%a, %d %b %Y} 09:00:00 +0000</pubDate></item>" for a in latest)
    return (f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>{escape(site.name)}</title>'
            f"<link>{site.base_url}/</link>{items}</channel></rss>").encode()


class InFlight:
    """Requests being answered at once, per host, and the most seen."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now: dict[str, int] = defaultdict(int)
        self.peak: dict[str, int] = defaultdict(int)
        self.requests: dict[str, int] = defaultdict(int)

    def enter(self, host: str) -> None:
        with self.lock:
            self.now[host] += 1
            self.requests[host] += 1
            self.peak[host] = max(self.peak[host], self.now[host])

    def leave(self, host: str) -> None:
        with self.lock:
            self.now[host] -= 1


def _handler(site: Site, in_flight: InFlight):
    pages = {a.path: a for a in site.articles}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            # Counted from the request's arrival until just before its response is written: within the time the
            # crawler holds the request's slot, so the count never exceeds the crawler's own.
            in_flight.enter(site.host)
            left = False
            try:
                path = self.path.split("?")[0]
                kind, body = "text/html; charset=utf-8", None
                if path == "/":
                    body = render_listing(site, 1)
                elif match := re.fullmatch(r"/page/(\d+)/", path):
                    body = render_listing(site, int(match.group(1)))
                elif path in pages:
                    body = render_article(site, pages[path])
                elif path == "/sitemap.xml":
                    kind, body = "application/xml", render_sitemap(site)
                elif path == "/rss.xml":
                    kind, body = "application/rss+xml", render_feed(site)
                elif path == "/robots.txt":
                    kind, body = "text/plain", b"User-agent: *\nAllow: /\n"
                status = 200 if body is not None else 404
                body = body if body is not None else b"not found"
                time.sleep(0.002)  # a server's own latency, so requests overlap as on a real site
                in_flight.leave(site.host)
                left = True
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            finally:
                if not left:
                    in_flight.leave(site.host)

    return Handler


class Servers:
    """Every site served on its own loopback host (one port for all when it is free on each); stopped on exit."""

    def __init__(self, sites: list[Site]):
        self.sites, self.in_flight, self.servers = sites, InFlight(), []

    def __enter__(self) -> Servers:
        for site in self.sites:
            port = self.servers[0].server_address[1] if self.servers else 0
            try:
                server = QuietServer((site.host, port), _handler(site, self.in_flight))
            except OSError:  # that port is taken on this host: any other
                server = QuietServer((site.host, 0), _handler(site, self.in_flight))
            site.port = server.server_address[1]
            self.servers.append(server.start())
        return self

    def __exit__(self, *exc) -> None:
        for server in self.servers:
            server.stop()


def write_configs(sites: list[Site], folder: Path) -> list[Path]:
    paths = []
    for site in sites:
        path = folder / f"site{site.index + 2:03d}.toml"
        path.write_text(
            f'name = "site{site.index + 2:03d}"\nstart_urls = ["{site.base_url}/"]\n'
            f'sitemap_urls = ["{site.base_url}/sitemap.xml"]\nfeed_urls = ["{site.base_url}/rss.xml"]\n'
            f'allowed_domains = ["{site.host}"]\narticle_patterns = [\'/\\d{{4}}/\\d{{2}}/\\d{{2}}/\']\n'
            "allow_private_addresses = true\n", encoding="utf-8")
        paths.append(path)
    return paths


# --- one build, watched ---------------------------------------------------------------------------------------------
@dataclass
class BuildRun:
    returncode: int
    report: dict
    stderr: str
    wall_seconds: float
    peak_rss_mb: float
    peak_connections: int
    cpu_seconds: float = 0.0        # the build's process tree (user + system), Postgres's own out
    crawl_cpu_seconds: float = 0.0  # its crawl children alone (sampled every 0.1 s, so up to 0.1 s short)
    crawl_seconds: float = 0.0      # the crawl children's life (sampled)
    crawl_processes: int = 0        # the most crawl children seen at once


def _tree_rss_mb(process: psutil.Process) -> float:
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _crawl_children_cpu(build: psutil.Process) -> dict[int, float]:
    """CPU seconds so far of each running crawl child of the build (with its own children), by pid."""
    seconds = {}
    for member in build.children(recursive=True):
        try:
            if "newscorpus.builds.crawl_child" in " ".join(member.cmdline()):
                times = member.cpu_times()
                seconds[member.pid] = times.user + times.system + times.children_user + times.children_system
        except psutil.Error:
            pass
    return seconds


def watched_build(server_dsn: str, dsn: str, application_name: str, configs: list[Path], out: Path,
                  settings: dict, timeout: float = 3600, crawl_processes: int = 1) -> BuildRun:
    """`newscorpus build` of ``configs``, with its process tree's RSS and its connections polled every 0.1 s."""
    command = [str(NEWSCORPUS), "build", "--dsn", dsn, "--out", str(out), "--json", "--log-every", "30",
               "--crawl-processes", str(crawl_processes)]
    for config in configs:
        command += ["--site-config", str(config)]
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    environment = {k: v for k, v in os.environ.items() if k != "NEWSCORPUS_DB_DSN"}
    errors = tempfile.TemporaryFile(mode="w+")
    cpu_before = _children_cpu_seconds()
    started = time.monotonic()
    child = subprocess.Popen(command, cwd=PROJECT_ROOT, env=environment, stdout=subprocess.PIPE, stderr=errors,
                             text=True)
    peak_rss = 0.0
    peak_connections = 0
    crawl_cpu: dict[int, float] = {}
    crawl_seen, crawl_processes = [], 0
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.append(child.stdout.read()), daemon=True)
    reader.start()
    watched = psutil.Process(child.pid)
    with psycopg.connect(server_dsn, autocommit=True) as poll:
        while child.poll() is None:
            peak_rss = max(peak_rss, _tree_rss_mb(watched))
            running = _crawl_children_cpu(watched)
            if running:
                crawl_cpu |= running   # each child's last sample: one that ended keeps its last
                crawl_seen.append(time.monotonic())
                crawl_processes = max(crawl_processes, len(running))
            count = poll.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                                 (application_name,)).fetchone()[0]
            peak_connections = max(peak_connections, count)
            if time.monotonic() - started > timeout:
                child.kill()
            time.sleep(0.1)
    wall = time.monotonic() - started
    cpu = _children_cpu_seconds() - cpu_before  # the build and what it reaped (its crawl child)
    reader.join()
    errors.seek(0)
    stderr = errors.read()
    try:
        report = json.loads(output[0]) if output and output[0].strip() else {}
    except ValueError:
        report = {}
    crawl_seconds = crawl_seen[-1] - crawl_seen[0] if crawl_seen else 0.0
    return BuildRun(child.returncode, report, stderr, wall, peak_rss, peak_connections, cpu, sum(crawl_cpu.values()),
                    crawl_seconds, crawl_processes)


def link_scores(stored: list[dict], truth: dict) -> dict:
    """Reprint links against the truth: pairs of stored articles under one canonical (or one the canonical of
    the other), over all pairs of copies of one wire story; series pairs linked; articles stored or named."""
    root = {}
    for record in stored:
        root[record["url"]] = record["duplicate_of"] or record["url"]
    members: dict[str, list[str]] = defaultdict(list)
    for url, canonical in root.items():
        members[canonical].append(url)
    predicted = {frozenset(pair) for group in members.values() for pair in combinations(sorted(group), 2)}
    wire = {frozenset(pair) for urls in truth["wire"].values() for pair in combinations(sorted(urls), 2)}
    series = {frozenset(pair) for urls in truth["series"].values() for pair in combinations(sorted(urls), 2)}
    hit = len(predicted & wire)
    return {"predicted_pairs": len(predicted), "truth_pairs": len(wire),
            "precision": hit / len(predicted) if predicted else 1.0,
            "recall": hit / len(wire) if wire else 1.0,
            "series_pairs": len(series), "series_linked": len(predicted & series)}


def stored_articles(dsn: str) -> list[dict]:
    from newscorpus.store.derivation import published_articles

    return [{"url": r["url"], "duplicate_of": r["duplicate_of"]} for r in published_articles(dsn)]


@contextmanager
def throwaway_schema(server_dsn: str):
    """(schema DSN, application_name): a new schema, its connections named by the application_name; dropped on
    exit (only this schema, which the run created)."""
    schema = f"bench_many_sites_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_dsn, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield make_conninfo(server_dsn, options=f"-csearch_path={schema}", application_name=schema), schema
    finally:
        with psycopg.connect(server_dsn, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


@dataclass
class PlainRun:
    """The anchor: benchmarks/plain_spider.py over the same hosts, with the build's politeness."""
    pages: int
    wall_seconds: float
    cpu_seconds: float
    peak_rss_mb: float
    peak_in_flight: int


# The build's politeness settings, which the anchor takes too (the project's values unless --settings changes them).
POLITENESS = ("CONCURRENT_REQUESTS", "CONCURRENT_REQUESTS_PER_DOMAIN", "DOWNLOAD_DELAY", "AUTOTHROTTLE_ENABLED",
              "AUTOTHROTTLE_START_DELAY", "AUTOTHROTTLE_MAX_DELAY", "AUTOTHROTTLE_TARGET_CONCURRENCY")


def plain_spider(sites: list[Site], servers: Servers, settings: dict) -> PlainRun:
    """benchmarks/plain_spider.py from every site's front page at once (all the hosts in one crawler)."""
    from benchmarks.crawl_rate import run_measured
    from newscorpus.crawler import settings as project

    command = [sys.executable, "-m", "benchmarks.plain_spider", *(f"{site.base_url}/" for site in sites)]
    for name in POLITENESS:
        command += ["-s", f"{name}={settings.get(name, getattr(project, name))}"]
    command += ["-s", "LOG_LEVEL=INFO"]
    servers.in_flight.peak.clear()
    result, seconds, cpu, peak, _ = run_measured(command, dict(os.environ))
    found = re.search(r"'response_received_count': (\d+)", result.stderr)
    if result.returncode != 0 or found is None:
        sys.exit(f"plain spider: exit {result.returncode}\n{result.stderr[-3000:]}")
    return PlainRun(int(found.group(1)), seconds, cpu, peak / 2**20, max(servers.in_flight.peak.values(), default=0))


@dataclass
class Figures:
    sites: int
    articles: int
    max_connections: int
    run: BuildRun
    scores: dict
    peak_in_flight: int
    missing: list[str]
    missing_named: list[str]
    plain: PlainRun | None = None

    @property
    def pages(self) -> int:
        return int(self.run.report.get("crawl", {}).get("pages_fetched", 0))

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.run.wall_seconds

    def row(self) -> dict:
        pages = max(self.pages, 1)
        row = {"sites": self.sites, "articles": self.articles, "max_connections": self.max_connections,
               "status": self.run.report.get("status"), "exit": self.run.returncode,
               "wall_s": round(self.run.wall_seconds, 1), "crawl_s": round(self.run.crawl_seconds, 1),
               "pages": self.pages, "pages_per_s": round(self.pages_per_s, 1),
               "crawl_cpu_ms_per_page": round(1000 * self.run.crawl_cpu_seconds / pages, 1),
               "build_cpu_ms_per_page": round(1000 * self.run.cpu_seconds / pages, 1),
               "peak_rss_mb": round(self.run.peak_rss_mb), "peak_connections": self.run.peak_connections,
               "precision": round(self.scores["precision"], 4), "recall": round(self.scores["recall"], 4),
               "truth_pairs": self.scores["truth_pairs"], "series_linked": self.scores["series_linked"],
               "series_pairs": self.scores["series_pairs"], "peak_in_flight": self.peak_in_flight,
               "per_host_limit": PER_HOST_LIMIT, "missing": len(self.missing),
               "missing_not_named": len(set(self.missing) - set(self.missing_named)),
               "crawl_processes": self.run.crawl_processes}
        if self.plain is not None:
            plain = self.plain
            row["plain"] = {"pages": plain.pages, "wall_s": round(plain.wall_seconds, 1),
                            "pages_per_s": round(plain.pages / plain.wall_seconds, 1),
                            "cpu_ms_per_page": round(1000 * plain.cpu_seconds / max(plain.pages, 1), 1),
                            "peak_rss_mb": round(plain.peak_rss_mb), "peak_in_flight": plain.peak_in_flight}
            row["pages_per_s_vs_plain"] = round(self.pages_per_s / (plain.pages / plain.wall_seconds), 3)
        return row


def run_sites(server_dsn: str, site_count: int, articles: int, max_connections: int | None = None,
              settings: dict | None = None, sentences: dict | None = None, plain: str | None = None,
              crawl_processes: int = 1) -> Figures:
    """One build of ``site_count`` generated sites, watched; ``max_connections``: the bound (the default if None);
    ``plain``: "before" or "after" the build, the plain spider over the same hosts too."""
    sites = generate_sites(site_count, articles, sentences=sentences)
    crawl = {**CRAWL_SETTINGS, **(settings or {})}
    if max_connections is not None:
        crawl["NEWSCORPUS_STORAGE_MAX_CONNECTIONS"] = str(max_connections)
    anchor = None
    with Servers(sites) as servers, tempfile.TemporaryDirectory() as folder, \
            throwaway_schema(server_dsn) as (dsn, application_name):
        if plain == "before":
            anchor = plain_spider(sites, servers, crawl)
        servers.in_flight.peak.clear()
        configs = write_configs(sites, Path(folder))
        run = watched_build(server_dsn, dsn, application_name, configs, Path(folder) / "out", crawl,
                            crawl_processes=crawl_processes)
        truth = truth_groups(sites)
        stored = stored_articles(dsn)
        peak = max(servers.in_flight.peak.values(), default=0)
        if plain == "after":
            anchor = plain_spider(sites, servers, crawl)
    served = {site.base_url + a.path for site in sites for a in site.articles}
    missing = sorted(served - {record["url"] for record in stored})
    named = [url for url in missing if url in run.stderr]
    from newscorpus.core.storage_config import StorageConfig

    bound = max_connections if max_connections is not None else StorageConfig().max_connections
    return Figures(site_count, sum(len(s.articles) for s in sites), bound, run, link_scores(stored, truth), peak,
                   missing, named, anchor)


def load() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def summary(rows: list[dict]) -> None:
    """Per site count: medians over the rounds, the per-round ratios to the plain spider, CPU per page beside the
    first site count's."""
    by_count: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        if not row.get("anchor"):
            by_count[row["sites"]].append(row)
    first = None
    for count, runs in by_count.items():
        cpu = statistics.median(r["crawl_cpu_ms_per_page"] for r in runs)
        first = first or cpu
        rate = statistics.median(r["pages_per_s"] for r in runs)
        line = (f"{count} sites, {len(runs)} round(s): pages/s {rate:.1f}, "
                f"crawl CPU {cpu:.1f} ms/page ({cpu / first:.2f}x the first count's), build CPU "
                f"{statistics.median(r['build_cpu_ms_per_page'] for r in runs):.1f} ms/page, peak RSS "
                f"{max(r['peak_rss_mb'] for r in runs)} MB")
        ratios = [r["pages_per_s_vs_plain"] for r in runs if "pages_per_s_vs_plain" in r]
        if ratios:
            plain = [r["plain"] for r in runs]
            line += (f"; plain spider {statistics.median(p['pages_per_s'] for p in plain):.1f} pages/s, "
                     f"{statistics.median(p['cpu_ms_per_page'] for p in plain):.1f} CPU ms/page; build / plain "
                     f"pages/s median {statistics.median(ratios):.2f} ({', '.join(f'{x:.2f}' for x in ratios)})")
        print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dsn", default=os.environ.get("NEWSCORPUS_TEST_DSN",
                                                        "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--sites", default="20,50,100", help="site counts, comma-separated")
    parser.add_argument("--total", type=int, default=800,
                        help="articles in all, shared by the sites (the texts hold about 800 distinct stories)")
    parser.add_argument("--max-connections", type=int, default=None,
                        help="NEWSCORPUS_STORAGE_MAX_CONNECTIONS (default: the project's)")
    parser.add_argument("--settings", action="append", default=[], metavar="NAME=VALUE",
                        help="a crawl setting, as `newscorpus build -s` (repeatable)")
    parser.add_argument("--anchor-connections", type=int, default=None,
                        help="also build the first site count with this bound (every site at once), as a ratio")
    parser.add_argument("--plain", action="store_true",
                        help="also crawl the same hosts with the plain spider (benchmarks/plain_spider.py) per build")
    parser.add_argument("--crawl-processes", type=int, default=1,
                        help="`newscorpus build --crawl-processes` (default 1)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds over the site counts, forward then backward in turn (the plain spider before "
                             "the build, then after, in turn)")
    args = parser.parse_args(argv)
    sentences = load_sentences()
    print(f"machine: {platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"texts: {len(sentences['zh'])} zh and {len(sentences['en'])} en sentences; load {load()}", flush=True)
    counts = [int(n) for n in args.sites.split(",")]
    settings = dict(pair.split("=", 1) for pair in args.settings)
    rows = []
    for round_number in range(args.rounds):
        order = counts if round_number % 2 == 0 else counts[::-1]
        for number, count in enumerate(order):
            per_site = args.total // count
            plain = ("before" if (round_number + number) % 2 else "after") if args.plain else None
            figures = run_sites(args.dsn, count, per_site, args.max_connections, settings, sentences, plain,
                                args.crawl_processes)
            rows.append(figures.row() | {"round": round_number + 1, "load": load()})
            print(json.dumps(rows[-1]), flush=True)
            if figures.run.returncode != 0:
                print(figures.run.stderr[-3000:], file=sys.stderr)
            if round_number == 0 and number == 0 and args.anchor_connections:
                anchor = run_sites(args.dsn, count, per_site, args.anchor_connections, settings, sentences)
                rows.append(anchor.row() | {"anchor": True})
                print(json.dumps(rows[-1]), flush=True)
                print(f"wall, bounded / every site at once: "
                      f"{figures.run.wall_seconds / anchor.run.wall_seconds:.2f}", flush=True)
    summary(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
