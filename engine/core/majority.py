"""Majorities: who wins a feature, given each player's weight in it."""

from __future__ import annotations


def majority(weights: list[int]) -> list[int]:
    """The players with the most weight (ties all win); nobody if everyone has 0."""
    best = 0  # a plain loop: compiled (setup.py), ``max(..., default=0)`` is a slow generic call
    for weight in weights:
        if weight > best:
            best = weight
    if best <= 0:
        return []
    return [p for p, w in enumerate(weights) if w == best]
