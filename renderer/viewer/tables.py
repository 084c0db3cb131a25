"""What the page knows of each game family: tiles, counts, edges, start tiles, figure spots.

The decoder in the browser cannot run the engine, so the page carries, per variant (a family with
its expansions), the facts the codec codes against: each tile kind's count (a tile's kind is
coded against the tiles left), its four edge letters and the matching rule (a tile's square and
rotation are coded among those that fit the squares next to the board), the start tiles, the
castle's interior, and the figure options of each kind (a piece is coded as one of its tile's
options: a spot and the role it is drawn as). :func:`checksum` fingerprints all of it: a code
made for other tables is refused with a clear message instead of showing a wrong game.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from engine import Game, Setup
from engine.core.board import Figure
from engine.core.tiles import CORNERS, TileKind
from renderer import families
from renderer.board import spots_of
from renderer.figures import role_of
from renderer.geometry import CORNER_SPOTS
from renderer.viewer.turns import CORNER_BASE, CORNER_NAMES, variant_key

#: The variants a page can show: (game, expansions), in the order the codec numbers them.
#: Carcassonne's Big Box expansions: each combination of them, with or without Abbey & Mayor.
BIG_BOX = ("inns_cathedrals", "river", "traders_builders")
VARIANTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("carcassonne", ()),
    ("carcassonne", ("abbey_mayor",)),
    ("hunters", ()),
    ("castle", ()),
    *(
        ("carcassonne", tuple(sorted(chosen)))
        for size in range(1, len(BIG_BOX) + 1)
        for chosen in combinations(BIG_BOX, size)
        for chosen in (chosen, (*chosen, "abbey_mayor"))
    ),
)
#: Edge matching rules: ``same`` (same letter, ``*`` matches all) or ``paths`` (The Castle:
#: a path side faces a path side, any other side any other side).
MATCH = {"castle": "paths"}
#: The edge letter of a river side: a tile with one is a river tile.
RIVER_EDGE = "W"


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant's tables (see the module's docstring); ``options[k]`` lists kind ``k``'s
    (spot, role index) pairs, ``spots[k]`` each local feature's point on the unrotated tile."""

    key: str
    game: str
    kinds: tuple[TileKind, ...]
    match: str
    bounds: tuple[tuple[int, int], ...] | None
    setup: tuple[tuple[int, int, int, int], ...]
    roles: tuple[str, ...]
    options: tuple[tuple[tuple[int, int], ...], ...]
    spots: tuple[tuple[tuple[float, float], ...], ...]
    #: The role drawn beside each player's name: the main figure's usual one.
    legend: str = ""

    def river(self, kind: int) -> bool:
        """Whether tile kind ``kind`` is a river tile (The River's: laid before all others)."""
        return RIVER_EDGE in self.kinds[kind].edges

    def kind_index(self, name: str) -> int:
        return next(i for i, k in enumerate(self.kinds) if k.name == name)

    def to_json(self) -> dict[str, Any]:
        """The tables as the page reads them."""
        return {
            "key": self.key,
            "game": self.game,
            "kinds": [k.name for k in self.kinds],
            "counts": [k.count for k in self.kinds],
            "perPlayer": [k.abbey for k in self.kinds],
            "river": [self.river(i) for i in range(len(self.kinds))],
            "edges": [k.edges for k in self.kinds],
            "match": self.match,
            "bounds": None if self.bounds is None else [list(b) for b in self.bounds],
            "setup": [list(t) for t in self.setup],
            "roles": list(self.roles),
            "legend": self.legend,
            "options": [[list(o) for o in opts] for opts in self.options],
            "spots": [[[round(u, 3), round(v, 3)] for u, v in s] for s in self.spots],
        }


def role_function(game: str) -> Any:
    """How a figure of ``game`` is drawn: its family's role function, or the common one."""
    own = families.PIECES.get(game)
    return own.role if own is not None else role_of


def _options(
    kind: TileKind, figures: list[str], role: Any, roles: list[str]
) -> list[tuple[int, int]]:
    oriented = kind.oriented(0)
    found: list[tuple[int, int]] = []
    for figure in figures:
        for local in range(len(oriented.features)):
            at = oriented.at_label(local)
            name = role(Figure(0, figure, (0, 0), local, at), oriented)
            if name not in roles:
                roles.append(name)
            option = (local, roles.index(name))
            if option not in found:
                found.append(option)
        if figure == "barn":
            for index, corner in enumerate(CORNER_NAMES):
                name = role(Figure(0, figure, (0, 0), -1, corner), oriented)
                if name not in roles:
                    roles.append(name)
                found.append((CORNER_BASE + index, roles.index(name)))
    return found


@cache
def variant(index: int) -> Variant:
    """The tables of variant ``index`` of :data:`VARIANTS`, read from the engine."""
    game_name, expansions = VARIANTS[index]
    players = ("a", "b")
    game = Game(Setup(players=players, seed=0, game=game_name, expansions=expansions))
    kinds = tuple(game.kinds.values())
    names = [k.name for k in kinds]
    setup = tuple(
        (names.index(t.oriented.kind), x, y, t.oriented.rotation)
        for (x, y), t in game.board.tiles.items()
    )
    interior = getattr(game.board, "interior", None)
    bounds = None if interior is None else tuple(sorted(interior, key=lambda c: (c[1], c[0])))
    figures = sorted(game.supply[0])
    role = role_function(game_name)
    roles: list[str] = []
    options = tuple(tuple(_options(k, figures, role, roles)) for k in kinds)
    main = max(figures, key=lambda f: game.supply[0][f])
    usual = Counter(
        name for k in kinds for name in (o[1] for o in _options(k, [main], role, roles))
    )
    spots = tuple(
        tuple(spots_of(k.oriented(0)).get(local, (0.5, 0.5)) for local in range(len(k.features)))
        for k in kinds
    )
    return Variant(
        variant_key(game_name, expansions),
        game_name,
        kinds,
        MATCH.get(game_name, "same"),
        bounds,
        setup,
        tuple(roles),
        options,
        spots,
        main if main in roles else roles[usual.most_common(1)[0][0]],
    )


def variant_of(key: str) -> int:
    """The index of the variant named ``key`` (ValueError: the viewer does not show it)."""
    for index, (game, expansions) in enumerate(VARIANTS):
        if variant_key(game, expansions) == key:
            return index
    raise ValueError(f"the viewer does not show {key} games")


def corner_points() -> list[list[float]]:
    """Where a barn stands at each corner (board directions, whatever the tile's rotation)."""
    return [list(CORNER_SPOTS[name]) for name in CORNERS]


#: What the tables hold for drawing only, not for reading a code: left out of the fingerprint,
#: so that redrawn tile art (a figure's spot moves) keeps every link working.
DRAWING_ONLY = ("spots",)


def fingerprint(extra: Any, space: int) -> int:
    """A number below ``space`` fingerprinting every variant's tables (but what is drawn only)
    and ``extra`` (the codec's constants): the page and a code must agree on all of it."""
    tables = [
        {k: v for k, v in variant(i).to_json().items() if k not in DRAWING_ONLY}
        for i in range(len(VARIANTS))
    ]
    text = json.dumps([extra, tables], sort_keys=True)
    return zlib.crc32(text.encode()) % space
