"""Reading a game record's bytes safely, before anything parses it deeply or stores it.

A record (``spec/game-record.md``) is a small, flat JSON object: a few fields and a list of
actions, each an object of numbers and names. :func:`read_record` refuses, with where and why,
anything that cannot be one: too large, not UTF-8 text, nested deeper than any record is
(checked by a scan before the JSON parser recurses), invalid JSON, or not an object. The bot's
``/carcassonne import`` and ``python -m engine replay`` both read records through it; only the
latter accepts a running game's position (format 2) too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.core.errors import MalformedError
from engine.core.setup import POSITION_FORMAT, POSITION_REFUSAL

#: The largest record accepted, in bytes. A 6-player game of every expansion is under 60 KiB.
MAX_RECORD_BYTES = 1024 * 1024
#: The deepest nesting of lists and objects accepted. A record nests 3 deep (record, actions,
#: action, and a list inside an action at most); the margin is for fields tools add.
MAX_NESTING = 32

_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


class RecordError(MalformedError):
    """The bytes are not a readable record. ``code`` names the problem for translations:
    ``too_big``, ``empty``, ``not_text``, ``too_deep``, ``invalid``, ``huge_number``,
    ``not_object`` or ``position`` (a running game's position, format 2, where a record is
    wanted); ``params`` hold ``line`` and ``column`` where they are known."""


def _where(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def nesting_error(text: str, limit: int = MAX_NESTING) -> RecordError | None:
    """The error for the first list or object opened deeper than ``limit``, if any."""
    depth = 0
    for token in _TOKENS.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                line, column = _where(text, token.start())
                return RecordError(
                    f"it is nested too deeply: more than {limit} lists or objects inside each "
                    f"other at line {line}, column {column}",
                    "too_deep",
                    line=line,
                    column=column,
                    limit=limit,
                )
        elif char in "]}":
            depth -= 1
    return None


def read_record(data: bytes | str, positions: bool = False) -> dict[str, Any]:
    """The JSON object of a record, or a :class:`RecordError` saying what is wrong and where.

    A position (``"format": 2``, :mod:`engine.core.position`) is refused (code ``position``)
    unless ``positions`` is true: it cannot be continued, only replayed to look at."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            f"it is too large: {len(data)} bytes, a record has at most {MAX_RECORD_BYTES}",
            "too_big",
            size=len(data),
            limit=MAX_RECORD_BYTES,
        )
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(
                f"it is not text (UTF-8): byte {error.start} cannot be read",
                "not_text",
                offset=error.start,
            ) from None
    else:
        text = data
    if not text.strip():
        raise RecordError("it is empty", "empty")
    deep = nesting_error(text)
    if deep is not None:
        raise deep
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}",
            "invalid",
            line=error.lineno,
            column=error.colno,
        ) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise RecordError(
            "it holds a number with thousands of digits; no field of a record needs one",
            "huge_number",
        ) from None
    except RecursionError:  # not reachable after the scan, kept as a guard
        raise RecordError("it is nested too deeply", "too_deep", line=0, column=0) from None
    if not isinstance(record, dict):
        raise RecordError(
            f"it is a JSON {type(record).__name__}, a record is a JSON object",
            "not_object",
        )
    if not positions and record.get("format") == POSITION_FORMAT:
        raise RecordError(POSITION_REFUSAL, "position")
    return record
