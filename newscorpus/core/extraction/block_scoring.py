"""Block scoring with learned weights (paper 004, 基于权值优化的网页正文内容提取算法).

Every block gets discrete feature values; the support probability P(block is body | feature value)
is learned from labelled pages; a block's score is the weighted mean of its supports (paper eq. 2)
and blocks scoring above the threshold ε are body. Weights and ε are fitted by PSO (see pso.py,
training.py). The paper's own table 2 is the fallback model when no model file ships.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from newscorpus.core.extraction.block_tree import HEADING_TAGS, Block

MODEL_PATH = Path(__file__).with_name("model.json")


def _length_bin(block: Block) -> int:
    # Paper 004 table 1: text length in [0,10], [10,14), [14,+inf) characters.
    return 0 if block.chars <= 10 else 1 if block.chars < 14 else 2


def _long_text_bin(block: Block) -> int:
    # Ours: the paper's top bin [14, inf) mixes captions with paragraphs; 50 / 150 characters split a
    # sentence from a paragraph (about one Chinese sentence / two English sentences in the dev gold).
    return 0 if block.chars < 50 else 1 if block.chars < 150 else 2


def _link_density_bin(block: Block) -> int:
    # Ours (the issue suggests link-text density): readability/boilerpipe use 0.2 and 0.5 cut-offs.
    density = block.link_chars / block.chars if block.chars else 0.0
    return 0 if density < 0.2 else 1 if density < 0.5 else 2


def _punctuation_density_bin(block: Block) -> int:
    # Ours: sentences carry about one mark per 8-30 characters (paper 000's ratio range, p <= 0.3).
    ratio = block.punctuation / block.chars if block.chars else 0.0
    return 0 if ratio == 0 else 1 if ratio < 0.02 else 2 if ratio <= 0.3 else 3


# (name, number of values, function); the first five are paper 004's table 1.
FEATURES: tuple[tuple[str, int, Callable[[Block], int]], ...] = (
    ("text_length", 3, _length_bin),
    ("punctuation", 2, lambda b: int(b.punctuation >= 1)),
    ("nbsp", 2, lambda b: int(b.nbsp_count >= 1)),
    ("bold", 2, lambda b: int(b.bold_count >= 1)),
    ("br", 2, lambda b: int(b.br_count >= 1)),
    ("link_density", 3, _link_density_bin),
    ("long_text", 3, _long_text_bin),
    ("punctuation_density", 4, _punctuation_density_bin),
    ("landmark", 3, lambda b: 2 if b.in_chrome else 1 if b.tag in HEADING_TAGS else 0),
)
PAPER_FEATURES = 5

# Paper 004 table 2 (CWT70th, 500 training pages): supports per value and PSO weights, ε = 0.2922.
PAPER_MODEL = {
    "features": [name for name, _, _ in FEATURES[:PAPER_FEATURES]],
    "supports": [[0.060, 0.546, 0.795], [0.274, 0.944], [0.375, 0.827], [0.295, 0.948], [0.434, 0.875]],
    "weights": [1.4571, 2.6976, 1.9782, 2.6838, 0.8203],
    "threshold": 0.2922,
    "punctuation_p": 0.3,
    "source": "paper 004 table 2 (CWT70th)",
}


@dataclass(frozen=True)
class BlockModel:
    features: tuple[str, ...]
    supports: tuple[tuple[float, ...], ...]
    weights: tuple[float, ...]
    threshold: float
    punctuation_p: float
    region: dict

    @classmethod
    def from_dict(cls, data: dict) -> BlockModel:
        return cls(
            tuple(data["features"]),
            tuple(tuple(map(float, s)) for s in data["supports"]),
            tuple(map(float, data["weights"])),
            float(data["threshold"]),
            float(data.get("punctuation_p", 0.3)),
            dict(data.get("region", {})),
        )


@cache
def load_model(path: Path = MODEL_PATH) -> BlockModel:
    """The shipped model, or the paper's table 2 when none is shipped."""
    try:
        return BlockModel.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError):
        return BlockModel.from_dict(PAPER_MODEL)


def feature_matrix(blocks: list[Block], names: tuple[str, ...]) -> np.ndarray:
    """Integer feature values, one row per block, one column per named feature."""
    functions = {name: function for name, _, function in FEATURES}
    selected = [functions[name] for name in names]
    return np.array([[f(block) for f in selected] for block in blocks], dtype=np.int64).reshape(
        len(blocks), len(selected)
    )


def support_matrix(values: np.ndarray, supports: tuple[tuple[float, ...], ...]) -> np.ndarray:
    """Replace each feature value by its learned support probability."""
    out = np.empty(values.shape, dtype=np.float64)
    for column, table in enumerate(supports):
        out[:, column] = np.asarray(table)[values[:, column]]
    return out


def block_scores(blocks: list[Block], model: BlockModel) -> np.ndarray:
    """Paper eq. 2: Score(B) = Σ δ_i P(B=S | t_i) / Σ δ_i."""
    if not blocks:
        return np.zeros(0)
    supports = support_matrix(feature_matrix(blocks, model.features), model.supports)
    weights = np.asarray(model.weights)
    return supports @ weights / max(weights.sum(), 1e-12)


def select_blocks(blocks: list[Block], model: BlockModel) -> list[str]:
    """The blocks method alone: text of every non-empty block scoring above the threshold."""
    scores = block_scores(blocks, model)
    return [block.text for block, score in zip(blocks, scores, strict=True) if block.chars and score > model.threshold]
