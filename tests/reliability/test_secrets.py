"""The DSN password never leaves the process: not in logs, stats, crawl_runs.counters, the build report or an
exception's text, whether the crawl succeeds, fails on a bad table, or cannot reach the server. A role with a
password is created for the test (the server trusts local connections, so any password logs in) and dropped."""

from __future__ import annotations

import asyncio
import json
import time
import traceback
import uuid
from urllib.parse import quote, urlencode

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from newscorpus.store.connection import connect, connect_async
from newscorpus.store.corpus_store import CorpusWriter
from newscorpus.store.errors import DatabaseError
from tests.cli.test_build_commands import newscorpus
from tests.reliability.crawling import crawl, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html


def url_dsn(server_dsn: str, user: str, password: str, schema: str, port: str | None = None) -> str:
    """The URL form: postgresql://user:password@host:port/db?options=... (a socket directory goes in ?host=)."""
    info = conninfo_to_dict(server_dsn)
    host, query = info.get("host") or "127.0.0.1", {"options": f"-csearch_path={schema}"}
    if host.startswith("/"):
        query["host"], host = host, ""
    netloc = f"{quote(user)}:{quote(password, safe='')}@{host}:{port or info.get('port') or 5432}"
    return f"postgresql://{netloc}/{info.get('dbname') or 'postgres'}?{urlencode(query)}"


