"""A review of a finished game: every tile decision of every player valued against the best the
expert finds (:meth:`ai.expert.ExpertPlayer.appraise`, at a fixed budget, so that the same record
always gives the same review), in points of expected final margin.

This module holds the review's data (what the bot stores, shows and counts in statistics) and
its JSON form; :func:`review` computes it (see its docstring).

- A **moment** is one tile decision: the whole turn played (the tile and the figure step the
  same player took right after it, as record actions), the best whole turn found, both values,
  the points lost (best minus played, never below 0) and a reason (a key and its parameters,
  which the bot words in the player's language and ``python -m ai review`` in English).
- A player's **accuracy** is the share of their reviewed decisions within
  :data:`ACCURATE_WITHIN` points of the best; **points lost per turn** is the mean of their
  losses. Turns the bot played for the player (``forced`` in the record: a timeout's autoplay,
  a skip) are shown but count for neither.
- The **costliest** moments are the game's :data:`COSTLIEST` largest losses (players' own
  decisions only), costliest first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: A decision within this many points of the best counts as accurate.
ACCURATE_WITHIN = 1.0
#: How many of the costliest decisions a review shows.
COSTLIEST = 3
#: The JSON form's version (:meth:`Review.to_json`).
FORMAT = 1

Params = dict[str, str | int | float]


@dataclass(frozen=True)
class Reason:
    """Why the best turn was better, as a key of the catalogs' ``review`` context and its
    parameters (e.g. ``Reason("closes_own_city", {"points": 12})``)."""

    key: str
    params: Params = field(default_factory=dict)


@dataclass(frozen=True)
class Moment:
    """One reviewed tile decision."""

    index: int  # the index in the record's actions of the turn's first action
    turn: int  # the game's turn number then
    seat: int
    played: tuple[dict[str, Any], ...]  # the whole turn played, as record actions
    best: tuple[dict[str, Any], ...]  # the best whole turn found, as record actions
    played_value: float  # points of expected final margin
    best_value: float
    loss: float  # best_value - played_value, never below 0
    reason: Reason
    forced: str | None = None  # the record's ``forced`` (the bot played it), or None

    @property
    def counted(self) -> bool:
        """Whether it counts for accuracy and points lost (the player decided it)."""
        return self.forced is None


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    decisions: int  # the player's own reviewed decisions (forced ones left out)
    accuracy: float  # share of them within ACCURATE_WITHIN points of the best (0..1)
    lost_per_turn: float  # mean points lost per decision


@dataclass(frozen=True)
class Review:
    budget: int  # the expert's positions per decision
    moments: tuple[Moment, ...]
    players: tuple[PlayerReview, ...]
    costliest: tuple[int, ...]  # indices into moments, costliest first

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "budget": self.budget,
            "moments": [
                {
                    "index": m.index,
                    "turn": m.turn,
                    "seat": m.seat,
                    "played": list(m.played),
                    "best": list(m.best),
                    "played_value": round(m.played_value, 3),
                    "best_value": round(m.best_value, 3),
                    "loss": round(m.loss, 3),
                    "reason": {"key": m.reason.key, "params": m.reason.params},
                    "forced": m.forced,
                }
                for m in self.moments
            ],
            "players": [
                {
                    "seat": p.seat,
                    "decisions": p.decisions,
                    "accuracy": round(p.accuracy, 4),
                    "lost_per_turn": round(p.lost_per_turn, 3),
                }
                for p in self.players
            ],
            "costliest": list(self.costliest),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        if data.get("format") != FORMAT:
            found = data.get("format")
            raise ValueError(f"a review of format {FORMAT} was expected, got {found!r}")
        moments = tuple(
            Moment(
                index=int(m["index"]),
                turn=int(m["turn"]),
                seat=int(m["seat"]),
                played=tuple(m["played"]),
                best=tuple(m["best"]),
                played_value=float(m["played_value"]),
                best_value=float(m["best_value"]),
                loss=float(m["loss"]),
                reason=Reason(m["reason"]["key"], dict(m["reason"]["params"])),
                forced=m.get("forced"),
            )
            for m in data["moments"]
        )
        players = tuple(
            PlayerReview(
                int(p["seat"]), int(p["decisions"]), float(p["accuracy"]), float(p["lost_per_turn"])
            )
            for p in data["players"]
        )
        return cls(int(data["budget"]), moments, players, tuple(int(i) for i in data["costliest"]))


def summarise(budget: int, moments: tuple[Moment, ...], players: int) -> Review:
    """The review of ``moments``: each player's accuracy and points lost per turn, and the
    game's costliest decisions (the players' own)."""
    reviews = []
    for seat in range(players):
        own = [m for m in moments if m.seat == seat and m.counted]
        accurate = sum(m.loss <= ACCURATE_WITHIN for m in own)
        reviews.append(
            PlayerReview(
                seat,
                len(own),
                accurate / len(own) if own else 1.0,
                sum(m.loss for m in own) / len(own) if own else 0.0,
            )
        )
    counted = [i for i, m in enumerate(moments) if m.counted and m.loss > 0]
    counted.sort(key=lambda i: (-moments[i].loss, i))
    return Review(budget, moments, tuple(reviews), tuple(counted[:COSTLIEST]))
