"""The near-duplicate decision in a process of its own: the features and the batch's transaction
(newscorpus.store.near_duplicate.records.decide_batch, with the process's own connection) run in a child Python,
so the crawl process only sends each batch's (url, site id, title, body, language) and reads the outcomes.

The child is a fresh interpreter (``python -P -m newscorpus.store.near_duplicate.process``, not a multiprocessing
spawn, which would import the crawl's ``__main__``: Scrapy, Twisted, lxml): it imports the near-duplicate core,
numpy and psycopg only, and loads jieba's dictionary when Chinese text comes. Messages are pickles, each after its
length, over the child's stdin and stdout (the child's own prints go to stderr).

A child that dies (killed, out of memory) is counted (:attr:`DecisionProcess.deaths`), reaped, and its batch
decided again by a new child: record_articles is idempotent per URL and text, so a batch the dead child had
committed comes back "unchanged". A batch that a new child dies on too raises :class:`ChildDied` (the caller
decides it in its own process). A database error is the child's (after its retries on a lost connection,
newscorpus.store.retry, which stop early once the crawl process counts the database as gone, as the
thread's would), raised here as it was raised there. The child exits when its stdin closes: at
:meth:`DecisionProcess.close`, or when the crawl process dies.
"""

from __future__ import annotations

import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from newscorpus.core.near_duplicate.batch import NearDuplicateOutcome
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.store import retry

logger = logging.getLogger(__name__)

# Never imported by the child (checked there after every batch: a change that pulls one in fails loudly).
CRAWL_ONLY_MODULES = ("scrapy", "twisted", "lxml")
MODULES = "modules"  # the one request that is not a batch: the child's imported top-level modules (for tests)
_LENGTH = struct.Struct("<Q")
# The seconds the child is given to finish and close its connection at close() before it is killed.
CLOSE_TIMEOUT = 30.0


class ChildDied(RuntimeError):
    """The decision process died on a batch twice in a row."""


def send(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def receive(stream: IO[bytes]) -> Any:
    """The next message; EOFError when the other side is gone."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError("the other process closed the pipe")
    size, = _LENGTH.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other process closed the pipe mid-message")
    return pickle.loads(data)


class DecisionProcess:
    """``decide(batch)`` (blocking; from one thread at a time): decide_batch's outcomes, computed in the child.
    The child is started by :meth:`start` (it then imports while the crawl goes on) or at the first batch."""

    def __init__(self, dsn: str, config: NearDuplicateConfig):
        self.dsn = dsn
        self.config = config
        self.deaths = 0    # children that died under a batch (killed, out of memory)
        self.retries = 0   # the children's decisions repeated after a lost connection (newscorpus.store.retry)
        self._child: subprocess.Popen | None = None

    def start(self) -> None:
        if self._child is None:
            # The child imports this very newscorpus, wherever it was found: its folder first on the path, and -P
            # keeps the current folder (which may hold another checkout) off it.
            environment = dict(os.environ)
            package_root = str(Path(__file__).resolve().parents[2])
            environment["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, environment.get("PYTHONPATH")]))
            self._child = subprocess.Popen([sys.executable, "-P", "-m", __name__], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, env=environment)
            send(self._child.stdin, (self.dsn, self.config, retry.process_policy()))

    @property
    def pid(self) -> int | None:
        return None if self._child is None else self._child.pid

    def decide(self, batch: Sequence[tuple]) -> list[NearDuplicateOutcome | None]:
        """The batch's outcomes (None: too short to compare); the child's database error is raised."""
        for _ in range(2):
            try:  # with the crawl process's "database gone" (newscorpus.store.retry), so the child retries as it would
                return self._ask((list(batch), retry.gave_up()))
            except (OSError, EOFError) as error:  # a broken pipe or a closed stdout: the child is gone
                self.deaths += 1
                code = self._reap()
                logger.error("near-duplicate process died (%s, exit code %s) deciding %d article(s): "
                             "a new one decides them", error, code, len(batch))
        raise ChildDied(f"the near-duplicate process died twice on a batch of {len(batch)} article(s)")

    def modules(self) -> set[str]:
        """The top-level modules the child has imported."""
        return self._ask(MODULES)

    def _ask(self, request: Any) -> Any:
        self.start()
        send(self._child.stdin, request)
        failed, answer, retries = receive(self._child.stdout)
        self.retries += retries
        if failed:
            raise answer
        return answer

    def _reap(self) -> int | None:
        child, self._child = self._child, None
        if child is None:
            return None
        child.kill()  # it may be alive with a broken pipe; killing a dead child does nothing
        for stream in (child.stdin, child.stdout):
            try:
                stream.close()
            except OSError:
                pass
        return child.wait()

    def close(self) -> None:
        """End the child: its stdin closes, it closes its connection and exits (killed after CLOSE_TIMEOUT)."""
        child, self._child = self._child, None
        if child is None:
            return
        try:
            child.stdin.close()
        except OSError:
            pass
        try:
            child.wait(CLOSE_TIMEOUT)
        except subprocess.TimeoutExpired:
            logger.error("near-duplicate process did not exit in %.0f s: killed", CLOSE_TIMEOUT)
            child.kill()
            child.wait()
        child.stdout.close()


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """The child's loop: one answer (failed?, outcomes or error, retries) per request, until stdin closes."""
    import psycopg

    from newscorpus.store.errors import DatabaseUnavailableError
    from newscorpus.store.held_connection import HeldConnection
    from newscorpus.store.near_duplicate.records import decide_batch

    dsn, config, policy = receive(requests)
    retry.configure(policy)
    held = HeldConnection(dsn)
    try:
        while True:
            try:
                request = receive(requests)
            except EOFError:
                return
            retries = held.retries
            try:
                if request == MODULES:
                    failed, payload = False, {name.partition(".")[0] for name in sys.modules}
                else:
                    batch, crawl_gave_up = request
                    if crawl_gave_up:
                        retry.give_up()
                    failed, payload = False, decide_batch(held, batch, config)
                    loaded = [name for name in CRAWL_ONLY_MODULES if name in sys.modules]
                    if loaded:
                        raise RuntimeError(f"the near-duplicate process imported {loaded}: it must stay lean")
            except (psycopg.Error, DatabaseUnavailableError) as error:
                held.close()  # as the recorder's thread does: the next batch opens a new connection
                failed, payload = True, error
            except Exception as error:  # a fault of ours: raised in the crawl process, for each article
                failed, payload = True, error
            answer = (failed, payload, held.retries - retries)
            try:
                send(answers, answer)
            except (pickle.PicklingError, TypeError, AttributeError) as error:
                send(answers, (True, RuntimeError(f"{payload!r} (not picklable: {error})"), answer[2]))
    finally:
        held.close()


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the crawl's to handle: it closes stdin when done
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print cannot corrupt the answers
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s [%(name)s] %(levelname)s: %(message)s")
    _serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
