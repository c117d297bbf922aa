"""One corpus build: take the build lock, crawl (child process), run the maintenance steps, write the
snapshot and the report. Each phase is recorded in ``builds.phase``, so a build that crashed is resumed
by the next one from the phase it reached.

The lock is a Postgres advisory lock held by the build's own connection: a restart of the server ends that
connection and frees the lock. The build checks it every LOCK_CHECK_SECONDS and takes it again after a restart;
if another build took it meanwhile, this one stops (BuildLockLost) and leaves the build row to it. A build
that finds a running build row whose process is alive on this machine refuses to resume it, lock or not."""

from __future__ import annotations

import json
import logging
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from newscorpus.builds import report as build_report
from newscorpus.builds.maintenance import MAINTENANCE_STEPS
from newscorpus.builds.progress import ProgressReporter
from newscorpus.builds.snapshot import write_snapshot
from newscorpus.crawler.site_config import SiteConfig, SiteConfigError, load_site_config
from newscorpus.store import builds as build_records

logger = logging.getLogger(__name__)

PHASES = ("crawl", "maintenance", "snapshot", "done")
EXIT_OK, EXIT_FAILED, EXIT_LOCKED = 0, 1, 3
# The crawl's log goes to the build's stderr: warnings and errors only, unless -s LOG_LEVEL=INFO is given.
BUILD_CRAWL_SETTINGS = {"LOG_LEVEL": "WARNING"}
CRAWL_PROGRESS_SECONDS = 1.0
# How often the build checks that it still holds its lock (one round trip on an idle connection): a build
# started after a Postgres restart finds the lock taken again within about this time.
LOCK_CHECK_SECONDS = 2.0


class BuildLocked(Exception):
    """Another build holds the lock; the message says which."""


class BuildLockLost(BuildLocked):
    """The lock was freed under this build (a Postgres restart) and another build took it: this one stops."""


class BuildSetupError(Exception):
    """The build cannot start (or resume): a site config is missing, say; the message says what to do."""


@dataclass
class BuildRequest:
    sites: list[SiteConfig]
    out_dir: Path
    since: date | None = None
    crawl_settings: dict = field(default_factory=dict)
    restart: bool = False
    crawl_processes: int = 1   # crawl child processes, each on its share of the sites (crawl_child.crawl_shares)


@dataclass
class BuildOutcome:
    build_key: str
    status: str
    exit_code: int
    report: dict
    snapshot_dir: Path | None
    resumed_from: str | None = None


def _read_lines(child: subprocess.Popen, index: int, lines: queue.Queue) -> None:
    """A crawl child's stdout, line by line, onto ``lines`` as (index, line); (index, None) at its end."""
    for line in child.stdout:
        lines.put((index, line))
    lines.put((index, None))


def _config_path(config: SiteConfig) -> str:
    path = Path(config.source)
    if not path.is_file():
        raise BuildSetupError(f"site {config.name!r}: a build needs configs from files (got {config.source})")
    return str(path.resolve())


def describe_running_build(dsn: str) -> str:
    row = build_records.running_build(dsn)
    if row is None:
        return "another build is running"
    return (f"another build is running (build {row['build_key']}, started at "
            f"{row['started_at']:%Y-%m-%d %H:%M:%S%z}, pid {row['pid']} on {row['hostname']}, phase {row['phase']})")


