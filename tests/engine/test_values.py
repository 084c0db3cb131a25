"""The engine's quicker ``__init__`` for frozen value classes builds the same values as the
dataclass's own, and the class stays frozen."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.core.values import quick_init


@dataclasses.dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "x"
    c: tuple[int, ...] = dataclasses.field(default_factory=tuple)


@quick_init
@dataclasses.dataclass(frozen=True, slots=True)
class Quick:
    a: int
    b: str = "x"
    c: tuple[int, ...] = dataclasses.field(default_factory=tuple)


@pytest.mark.parametrize(
    "args, kwargs", [((1,), {}), ((1, "y"), {}), ((1,), {"c": (2, 3)}), ((), {"a": 4, "b": "z"})]
)
def test_values_are_built_as_the_dataclass_builds_them(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    plain, quick = Plain(*args, **kwargs), Quick(*args, **kwargs)
    assert dataclasses.astuple(plain) == dataclasses.astuple(quick)
    assert quick == Quick(*args, **kwargs) and hash(quick) == hash(Quick(*args, **kwargs))
    assert repr(quick) == repr(plain).replace("Plain", "Quick")
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.a = 9  # type: ignore[misc]


def test_a_missing_argument_is_refused_as_by_the_dataclass() -> None:
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]


def test_classes_it_cannot_serve_are_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    with pytest.raises(TypeError, match="slots"):
        quick_init(NoSlots)
