"""GroupBatches, the batching both the line-noise and the near-duplicate stores use: entries that arrive while a
batch runs go together in the next one, in order, at most max_size; a refused batch is done again one entry at a
time; an error that fails the batch whole, or a fault of ours, reaches every entry of the batch."""

from __future__ import annotations

import asyncio

import pytest

from newscorpus.store.group_batches import GroupBatches


class Refused(Exception):
    pass


class Away(Exception):
    pass


def run_all(entries, run, max_size=3, **kwargs):
    """Submit the first entry alone, the others while its batch is done; (the batches `run` was given, each
    entry's result or exception)."""
    batches = []

    async def recorded(batch):
        batches.append(batch)
        await asyncio.sleep(0)  # the others are submitted while a batch is done
        return await run(batch)

    async def scenario():
        group = GroupBatches(recorded, max_size, split_on=(Refused,), fail_on=(Away,), **kwargs)
        first = asyncio.ensure_future(group.submit(entries[0]))
        await asyncio.sleep(0)  # the first one's batch starts, alone
        rest = await asyncio.gather(*(group.submit(entry) for entry in entries[1:]), return_exceptions=True)
        outcomes = [*await asyncio.gather(first, return_exceptions=True), *rest]
        await group.close()
        return outcomes

    return batches, asyncio.run(scenario())


async def doubled(batch):
    return [2 * entry for entry in batch]


def test_a_lone_entry_goes_at_once_and_the_others_follow_in_order_in_batches_of_max_size():
    sizes = []
    batches, outcomes = run_all([1, 2, 3, 4, 5, 6, 7], doubled, on_batch=sizes.append)
    assert batches == [[1], [2, 3, 4], [5, 6, 7]]
    assert outcomes == [2, 4, 6, 8, 10, 12, 14]
    assert sizes == [1, 3, 3]


def test_a_refused_batch_is_done_again_one_entry_at_a_time():
    async def refuses_three(batch):
        if 3 in batch:
            raise Refused(f"refused {batch}")
        return [2 * entry for entry in batch]

    batches, outcomes = run_all([1, 2, 3, 4], refuses_three)
    assert batches == [[1], [2, 3, 4], [2], [3], [4]]
    assert outcomes[:2] == [2, 4] and outcomes[3] == 8
    assert isinstance(outcomes[2], Refused) and str(outcomes[2]) == "refused [3]"


@pytest.mark.parametrize("error", [Away("server away"), ValueError("a fault of ours")])
def test_an_error_that_is_not_a_refusal_fails_the_whole_batch(error):
    async def fails_the_second(batch):
        if 2 in batch:
            raise error
        return [2 * entry for entry in batch]

    batches, outcomes = run_all([1, 2, 3, 4, 5], fails_the_second)
    assert batches == [[1], [2, 3, 4], [5]]  # not split: each of 2, 3, 4 gets the error
    assert outcomes[0] == 2 and outcomes[4] == 10
    assert all(outcome is error for outcome in outcomes[1:4])