@pytest.fixture
def secret_role(postgres_server_dsn):
    """(role, password, schema): a login role with a password that owns a fresh schema; all dropped after."""
    suffix = uuid.uuid4().hex[:10]
    role, password, schema = f"nc_secret_{suffix}", f"Pw-{suffix}-S3cret!", f"test_secret_{suffix}"
    with psycopg.connect(postgres_server_dsn, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        admin.execute(f"CREATE SCHEMA {schema} AUTHORIZATION {role}")
    try:
        yield role, password, schema
    finally:
        with psycopg.connect(postgres_server_dsn, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


@pytest.fixture
def small_site():
    with HostileSite() as site:
        paths = [f"/2026/04/0{n}/story-{n}.html" for n in range(1, 4)]
        site.routes["/"] = (200, {"Content-Type": HTML}, listing_html(paths))
        site.routes.update({path: (200, {"Content-Type": HTML}, article_html(n)) for n, path in enumerate(paths)})
        yield site


def assert_no_secret(password: str, *texts: str) -> None:
    for text in texts:
        assert password not in text
        assert quote(password, safe="") not in text


def test_crawl_logs_and_counters_hold_no_password(secret_role, postgres_server_dsn, small_site, tmp_path):
    role, password, schema = secret_role
    dsn = url_dsn(postgres_server_dsn, role, password, schema)
    config = site_toml(tmp_path / "small.toml", "small", start_urls=[f"{small_site.base_url}/"])
    result = crawl(dsn, config, tmp_path / "crawl.log", settings={"LOG_LEVEL": "DEBUG"})
    assert result.returncode == 0, result.stderr[-3000:]
    with psycopg.connect(make_conninfo(postgres_server_dsn, options=f"-csearch_path={schema}")) as connection:
        counters = connection.execute("SELECT counters::text FROM crawl_runs").fetchall()
        stored = connection.execute("SELECT count(*) FROM articles").fetchone()[0]
    assert stored == 3 and counters
    assert_no_secret(password, result.stderr, *(row[0] for row in counters))


def test_a_failing_crawl_and_an_unreachable_server_print_no_password(secret_role, postgres_server_dsn,
                                                                      small_site, tmp_path):
    role, password, schema = secret_role
    dsn = url_dsn(postgres_server_dsn, role, password, schema)
    with psycopg.connect(dsn, autocommit=True) as connection:   # a bad table: the migrations cannot run
        connection.execute("CREATE TABLE sites (id text, broken bytea)")
    config = site_toml(tmp_path / "small.toml", "small", start_urls=[f"{small_site.base_url}/"])
    bad_table = crawl(dsn, config, tmp_path / "bad-table.log")
    unreachable = crawl(url_dsn(postgres_server_dsn, role, password, schema, port="1"), config,
                        tmp_path / "unreachable.log")
    assert bad_table.returncode != 0 and unreachable.returncode != 0
    assert "sites" in bad_table.stderr and "***" in unreachable.stderr
    assert_no_secret(password, bad_table.stderr, unreachable.stderr)


def test_exceptions_and_writer_retries_hold_no_password(secret_role, postgres_server_dsn, caplog):
    role, password, schema = secret_role
    keyword_dsn = make_conninfo(postgres_server_dsn, user=role, password=password, port="1", host="127.0.0.1")
    texts = []
    for dsn in (keyword_dsn, url_dsn(postgres_server_dsn, role, password, schema, port="1"),
                "postgresql://u:" + password + "@127.0.0.1:1/x?sslmode=nonsense"):
        for opener in (lambda d: connect(d), lambda d: asyncio.run(connect_async(d))):
            with pytest.raises(DatabaseError) as raised:
                opener(dsn)
            texts += [str(raised.value), repr(raised.value), "".join(traceback.format_exception(raised.value))]
    writer = CorpusWriter(url_dsn(postgres_server_dsn, role, password, schema, port="1"))
    with pytest.raises(DatabaseError) as raised:
        asyncio.run(writer.start_crawl_run("x"))
    texts += ["".join(traceback.format_exception(raised.value)), caplog.text]
    assert len(texts) == 20
    assert_no_secret(password, *texts)


def test_build_report_and_output_hold_no_password(secret_role, postgres_server_dsn, small_site, tmp_path):
    role, password, schema = secret_role
    dsn = make_conninfo(postgres_server_dsn, user=role, password=password, options=f"-csearch_path={schema}")
    config = site_toml(tmp_path / "small.toml", "small", start_urls=[f"{small_site.base_url}/"])
    out = tmp_path / "snapshots"
    result = newscorpus(dsn, "build", "--site-config", str(config), "--out", str(out), "--json",
                        settings={"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "0"})
    assert result.returncode == 0, result.stderr[-3000:]
    files = [path.read_text("utf-8") for path in out.rglob("*") if path.suffix in (".json", ".jsonl", ".txt")]
    report = json.loads(next(text for text in files if '"crawl"' in text))
    assert report["crawl"]["articles_new"] == 3
    failed = newscorpus(make_conninfo(dsn, port="1", host="127.0.0.1"), "build", "--site-config", str(config),
                        "--out", str(tmp_path / "failed"))
    assert failed.returncode != 0
    assert_no_secret(password, result.stdout, result.stderr, failed.stdout, failed.stderr, *files)


def test_the_build_passes_no_password_on_a_command_line(secret_role, postgres_server_dsn, small_site, tmp_path):
    """`ps` shows every process's command line to every user: the build's crawl child got the DSN there."""
    import psutil

    role, password, schema = secret_role
    dsn = make_conninfo(postgres_server_dsn, user=role, password=password, options=f"-csearch_path={schema}")
    config = site_toml(tmp_path / "small.toml", "small", start_urls=[f"{small_site.base_url}/"])
    build = newscorpus(dsn, "build", "--site-config", str(config), "--out", str(tmp_path / "out"), wait=False,
                       settings={"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "1"})   # ~4 s of crawling
    command_lines = []
    try:
        while build.poll() is None:
            try:
                command_lines += [" ".join(child.cmdline()) for child in psutil.Process(build.pid).children()]
            except psutil.Error:
                pass
            time.sleep(0.05)
        stdout, stderr = build.communicate()
    finally:
        if build.poll() is None:
            build.kill()
    assert build.returncode == 0, stderr[-3000:]
    crawl_children = [line for line in command_lines if "crawl_child" in line]
    assert crawl_children                               # seen while it ran
    assert_no_secret(password, *crawl_children)
    assert all(line.endswith("-m newscorpus.builds.crawl_child") for line in crawl_children)   # no argument at all
