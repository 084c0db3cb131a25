"""Quicker construction of the engine's frozen value classes (actions, events, placed tiles).

A frozen dataclass refuses ``setattr``, so the ``__init__`` that ``dataclass`` writes stores each
field through ``object.__setattr__``: on Python 3.11 that makes building a small action or event
about three times as slow as building a plain object with slots, and every turn builds several.
:func:`quick_init` gives a frozen dataclass with slots an ``__init__`` of the same signature
(defaults and default factories included) that stores through the slots' own descriptors; the
class stays what it was (frozen, same fields, equality, hash and ``repr``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, cast

T = TypeVar("T")
_MISSING: Any = dataclasses.MISSING


def state_of(obj: object) -> dict[str, Any]:
    """A new dict of every attribute set on ``obj``: its ``__dict__``, or for a class compiled by
    mypyc (setup.py), which has none, what mypyc's ``__getstate__`` reads from its C slots."""
    if not hasattr(type(obj), "__mypyc_attrs__"):
        return dict(vars(obj))
    state = cast("dict[str, Any]", obj.__getstate__())
    extra = getattr(obj, "__dict__", None)  # an interpreted subclass's own attributes
    if extra:
        state.update(extra)
    return state


def set_state(obj: object, state: dict[str, Any]) -> None:
    """Set the attributes of ``obj``, new and not initialised, from ``state`` (:func:`state_of`)."""
    if not hasattr(type(obj), "__mypyc_attrs__"):
        vars(obj).update(state)
    else:
        for name, value in state.items():
            setattr(obj, name, value)


def quick_init(cls: type[T]) -> type[T]:
    """Replace the dataclass ``__init__`` of ``cls`` (frozen, slots, no ``__post_init__``)."""
    if "__mypyc_attrs__" in cls.__dict__:
        # Compiled by mypyc (setup.py): compiled code builds it in C, far quicker than this.
        return cls
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__")
    names: dict[str, Any] = {"_MISSING": _MISSING}
    params: list[str] = []
    body: list[str] = []
    for index, field in enumerate(dataclasses.fields(cls)):
        name = field.name
        setter = f"_set{index}"
        names[setter] = cls.__dict__[name].__set__
        if not field.init:
            raise TypeError(f"{cls.__name__}.{name} is not set by __init__")
        if field.default is not _MISSING:
            names[f"_default{index}"] = field.default
            params.append(f"{name}=_default{index}")
        elif field.default_factory is not _MISSING:
            names[f"_factory{index}"] = field.default_factory
            params.append(f"{name}=_MISSING")
            body.append(f"    if {name} is _MISSING:\n        {name} = _factory{index}()")
        else:
            params.append(name)
        body.append(f"    {setter}(self, {name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source, names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning a method)
    return cls
