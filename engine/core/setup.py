"""Game setup: which game, expansions, options, players, seed; read from and written to records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import MalformedError

#: What each game family declares when it registers (``engine.core.game.register_game``) and
#: each expansion (``engine.core.expansion.register_expansion``); the core names none of them.
#: Options per game: name -> (allowed values, default).
OPTIONS: dict[str, dict[str, tuple[tuple[Any, ...], Any]]] = {}
#: Games for a fixed range of players (inclusive), when narrower than the engine's 1-6.
GAME_PLAYERS: dict[str, tuple[int, int]] = {}
GAME_TITLES: dict[str, str] = {}
#: The expansions each game accepts, by record name.
EXPANSIONS: dict[str, tuple[str, ...]] = {}
#: The game of a record without a ``game`` field (records written before there were others).
DEFAULT_GAME = "carcassonne"
MIN_PLAYERS, MAX_PLAYERS = 1, 6
RECORD_FORMAT = 1
#: A running game's export (:mod:`engine.core.position`): what the table has seen, no seed.
POSITION_FORMAT = 2
#: Why a reader of records refuses a position, in words.
POSITION_REFUSAL = (
    "it is a position (format 2): what the table saw of a game still running, without the "
    "seed or any face-down tile, so it cannot be continued, only looked at "
    "(python -m engine replay); a game exports its record (format 1) once it has finished"
)


#: Seeds are stored as SQLite/PostgreSQL 64-bit integers.
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Setup:
    """Everything that fixes a game before its first action."""

    players: tuple[str, ...]
    seed: int = 0
    game: str = DEFAULT_GAME
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    #: Forced draw order (tile kind names; the first is the start tile), or None to shuffle.
    draw: tuple[str, ...] | None = None
    bonus_draw: tuple[str, ...] | None = None
    #: The Castle: forced wall tiles (1-9) for the corner towers in track order, or None to shuffle.
    wall_draw: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.game not in OPTIONS:
            raise MalformedError(
                f"unknown game {self.game!r}: expected one of {', '.join(sorted(OPTIONS))}"
            )
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise MalformedError(
                f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(self.players)}"
            )
        low, high = GAME_PLAYERS.get(self.game, (MIN_PLAYERS, MAX_PLAYERS))
        if not low <= len(self.players) <= high:
            title = GAME_TITLES.get(self.game, self.game)
            wanted = f"exactly {low}" if low == high else f"{low} to {high}"
            raise MalformedError(
                f"{title} is for {wanted} players, got {len(self.players)}: "
                "change the number of players",
                "wrong_player_count",
                players=len(self.players),
            )
        if len(set(self.players)) != len(self.players):
            raise MalformedError("player names must be different from each other")
        allowed = EXPANSIONS.get(self.game, ())
        for name in self.expansions:
            if name not in allowed:
                raise MalformedError(
                    f"unknown expansion {name!r} for {self.game}: "
                    f"expected {', '.join(allowed) or 'none'}"
                )
        known = OPTIONS[self.game]
        full: dict[str, Any] = {}
        for name, value in self.options.items():
            if name not in known:
                raise MalformedError(
                    f"unknown option {name!r}: expected one of {', '.join(sorted(known))}"
                )
            values, _ = known[name]
            if value not in values or type(value) is not type(values[0]):
                shown = ", ".join(str(v).lower() for v in values)
                raise MalformedError(f"option {name} must be one of {shown}, got {value!r}")
            full[name] = value
        for name, (_, default) in known.items():
            full.setdefault(name, default)
        object.__setattr__(self, "options", full)

    def option(self, name: str) -> Any:
        return self.options[name]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "expansions": list(self.expansions),
            "options": dict(self.options),
            "players": list(self.players),
            "seed": self.seed,
        }
        if self.draw is not None:
            data["draw"] = list(self.draw)
        if self.bonus_draw is not None:
            data["bonus_draw"] = list(self.bonus_draw)
        if self.wall_draw is not None:
            data["wall_draw"] = list(self.wall_draw)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        if not isinstance(data, dict):
            raise MalformedError("a record must be a JSON object")
        if data.get("format", RECORD_FORMAT) == POSITION_FORMAT:
            raise MalformedError(POSITION_REFUSAL, "position")
        if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise MalformedError(f"unsupported record format {data.get('format')!r}: expected 1")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise MalformedError("'players' must be a list of player names")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise MalformedError(f"'seed' must be a whole number, got {str(seed)[:40]!r}")
        if not 0 <= seed <= MAX_SEED:
            raise MalformedError(
                f"'seed' must be a whole number from 0 to {MAX_SEED} (a 64-bit integer), "
                f"got one with {len(str(seed))} digits"
                if abs(seed) > 10**20
                else f"'seed' must be a whole number from 0 to {MAX_SEED}, got {seed}"
            )
        game = data.get("game", DEFAULT_GAME)
        if not isinstance(game, str):
            raise MalformedError(f"'game' must be a name, got {game!r}")
        expansions = data.get("expansions", [])
        if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
            raise MalformedError("'expansions' must be a list of names")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise MalformedError("'options' must be an object")
        draws: list[tuple[str, ...] | None] = []
        for name in ("draw", "bonus_draw"):
            value = data.get(name)
            if value is not None and (
                not isinstance(value, list) or not all(isinstance(k, str) for k in value)
            ):
                raise MalformedError(f"'{name}' must be a list of tile names")
            draws.append(tuple(value) if value is not None else None)
        walls = data.get("wall_draw")
        if walls is not None and (
            not isinstance(walls, list)
            or not all(isinstance(w, int) and not isinstance(w, bool) for w in walls)
        ):
            raise MalformedError("'wall_draw' must be a list of wall tile numbers 1-9")
        return cls(
            players=tuple(players),
            seed=seed,
            game=game,
            expansions=tuple(expansions),
            options=dict(options),
            draw=draws[0],
            bonus_draw=draws[1],
            wall_draw=tuple(walls) if walls is not None else None,
        )