def _owner_alive(row: dict) -> bool:
    """The build row's process is alive on this machine (and is not this process)."""
    if row.get("hostname") != socket.gethostname() or not row.get("pid") or row["pid"] == os.getpid():
        return False
    try:
        os.kill(row["pid"], 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


class BuildRun:
    def __init__(self, dsn: str, request: BuildRequest, progress: ProgressReporter):
        self.dsn, self.request, self.progress = dsn, request, progress
        self.lock = build_records.BuildLock(dsn)
        self.lock_checked = 0.0

    # --- the lock --------------------------------------------------------------------------------------
    def hold_lock(self, *, now: bool = False) -> None:
        """Check (at most every LOCK_CHECK_SECONDS unless ``now``) that the lock's connection is alive; after a
        restart take the lock again, or raise BuildLockLost if another build has it. While the server is down
        nobody can take it: checked again later."""
        if not now and time.monotonic() - self.lock_checked < LOCK_CHECK_SECONDS:
            return
        self.lock_checked = time.monotonic()
        if self.lock.held:
            if self.lock.alive():
                return
            self.lock.release_quietly()
        taken = self.lock.take_again()
        if taken is None:  # the server is down: nobody can take the lock meanwhile
            return
        if taken:
            self.progress.log("the database restarted: build lock taken again")
            return
        self.lock.release_quietly()
        raise BuildLockLost("the build lock was lost in a database restart and another build took it: "
                            + describe_running_build(self.dsn) + "; this build stops")

    # --- the build row ---------------------------------------------------------------------------------
    def _start_or_resume(self) -> tuple[dict, str | None]:
        running = build_records.running_build(self.dsn)
        me = {"pid": os.getpid(), "hostname": socket.gethostname()}
        if running and _owner_alive(running):   # its lock was freed by a restart, it is still at work
            raise BuildLocked(describe_running_build(self.dsn))
        if running and self.request.restart:
            build_records.abandon_build(self.dsn, running["id"], "abandoned by --restart")
            self.progress.log(f"abandoned the interrupted build {running['build_key']} (--restart)")
        elif running:
            build_records.resume_build(self.dsn, running["id"], **me)
            self.progress.log(f"resuming the interrupted build {running['build_key']} from phase {running['phase']} "
                              f"(attempt {running['attempts'] + 1}; --restart starts afresh)")
            resumed = build_records.build_row(self.dsn, running["id"])
            return resumed | {"site_configs": running["site_configs"]}, running["phase"]
        sites = {config.name: _config_path(config) for config in self.request.sites}
        if not sites:
            raise BuildSetupError("no sites to build")
        inserted = build_records.insert_build(self.dsn, sites=sorted(sites), site_configs=sites,
                                              since=self.request.since, out_dir=str(self.request.out_dir.resolve()),
                                              **me)
        build_key = f"{inserted['started_at'].astimezone(UTC):%Y%m%dT%H%M%SZ}-{inserted['id']}"
        build_records.set_build_key(self.dsn, inserted["id"], build_key)
        self.progress.log(f"build {build_key} started: sites {', '.join(sorted(sites))}")
        return build_records.build_row(self.dsn, inserted["id"]) | {"site_configs": sites}, None

    def _set_phase(self, build_id: int, phase: str, report: dict) -> None:
        self.hold_lock(now=True)
        build_records.set_build_phase(self.dsn, build_id, phase, report)

    # --- phases ----------------------------------------------------------------------------------------
    def crawl(self, build_id: int, config_paths: list[str]) -> int:
        from newscorpus.builds.crawl_child import crawl_shares, sites_at_once
        from newscorpus.crawler.runner import project_settings

        settings = {**BUILD_CRAWL_SETTINGS, **self.request.crawl_settings, "NEWSCORPUS_DB_DSN": self.dsn}
        shares = crawl_shares(config_paths, self.request.crawl_processes, sites_at_once(project_settings(settings)))
        # The spec (the DSN and any -s setting, passwords included) goes through a pipe, never the command line,
        # which every user of the machine can read (ps).
        command = [sys.executable, "-m", "newscorpus.builds.crawl_child"]
        known_runs: set[int] = set()
        lines: queue.Queue = queue.Queue()
        children: list[subprocess.Popen] = []
        with self.progress.phase("crawl", "pages") as bar:
            try:
                for index, (configs, at_once) in enumerate(shares):
                    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                             encoding="utf-8")
                    children.append(child)
                    child.stdin.write(json.dumps({"configs": configs, "sites_at_once": at_once, "settings": settings,
                                                  "progress_seconds": CRAWL_PROGRESS_SECONDS}))
                    child.stdin.close()
                    threading.Thread(target=_read_lines, args=(child, index, lines), daemon=True).start()
                sites_of = [{} for _ in children]   # each child's latest counters per site
                running = len(children)
                while running:
                    index, line = lines.get()
                    if line is None:
                        running -= 1
                        continue
                    self.hold_lock()
                    try:
                        event = json.loads(line)
                        sites_of[index] = event["sites"]
                    except (ValueError, KeyError, TypeError):
                        print(line, end="", file=sys.stderr)  # not ours: pass it on
                        continue
                    sites = [counters for child_sites in sites_of for counters in child_sites.values()]
                    runs = {s["crawl_run_id"] for s in sites if s.get("crawl_run_id")} - known_runs
                    if runs:
                        build_records.add_build_crawl_runs(self.dsn, build_id, sorted(runs))
                        known_runs |= runs
                    bar.update(sum(s.get("pages", 0) for s in sites),
                               articles_new=sum(s.get("articles_new", 0) for s in sites),
                               errors=sum(s.get("fetch_errors", 0) + s.get("http_errors", 0) for s in sites))
            except BuildLockLost:
                for child in children:
                    child.terminate()   # a graceful stop: what was fetched is written
                raise
            finally:
                for child in children:
                    child.wait()
        return max((child.returncode for child in children), default=0)

    def maintenance(self, build_id: int, sites: list[str], report: dict) -> None:
        done = report.setdefault("maintenance", {})
        for step in MAINTENANCE_STEPS:
            if step.name in done and "error" not in done[step.name]:
                continue  # finished before the crash
            self.progress.log(f"maintenance: {step.name} ...")
            started = datetime.now(UTC)
            try:
                counters = step.run(self.dsn, sites)
            except Exception as error:  # one failed step is reported; the others and the snapshot still run
                logger.error("maintenance step %s failed:\n%s", step.name, traceback.format_exc())
                counters = {"error": f"{type(error).__name__}: {error}"[:500]}
            counters.setdefault("seconds", round((datetime.now(UTC) - started).total_seconds(), 3))
            done[step.name] = counters
            self.progress.log(f"maintenance: {step.name}: " + ", ".join(f"{k} {v}" for k, v in counters.items()))
            self._set_phase(build_id, "maintenance", report)

    def snapshot(self, build_key: str, sites: list[str], since: date | None, out_dir: Path) -> dict:
        with self.progress.phase("snapshot", "articles") as bar:
            manifest = write_snapshot(self.dsn, build_key, sites, since, out_dir, bar)
        return {"dir": str(out_dir / build_key), "rows": manifest["rows"],
                "counts_per_site": manifest["counts_per_site"], "date_range": manifest["date_range"]}

    # --- the whole build -------------------------------------------------------------------------------
    def run(self) -> BuildOutcome:
        try:
            self.lock_checked = time.monotonic()
            if not self.lock.take():
                raise BuildLocked(describe_running_build(self.dsn))
            return self._run_locked()
        finally:
            self.lock.release_quietly()

    def _run_locked(self) -> BuildOutcome:
        row, resumed_from = self._start_or_resume()
        build_id, build_key = row["id"], row["build_key"]
        sites, since, out_dir = list(row["sites"]), row["since"], Path(row["out_dir"])
        report = dict(row["report"] or {})
        phase = PHASES.index(row["phase"])
        try:
            if phase <= PHASES.index("crawl"):
                configs = []
                for name in sites:
                    try:
                        configs.append(_config_path(load_site_config(row["site_configs"][name])))
                    except SiteConfigError as error:
                        raise BuildSetupError(f"cannot crawl site {name!r}: {error}; "
                                              "`newscorpus build --restart` starts a new build") from None
                report["crawl_exit_code"] = self.crawl(build_id, configs)
                self._set_phase(build_id, "maintenance", report)
            if phase <= PHASES.index("maintenance"):
                self.maintenance(build_id, sites, report)
                self._set_phase(build_id, "snapshot", report)
            if phase <= PHASES.index("snapshot"):
                report["snapshot"] = self.snapshot(build_key, sites, since, out_dir)
                self._set_phase(build_id, "done", report)
        except BaseException as error:
            if not isinstance(error, KeyboardInterrupt | SystemExit | BuildLockLost):  # the row is the other's
                report["failure"] = f"{type(error).__name__}: {error}"[:1000]
                self._finish(build_id, "failed", PHASES[phase], report, report["failure"])
            raise
        status = "completed_with_errors" if self._has_errors(report) else "succeeded"
        final = self._finish(build_id, status, "done", report, None)
        status = final["status"]
        return BuildOutcome(build_key, status, EXIT_OK if status == "succeeded" else EXIT_FAILED, final,
                            out_dir / build_key, resumed_from)

    @staticmethod
    def _has_errors(report: dict) -> bool:
        return report.get("crawl_exit_code") not in (0, None) or any(
            "error" in counters for counters in report.get("maintenance", {}).values())

    def _finish(self, build_id: int, status: str, phase: str, report: dict, error: str | None) -> dict:
        """Complete ``report`` with the crawl's counters (from crawl_runs) and store it with the status."""
        row = build_records.build_row(self.dsn, build_id)
        runs = build_records.crawl_run_counters(self.dsn, list(row["crawl_run_ids"]))
        maintenance = report.get("maintenance", {})
        full = {
            "build_id": row["build_key"], "status": status, "attempts": row["attempts"],
            "started_at": row["started_at"].isoformat(), "finished_at": datetime.now(UTC).isoformat(),
            "sites": list(row["sites"]), "since": row["since"].isoformat() if row["since"] else None,
            "crawl": build_report.crawl_summary(runs),
            "noise_lines_removed": build_report.headline(runs, maintenance, "noise_lines_removed", installed=True),
            "duplicates": build_report.headline(runs, maintenance, "duplicates", installed=True),
            "errors": build_report.errors_by_reason(runs, report.get("crawl_exit_code"), maintenance),
            **report,
        }
        if status != "failed" and full["crawl"]["pages_fetched"] == 0 and full["errors"]:
            # Nothing fetched and errors (network or site down): no corpus was built, whatever else ran.
            status = full["status"] = "failed"
            error = full["failure"] = "the crawl fetched no page: " + ", ".join(
                f"{reason} {count}" for reason, count in full["errors"].items())
        build_records.finish_build(self.dsn, build_id, status=status, phase=phase, report=full, error=error)
        snapshot = full.get("snapshot")
        if snapshot and Path(snapshot["dir"]).is_dir():
            (Path(snapshot["dir"]) / "report.json").write_text(
                json.dumps(full, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8")
        return full


def run_build(dsn: str, request: BuildRequest, progress: ProgressReporter | None = None) -> BuildOutcome:
    """Run (or resume) one build; raises :class:`BuildLocked` when another build holds the lock."""
    return BuildRun(dsn, request, progress or ProgressReporter()).run()
