"""The Castle's board picture: the walls with the score track and corner towers, the interior.

Everything is drawn from the game state and the castle data (:mod:`renderer.castle.track`): the
wall ring carries the 100 numbered track spaces and the players' markers; each corner tower shows
its two spaces and, until someone takes it, its face-down wall tile; start squares lie on the
inner half of their wall cells; the interior shows placed tiles, empty squares, figures and the
palaces. Extras for a turn (lettered squares, a ghosted tile, numbered figure spots, lettered
features for a wall tile) are arguments, as for the Carcassonne board.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engine.castle.game import ROLES
from engine.core.board import Figure, PlacedTile
from engine.core.tiles import Oriented
from renderer import legible, marks
from renderer import palette as pal
from renderer.board import Frame, Measures, badge, badge_box, cross_out
from renderer.castle.art import (
    COURT,
    ROOF,
    TOWER,
    castle_tile_image,
    keep,
    market_stall,
    roofs,
)
from renderer.castle.icons import marker_icon, palace_icon, subject_icon, wall_tile_icon
from renderer.castle.layout import castle_layout
from renderer.castle.track import INNER_DEPTH, Track, WallCell, castle_track, inner_box, space_box
from renderer.options import RenderOptions

if TYPE_CHECKING:
    from engine.castle.game import CastleGame

Pos = tuple[int, int]
SpotKey = int | str
FeatureKey = tuple[int, int, int | str]

WALL_STONE: pal.RGB = (178, 164, 138)
WALL_TOP: pal.RGB = (198, 186, 162)
WALL_DARK: pal.RGB = pal.WALL_DARK
SPACE: pal.RGB = (238, 230, 210)
SPACE_TEN: pal.RGB = pal.CITY
EARTH: pal.RGB = (222, 210, 184)
EARTH_LINE: pal.RGB = (200, 186, 158)
#: The badge of a wall tile's target (a tower or house lettered for wall tiles 2 and 3).
TARGET: pal.RGB = (150, 24, 24)
#: Height of the players' strip under the castle, in tiles (for fitting the picture).
STRIP_TILES = 4.0


def make_frame(track: Track, interior: frozenset[Pos], options: RenderOptions) -> Frame:
    """Fit the castle (and the players' strip under it) within ``max_side``."""
    cells = [*interior, *track.cells]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    tile = options.tile_size
    longest = max(cols + 0.7, rows + STRIP_TILES + 0.7)
    if longest * tile > options.max_side:
        tile = max(options.min_tile, int(options.max_side / longest))
    margin = round(tile * 0.34) if options.coordinates else 6
    return Frame(min(xs), min(ys), cols, rows, tile, margin, margin, pad=margin)


def role_of(figure: Figure, oriented: Oriented) -> str:
    """A subject's role by the feature it stands on (messenger, knight, burgher, merchant)."""
    local = figure.local
    if 0 <= local < len(oriented.features):
        return ROLES.get(oriented.features[local].type, "messenger")
    return "messenger"


def spot_point(oriented: Oriented, at: SpotKey) -> tuple[float, float]:
    """Where the figure of feature ``at`` stands on a castle tile, in tile units."""
    local = oriented.feature_at(at)
    return castle_layout(oriented).spots.get(local, (0.5, 0.5))


def draw_castle(
    game: CastleGame,
    options: RenderOptions,
    *,
    candidates: Mapping[Pos, str] | None = None,
    ghost: tuple[Pos, Oriented] | None = None,
    spot_labels: tuple[Pos, Mapping[SpotKey, str]] | None = None,
    feature_labels: Mapping[FeatureKey, str] | None = None,
    measures: Measures | None = None,
    figures: Iterable[Figure] | None = None,
) -> tuple[Image.Image, Frame]:
    """The castle with its walls, track, tiles and figures (no players strip); ``figures``
    drawn instead of the game's (a reviewed move's)."""
    track = castle_track()
    interior = game.geometry.interior
    frame = make_frame(track, interior, options)
    t = frame.tile
    image = Image.new("RGB", frame.size, pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    tiles = game.board.tiles
    dead = game.dead_squares() if options.dead_squares else frozenset()
    for cell in sorted(interior):
        x0, y0, x1, y1 = frame.box(cell)
        placed = tiles.get(cell)
        if placed is None:
            draw.rectangle((x0, y0, x1, y1), fill=EARTH, outline=EARTH_LINE, width=max(1, t // 48))
            if cell in dead:
                cross_out(draw, (x0, y0, x1, y1), t)
                marks.used("dead")
        else:
            image.paste(castle_tile_image(placed.oriented, t), (x0, y0))
    for wall in track.walls.values():
        _wall_cell(image, frame, wall, tiles.get(wall.cell))
    for tower in track.towers.values():
        _tower(image, frame, tower.cell, tower.spaces, tower.diagonal, game.towers)
    if options.coordinates:
        _coordinates(draw, frame, interior)
    if ghost is not None:
        _ghost(image, frame, *ghost)
    elif game.last_pos is not None and game.last_pos in interior:
        _highlight(draw, frame.box(game.last_pos), t)
        marks.used("last")
    for player, palace in enumerate(game.palaces):
        if palace is not None:
            _palace(image, frame, game, player, palace.where, palace.tiles)
    shown = game.figures() if figures is None else figures
    for figure in sorted(shown, key=lambda f: (f.pos[1], f.pos[0])):
        under = tiles.get(figure.pos)
        if under is None:
            continue
        role = role_of(figure, under.oriented)
        icon = subject_icon(figure.player, role, round(t * options.figure_scale))
        marks.used(f"figure:{role}", f"seat:{figure.player}")
        cx, cy = frame.point(
            figure.pos, castle_layout(under.oriented).spots.get(figure.local, (0.5, 0.5))
        )
        image.paste(icon, (cx - icon.width // 2, cy - icon.height // 2), icon)
        if measures is not None:
            box = icon.getbbox()
            measures.figures.append(box[3] - box[1] if box else 0)
    _markers(image, frame, track, list(game.scores))
    for pos, label in (candidates or {}).items():
        x0, y0, x1, y1 = frame.box(pos)
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        r = t * 0.2 * options.label_scale
        size = badge(draw, centre, label, r, pal.LABEL_FILL)
        marks.used("letter")
        if measures is not None:
            measures.letters.append(size)
            measures.marks.append((label, pos, badge_box(draw, centre, label, r)))
    if spot_labels is not None:
        pos, labels = spot_labels
        target = tiles.get(pos)
        oriented = target.oriented if target else (ghost[1] if ghost and ghost[0] == pos else None)
        if oriented is not None:
            for at, label in labels.items():
                cx, cy = frame.point(pos, spot_point(oriented, at))
                badge(draw, (cx, cy), label, max(9.0, t * 0.14), (20, 20, 120))
    for (x, y, at), label in (feature_labels or {}).items():
        placed = tiles.get((x, y))
        if placed is not None:
            # Beside the feature's figure spot, so a subject standing there stays visible.
            sx, sy = spot_point(placed.oriented, at)
            unit = (min(0.8, max(0.2, sx + 0.2)), min(0.8, max(0.2, sy - 0.2)))
            cx, cy = frame.point((x, y), unit)
            # Letters as large as the phone picture's words.
            r = max(9.0, t * 0.17, legible.least_font(image.width) / 1.3)
            size = badge(draw, (cx, cy), label, r, TARGET)
            marks.used("target")
            if measures is not None:
                measures.letters.append(size)
    return image, frame


# -- the wall ---------------------------------------------------------------------------------


def _unit_box(
    frame: Frame, cell: Pos, unit: tuple[float, float, float, float]
) -> tuple[int, int, int, int]:
    x0, y0 = frame.point(cell, (unit[0], unit[1]))
    x1, y1 = frame.point(cell, (unit[2], unit[3]))
    return (x0, y0, x1, y1)


def _wall_cell(image: Image.Image, frame: Frame, wall: WallCell, start: PlacedTile | None) -> None:
    draw = ImageDraw.Draw(image)
    t = frame.tile
    x0, y0, x1, y1 = frame.box(wall.cell)
    draw.rectangle((x0, y0, x1, y1), fill=WALL_STONE)
    inner = _unit_box(frame, wall.cell, inner_box(wall.side))
    draw.rectangle(inner, fill=WALL_TOP)
    if start is not None:
        image.paste(start_square_art(start.oriented, t, wall.side), inner[:2])
    line = max(2, t // 40)
    # The wall's inner face, framing the interior.
    face = [
        (x0, y0, x1, y0 + line),
        (x1 - line, y0, x1, y1),
        (x0, y1 - line, x1, y1),
        (x0, y0, x0 + line, y1),
    ][wall.side]
    draw.rectangle(face, fill=WALL_DARK)
    # Every fifth space numbered, large enough to read on a phone, the others counted from it.
    font = pal.font(legible.least_font(image.width))
    for index, number in enumerate(wall.spaces):
        box = _unit_box(frame, wall.cell, space_box(wall, index))
        pad = max(2, t // 32)
        fill = SPACE_TEN if number % 10 == 0 else SPACE
        draw.rounded_rectangle(
            (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad),
            max(2, t // 24),
            fill=fill,
            outline=WALL_DARK,
            width=max(1, t // 64),
        )
        if number % 5 == 0:
            _space_number(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), number, font)


def _space_number(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], number: int, font: Any
) -> None:
    """A space's number on a pale plate, wider than the space when it must be."""
    text = str(number)
    x0, y0, x1, y1 = draw.textbbox(centre, text, font=font, anchor="mm")
    plate = (x0 - 3, y0 - 3, x1 + 3, y1 + 3)
    draw.rounded_rectangle(
        plate, 4, fill=SPACE_TEN if number % 10 == 0 else SPACE, outline=WALL_DARK
    )
    draw.text(centre, text, font=font, fill=pal.INK, anchor="mm")


def start_square_art(oriented: Oriented, tile: int, side: int) -> Image.Image:
    """The printed part of a start square: its feature against the wall, facing the interior.

    Drawn with the interior at the top, then turned so it faces across ``side`` (cached).
    """
    key = (oriented.kind, tile, side)
    found = _STARTS.get(key)
    if found is None:
        art = _draw_start_square(oriented, tile, side)
        with _LOCK:
            found = _STARTS.setdefault(key, art)
    return found


_STARTS: dict[tuple[str, int, int], Image.Image] = {}
_LOCK = threading.Lock()


def _draw_start_square(oriented: Oriented, tile: int, side: int) -> Image.Image:
    width, depth = tile, round(tile * INNER_DEPTH)
    big = 3
    w, d = width * big, depth * big
    image = Image.new("RGB", (w, d), WALL_TOP)
    draw = ImageDraw.Draw(image)
    feature = next(f for f in oriented.features if f.type != "wall")
    if feature.type == "path":
        pw = round(0.17 * w)
        draw.rectangle((w / 2 - pw / 2 - 6, 0, w / 2 + pw / 2 + 6, d * 0.75), fill=pal.ROAD_EDGE)
        draw.rectangle((w / 2 - pw / 2, 0, w / 2 + pw / 2, d * 0.75), fill=pal.CITY)
        # The gate: a dark arch in the wall where the path leaves the castle.
        gw = pw * 0.75
        draw.rectangle((w / 2 - gw, d * 0.6, w / 2 + gw, d), fill=WALL_DARK)
        draw.pieslice((w / 2 - gw, d * 0.45, w / 2 + gw, d * 0.75), 180, 360, fill=WALL_DARK)
        draw.rectangle((w / 2 - gw * 0.6, d * 0.66, w / 2 + gw * 0.6, d), fill=(40, 32, 26))
    elif feature.type == "house":
        mask = Image.new("L", (w, w), 0)
        ImageDraw.Draw(mask).rectangle((0, 0, w, d), fill=255)
        houses = Image.new("RGB", (w, w), ROOF)
        roofs(houses, mask, w, random.Random(2))
        image.paste(houses.crop((0, 0, w, d)), (0, 0))
    elif feature.type == "tower":
        draw.rectangle((0, 0, w, d), fill=TOWER)
        keep(draw, (w / 2, d * 0.55), d * 0.42)
    else:
        draw.rectangle((0, 0, w, d), fill=COURT)
        if feature.extra.get("market"):
            market_stall(draw, (w / 2, d * 0.45), w * 0.3)
    # The foot of the wall behind the feature.
    draw.rectangle((0, d - 5, w, d), fill=WALL_DARK)
    image = image.resize((width, depth), Image.Resampling.LANCZOS)
    for _ in range(side):
        image = image.transpose(Image.Transpose.ROTATE_270)
    return image


def _tower(
    image: Image.Image,
    frame: Frame,
    cell: Pos,
    spaces: tuple[int, int],
    diagonal: tuple[tuple[float, float], tuple[float, float]],
    walls: Mapping[int, int | None],
) -> None:
    draw = ImageDraw.Draw(image)
    t = frame.tile
    x0, y0, x1, y1 = frame.box(cell)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = t * 0.53
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=WALL_STONE, outline=WALL_DARK, width=max(2, t // 36)
    )
    inner = r * 0.86
    draw.ellipse(
        (cx - inner, cy - inner, cx + inner, cy + inner),
        fill=SPACE,
        outline=WALL_DARK,
        width=max(1, t // 64),
    )
    (ax, ay), (bx, by) = diagonal
    k = inner / (2**0.5) / (t / 2)  # stay inside the inner circle
    draw.line(
        (
            cx + (ax - 0.5) * t * k,
            cy + (ay - 0.5) * t * k,
            cx + (bx - 0.5) * t * k,
            cy + (by - 0.5) * t * k,
        ),
        fill=WALL_DARK,
        width=max(2, t // 40),
    )
    track = castle_track()
    font = pal.font(legible.least_font(image.width))
    for number in spaces:
        if number % 5 == 0:
            _, unit = track.spaces[number]
            _space_number(draw, frame.point(cell, unit), number, font)
    wall = walls.get(spaces[0])
    if wall is not None:
        icon = wall_tile_icon(None, round(t * 0.34))
        marks.used("wall_tile")
        image.paste(icon, (round(cx - icon.width / 2), round(cy - icon.height / 2)), icon)


def _markers(image: Image.Image, frame: Frame, track: Track, scores: list[int]) -> None:
    t = frame.tile
    size = round(t * 0.42)
    spaces = [s % 100 for s in scores]
    for player, space in enumerate(spaces):
        cell, unit = track.spaces[space]
        cx, cy = frame.point(cell, unit)
        if spaces.count(space) > 1:
            shift = round(t * 0.11) * (1 if player % 2 else -1)
            cx, cy = cx + shift, cy + shift
        icon = marker_icon(player, size)
        marks.used("marker", f"seat:{player}")
        image.paste(icon, (cx - size // 2, cy - size // 2), icon)


# -- interior extras ----------------------------------------------------------------------------


def _palace(
    image: Image.Image, frame: Frame, game: CastleGame, player: int, where: Pos, size: int
) -> None:
    placed = game.board.tiles.get(where)
    if placed is None:
        return
    oriented = placed.oriented
    unit = castle_layout(oriented).spots.get(palace_local(game, where, size), (0.5, 0.5))
    icon = palace_icon(player, frame.tile)
    marks.used("palace", f"seat:{player}")
    cx, cy = frame.point(where, unit)
    image.paste(icon, (cx - icon.width // 2, cy - icon.height // 2), icon)


def palace_local(game: CastleGame, where: Pos, size: int) -> int:
    """The local feature of the house a palace of ``size`` tiles stands on at ``where``."""
    placed = game.board.tiles[where]
    board = game.board
    houses = [i for i, f in enumerate(placed.oriented.features) if f.type == "house"]
    return next(
        (i for i in houses if len(board.ftiles[board.find(placed.first_node + i)] or ()) == size),
        houses[0] if houses else -1,
    )


def _coordinates(draw: ImageDraw.ImageDraw, frame: Frame, interior: frozenset[Pos]) -> None:
    font = pal.font(max(9, round(frame.tile * 0.17)))
    for x in sorted({x for x, _ in interior}):
        x0, _, x1, _ = frame.box((x, frame.min_y))
        draw.text(((x0 + x1) / 2, frame.top / 2), str(x), font=font, fill=pal.MUTED, anchor="mm")
    for y in sorted({y for _, y in interior}):
        _, y0, _, y1 = frame.box((frame.min_x, y))
        draw.text((frame.left / 2, (y0 + y1) / 2), str(y), font=font, fill=pal.MUTED, anchor="mm")


def _highlight(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], tile: int) -> None:
    w = max(3, tile // 22)
    x0, y0, x1, y1 = box
    draw.rectangle((x0 - 1, y0 - 1, x1, y1), outline=pal.INK, width=w + 2)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=pal.HIGHLIGHT, width=w)


def _ghost(image: Image.Image, frame: Frame, pos: Pos, oriented: Oriented) -> None:
    x0, y0, x1, y1 = frame.box(pos)
    t = frame.tile
    art = castle_tile_image(oriented, t)
    under = image.crop((x0, y0, x0 + t, y0 + t))
    image.paste(Image.blend(under, art, 0.7), (x0, y0))
    draw = ImageDraw.Draw(image)
    dash = max(4, t // 10)
    w = max(2, t // 30)
    for start in range(0, t, dash * 2):
        end = min(t, start + dash)
        draw.line((x0 + start, y0, x0 + end, y0), fill=pal.INK, width=w)
        draw.line((x0 + start, y1 - 1, x0 + end, y1 - 1), fill=pal.INK, width=w)
        draw.line((x0, y0 + start, x0, y0 + end), fill=pal.INK, width=w)
        draw.line((x1 - 1, y0 + start, x1 - 1, y0 + end), fill=pal.INK, width=w)
