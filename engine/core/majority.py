"""Majorities: who wins a feature, given each player's weight in it."""

from __future__ import annotations


def majority(weights: list[int]) -> list[int]:
    """The players with the most weight (ties all win); nobody if everyone has 0."""
    best = max(weights, default=0)
    if best <= 0:
        return []
    return [p for p, w in enumerate(weights) if w == best]
