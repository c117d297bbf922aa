"""Particle-swarm optimisation (Kennedy & Eberhart 1995, as used by paper 004 §2.2), seeded numpy."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PSOConfig:
    particles: int = 40  # paper 004: 100; 40 reaches the same train F1 on the dev data in 1/3 of the time
    iterations: int = 150  # paper 004: 1000; the best fitness stops moving after ~100 on the dev data
    inertia_start: float = 0.9  # linearly decreasing inertia w(t), as the paper allows (Shi & Eberhart)
    inertia_end: float = 0.4
    cognitive: float = 2.0  # c1 = c2 = 2, the standard constants (Kennedy & Eberhart)
    social: float = 2.0
    velocity_clip: float = 0.5  # share of the search range per step


@dataclass(frozen=True)
class PSOResult:
    position: np.ndarray
    fitness: float


def maximise(
    fitness: Callable[[np.ndarray], float],
    lower: np.ndarray,
    upper: np.ndarray,
    seed: int,
    config: PSOConfig = PSOConfig(),  # noqa: B008 - frozen dataclass
) -> PSOResult:
    """Maximise `fitness` over the box [lower, upper]."""
    rng = np.random.default_rng(seed)
    span = upper - lower
    positions = lower + rng.random((config.particles, lower.size)) * span
    velocities = (rng.random(positions.shape) - 0.5) * span * 0.2
    scores = np.array([fitness(p) for p in positions])
    best_positions, best_scores = positions.copy(), scores.copy()
    leader = int(np.argmax(best_scores))
    for step in range(config.iterations):
        inertia = config.inertia_start + (config.inertia_end - config.inertia_start) * step / max(
            config.iterations - 1, 1
        )
        r1, r2 = rng.random(positions.shape), rng.random(positions.shape)
        velocities = (
            inertia * velocities
            + config.cognitive * r1 * (best_positions - positions)
            + config.social * r2 * (best_positions[leader] - positions)
        )
        limit = span * config.velocity_clip
        velocities = np.clip(velocities, -limit, limit)
        positions = np.clip(positions + velocities, lower, upper)
        scores = np.array([fitness(p) for p in positions])
        improved = scores > best_scores
        best_positions[improved], best_scores[improved] = positions[improved], scores[improved]
        leader = int(np.argmax(best_scores))
    return PSOResult(best_positions[leader].copy(), float(best_scores[leader]))
