import pytest

from pipelines.db.connection import (
    BadDsnError,
    DatabaseUnavailableError,
    EmbeddedPostgres,
    connect,
    redact,
    redact_dsn,
)


def test_passwords_are_redacted_in_both_dsn_forms():
    assert redact_dsn("postgresql://app:s3cr%40t@db.example:5432/corpus") == "postgresql://app:***@db.example:5432/corpus"
    assert "s3cret" not in redact("connection to host=db password=s3cret dbname=x failed")
    assert "s3cret" not in redact("password='s3 cret' host=db")
    assert redact("postgres://u:pw@h/db and postgres://v:pw2@h2/db") == "postgres://u:***@h/db and postgres://v:***@h2/db"
    assert redact_dsn("host=localhost dbname=test") == "host=localhost dbname=test"


def test_bad_dsn_is_a_clear_error_without_the_password():
    for dsn in ("postgresql://u:hunter2@host/db?bogus=1", "mysql://u:hunter2@h/db", "host=x password=hunter2 bad"):
        with pytest.raises(BadDsnError, match="bad database DSN") as error:
            connect(dsn)
        assert "hunter2" not in str(error.value)


def test_unreachable_server_is_a_clear_error_without_the_password():
    with pytest.raises(DatabaseUnavailableError, match="cannot reach the database") as error:
        connect("postgresql://u:hunter2@127.0.0.1:1/db")
    assert "hunter2" not in str(error.value)
    assert "***" in str(error.value)


def test_embedded_server_recovers_from_a_half_initialised_directory(tmp_path):
    data_dir = tmp_path / "pg"
    data_dir.mkdir()
    (data_dir / "leftover").write_text("initdb was killed here")
    server = EmbeddedPostgres(data_dir)
    dsn = server.start()
    try:
        with connect(dsn) as connection:
            assert connection.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.stop()
    assert (data_dir / "PG_VERSION").exists()


def test_embedded_server_starts_again_after_a_crash(tmp_path):
    """The crawl process and its Postgres are killed hard (power loss): a stale postmaster.pid stays behind.
    The next start must still work on the same data directory, with the data intact."""
    import signal
    import subprocess
    import sys

    import psutil

    data_dir = tmp_path / "pg"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path; from pipelines.db.connection import EmbeddedPostgres, connect;"
         "c = connect(EmbeddedPostgres(Path(sys.argv[1])).start(), autocommit=True);"
         "c.execute('CREATE TABLE kept (x int)'); c.execute('INSERT INTO kept VALUES (42)');"
         "print('ready', flush=True); time.sleep(600)", str(data_dir)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        postmaster = psutil.Process(int((data_dir / "postmaster.pid").read_text().split()[0]))
        victims = [postmaster, *postmaster.children(recursive=True)]
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    for process in victims:
        try:
            process.kill()
        except psutil.NoSuchProcess:  # a backend that left with its postmaster
            pass
    psutil.wait_procs(victims, timeout=10)
    assert (data_dir / "postmaster.pid").exists()  # stale
    server = EmbeddedPostgres(data_dir)
    dsn = server.start()
    try:
        with connect(dsn) as connection:
            assert connection.execute("SELECT x FROM kept").fetchone() == (42,)
    finally:
        server.stop()
