"""frozen_instance against the frozen dataclasses' own __init__: the same fields, `==`, `hash`, `repr`, pickle, and
still frozen; every class it is used for in the near-duplicate decision has no __post_init__, slots or InitVar."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from newscorpus.core.frozen_instance import frozen_instance
from newscorpus.core.near_duplicate.batch import Candidate
from newscorpus.core.near_duplicate.decision import PairJudgement, PairMeasures
from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.shingle_sketch import Resemblance, ShingleSketch

SKETCH = ShingleSketch((1, 5, 9), 3, 7)
FEATURES = DocumentFeatures("zh", frozenset({"北京", "news"}), ("北京",), 2**63 + 5, SKETCH, "abc", 7, 3, ("2024",))
MEASURES = PairMeasures(False, None, 0.25, 0.125, 0.5, 0.3333333333333333, 0.1, True, 0.75, False, 4)
EXAMPLES = [
    FEATURES,
    dataclasses.replace(FEATURES, simhash=None, site=None, title_numbers=()),
    MEASURES,
    PairJudgement("c1", True, "keywords", 0.25, MEASURES),
    PairJudgement(17, False, None, 0.0, MEASURES),
    Resemblance(0.5, 1.0, 0.0625),
    Candidate(3, False, True, 2, 1, FEATURES),
]


@pytest.mark.parametrize("made", EXAMPLES, ids=lambda made: type(made).__name__)
def test_frozen_instance_is_the_dataclass_made_by_its_init(made):
    cls = type(made)
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    assert not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__")
    values = {f.name: getattr(made, f.name) for f in dataclasses.fields(cls)}
    fast = frozen_instance(cls, dict(values))
    assert type(fast) is cls
    assert fast == made and made == fast and hash(fast) == hash(made) and repr(fast) == repr(made)
    assert fast.__dict__ == made.__dict__ and list(fast.__dict__) == list(made.__dict__)
    assert pickle.loads(pickle.dumps(fast)) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.__setattr__(dataclasses.fields(cls)[0].name, None)
