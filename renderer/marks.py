"""The marks a picture draws, named as it draws them, for the help's legend.

While :func:`noting` is active, the drawings name each mark they draw (:func:`used`): ``letter``
(a lettered square), ``dead`` (a crossed-out square), ``last`` (the last tile's frame),
``to_move`` (the player to move), ``seat:N`` (seat N's colour and mark), ``figure:ROLE`` (a kind of
figure as drawn: ``follower``, ``farmer``, ``mayor``, ``hunter``, ``knight``...), ``abbey``,
``goods:KIND``, and a family's own (The Castle's ``palace``, ``marker``, ``wall_tile``,
``target``). Outside :func:`noting` (every picture but the help's), :func:`used` only reads one
context variable.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_SEEN: ContextVar[set[str] | None] = ContextVar("legend_marks", default=None)


def used(*marks: str) -> None:
    """The drawing in progress draws ``marks`` (a no-op unless :func:`noting`)."""
    seen = _SEEN.get()
    if seen is not None:
        seen.update(marks)


@contextmanager
def noting() -> Iterator[set[str]]:
    """Collect the marks drawn inside the block (the set fills as they are drawn)."""
    seen: set[str] = set()
    token = _SEEN.set(seen)
    try:
        yield seen
    finally:
        _SEEN.reset(token)
