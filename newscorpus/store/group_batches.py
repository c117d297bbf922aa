"""Group batches of database work, as the line-noise stage counts articles (newscorpus.store.line_noise) and the
near-duplicate stage decides them (newscorpus.store.near_duplicate.recorder).

The entries that arrive while a batch is being done wait and go together in the next one (at most ``max_size``); a
lone entry goes alone at once, so batching adds no wait, and under load a round trip and a transaction are shared by
many entries. Entries are done in the order they were submitted. A batch the database refuses is done again one entry
at a time, so one entry does not fail the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

E = TypeVar("E")
R = TypeVar("R")


class GroupBatches(Generic[E, R]):
    """``await submit(entry)``: the entry's result from ``run`` (given a batch's entries in order, it returns one
    result per entry), or the error that stopped it, raised:

    - ``fail_on`` (asked first): every entry of the batch gets the error (e.g. the server stayed away past the retry
      window: doing each entry again would wait that long once per entry);
    - ``split_on``: the batch is done again one entry at a time; an entry refused alone gets the error;
    - any other exception, a fault of ours: every entry of the batch gets it (not a silent hang).

    ``on_batch``: called with each batch's size before it is done."""

    def __init__(self, run: Callable[[list[E]], Awaitable[Sequence[R]]], max_size: int, *,
                 split_on: tuple[type[BaseException], ...], fail_on: tuple[type[BaseException], ...] = (),
                 on_batch: Callable[[int], None] | None = None):
        self.run = run
        self.max_size = max_size
        self.split_on = split_on
        self.fail_on = fail_on
        self.on_batch = on_batch
        self._waiting: list[tuple[E, asyncio.Future]] = []
        self._task: asyncio.Task | None = None

    async def submit(self, entry: E) -> R:
        outcome = asyncio.get_running_loop().create_future()
        self._waiting.append((entry, outcome))
        if self._task is None:
            self._task = asyncio.ensure_future(self._run_batches())
        return await outcome

    async def close(self) -> None:
        """Wait until every entry submitted has its outcome."""
        if self._task is not None:
            await self._task

    async def _run_batches(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:self.max_size], self._waiting[self.max_size:]
                if self.on_batch is not None:
                    self.on_batch(len(batch))
                groups = [batch]
                while groups:
                    group = groups.pop(0)
                    try:
                        results = await self.run([entry for entry, _ in group])
                    except self.fail_on as error:
                        _fail(group, error)
                        continue
                    except self.split_on as error:
                        if len(group) > 1:
                            groups = [[waiting] for waiting in group] + groups
                            continue
                        _fail(group, error)
                        continue
                    except Exception as error:  # noqa: BLE001 - a fault of ours: each entry's own error
                        _fail(group, error)
                        continue
                    for (_, outcome), result in zip(group, results, strict=True):
                        outcome.set_result(result)
        finally:
            self._task = None


def _fail(group: list[tuple[object, asyncio.Future]], error: BaseException) -> None:
    for _, outcome in group:
        outcome.set_exception(error)
