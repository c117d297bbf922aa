"""Instances of frozen dataclasses made without their `__init__`: a frozen dataclass's `__init__` sets each field
with `object.__setattr__`; the near-duplicate decision makes a PairMeasures (11 fields), a PairJudgement and a
Resemblance per candidate and a DocumentFeatures and a Candidate per candidate row read, ~30 of each an article.
Setting the instance's `__dict__` at once gives the same object (fields, `==`, `hash`, `repr`, pickling) for about
a third of the cost (benchmarks/near_duplicate_decide.py). Only for dataclasses without
`__post_init__`, slots or `InitVar`s, with every field given (tests/core/test_frozen_instance.py checks them against
their `__init__`)."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__


def frozen_instance(cls: type[T], values: dict[str, Any]) -> T:
    """`cls(**values)` for a frozen dataclass `cls`, `values` holding every field in their order (it becomes the
    instance's `__dict__`: not to be used by the caller after)."""
    instance = _new(cls)
    _set(instance, "__dict__", values)
    return instance
