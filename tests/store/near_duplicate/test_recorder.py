"""The recorder's thread hands a batch's pure steps back to the event loop (on_loop): they run on the loop's thread
and their result or error comes back; a step asked for once the loop has stopped runs in the asking thread (a crawl
stopping never leaves the thread waiting), and one asked for from the loop's own thread runs at once."""

from __future__ import annotations

import asyncio
import threading

import pytest

from newscorpus.store.near_duplicate import recorder as near_duplicate_recorder
from newscorpus.store.near_duplicate.recorder import on_loop


def where(value: int) -> tuple[int, int]:
    return value * 2, threading.get_ident()


def refuse(value: int) -> None:
    raise ValueError(f"refused {value}")


def test_a_step_runs_on_the_loops_thread_and_its_result_and_error_come_back():
    async def main() -> tuple:
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, on_loop, loop, where, 21)
        with pytest.raises(ValueError, match="refused 3"):
            await loop.run_in_executor(None, on_loop, loop, refuse, 3)
        return result, threading.get_ident(), on_loop(loop, where, 1)

    (value, ran_on), loop_thread, (direct, direct_on) = asyncio.run(main())
    assert value == 42 and ran_on == loop_thread  # run by the loop's thread, not the executor's
    assert direct == 2 and direct_on == loop_thread  # asked from the loop's own thread: run at once


def test_a_step_asked_for_after_the_loop_stopped_runs_in_the_asking_thread(monkeypatch):
    monkeypatch.setattr(near_duplicate_recorder, "LOOP_CHECK_SECONDS", 0.05)
    loop = asyncio.new_event_loop()  # never runs: as a loop that stopped with the step queued
    try:
        value, ran_on = on_loop(loop, where, 5)
        assert value == 10 and ran_on == threading.get_ident()
    finally:
        loop.close()
    value, ran_on = on_loop(loop, where, 6)  # a closed loop takes no callback: run here too
    assert value == 12 and ran_on == threading.get_ident()
