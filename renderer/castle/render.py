"""The Castle's images: the castle with the players' strip beside it, previews, the end image.

Entry points mirror :mod:`renderer.render` (which hands castle games over to them): pure, safe in
a worker thread, PNG bytes out. The strip shows, per player, the score, the subjects left, the
palace and the wall tiles held (face up, with what each does), and says that the castle and its
tiles are a reconstruction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from renderer import families, marks
from renderer import palette as pal
from renderer.board import Measures, glyph_height
from renderer.castle.icons import marker_icon, palace_icon, subject_icon, wall_tile_icon
from renderer.castle.labels import CATEGORIES, CATEGORY_COLOURS, category_names, text
from renderer.castle.picture import (
    FeatureKey,
    Pos,
    SpotKey,
    draw_castle,
    make_frame,
)
from renderer.castle.track import castle_track
from renderer.encode import encode_png
from renderer.endgame import chart_picture, least_text
from renderer.options import RenderOptions

if TYPE_CHECKING:
    from engine import Game, PlaceTile
    from engine.castle.game import CastleGame
    from engine.core.board import Figure
    from renderer.phone import PhonePicture, TileCard


def is_castle(game: Game) -> bool:
    return game.setup.game == "castle"


def _castle(game: Game) -> CastleGame:
    from engine.castle.game import CastleGame

    assert isinstance(game, CastleGame)
    return game


def castle_picture(
    game: Game,
    options: RenderOptions | None = None,
    *,
    candidates: Mapping[Pos, str] | None = None,
    preview: PlaceTile | None = None,
    spot_labels: Mapping[SpotKey, str] | None = None,
    feature_labels: Mapping[FeatureKey, str] | None = None,
    strip: bool = True,
    measures: Measures | None = None,
) -> Image.Image:
    """The castle and (with ``options.panel``) the players' strip to its right; ``measures``
    collects what a phone reader must read (see :class:`renderer.board.Measures`)."""
    options = options or RenderOptions()
    castle = _castle(game)
    from renderer.render import ghost_and_spots

    ghost, spots = ghost_and_spots(game, preview, spot_labels)
    board, frame = draw_castle(
        castle,
        options,
        candidates=candidates,
        ghost=ghost,
        spot_labels=spots,
        feature_labels=feature_labels,
        measures=measures,
    )
    if not (options.panel and strip):
        return board
    strip_image = draw_strip(castle, frame.tile, board.width, options)
    image = Image.new("RGB", (board.width, board.height + strip_image.height), pal.BACKGROUND)
    image.paste(board, (0, 0))
    image.paste(strip_image, (0, board.height))
    return image


def draw_strip(game: CastleGame, tile: int, width: int, options: RenderOptions) -> Image.Image:
    """The players under the castle, side by side: marker, name and score; subjects left; the
    palace; the wall tiles held, each with what it does. Then the turn and the stack."""
    pad = round(tile * 0.16)
    # Every word's capitals 11 px tall or more once the picture is shown 400 px wide.
    words = max(round(tile * 0.26), least_text(width))
    row = max(round(tile * 0.56), round(words * 1.8))
    players = max(1, game.players)
    rows = max(
        3 + max(1, len(game.wall_hand(p))) + (1 if game.played[p] else 0) for p in range(players)
    )
    # Side by side when every line fits half the width, else one player under the other.
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    longest = max(
        measure.textlength(line, font=pal.font(words))
        for p in range(players)
        for line in _column_lines(game, p, options)
    )
    columns = players if longest + row * 1.3 <= (width - pad) // players - pad * 2 else 1
    col_w = (width - pad) // columns
    blocks = -(-players // columns)
    height = pad + blocks * rows * row + pad + row
    image = Image.new("RGB", (width, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.line((0, 1, width, 1), fill=pal.EMPTY_LINE, width=2)
    current = None if game.finished else game.decision.player
    for player in range(players):
        x0 = pad + (player % columns) * col_w
        y0 = pad + (player // columns) * rows * row
        if player == current:
            draw.rounded_rectangle(
                (x0 - pad // 2, y0 - pad // 2, x0 + col_w - pad, y0 + rows * row),
                pad,
                fill=(255, 240, 190),
            )
            marks.used("to_move")
        _player_column(image, game, player, (x0, y0), col_w - pad * 2, row, words, options)
    rows *= blocks
    y = pad + rows * row + pad + row // 2
    small = pal.font(words)
    lines = [options.text("tiles_left", n=game.tiles_left)]
    if not game.finished:
        lines.insert(0, options.text("turn", n=game.turn + 1))
    draw.text((pad, y), "  ·  ".join(lines), font=small, fill=pal.INK, anchor="lm")
    return image


def _column_lines(game: CastleGame, player: int, options: RenderOptions) -> list[str]:
    """The words of a player's column beside its icons (subjects, palace, wall tiles)."""
    subjects = game.supply[player].get("subject", 0)
    palace = game.palaces[player]
    lines = [
        text(options, "subjects_one" if subjects == 1 else "subjects", n=subjects),
        text(options, "palace", n=palace.tiles) if palace else text(options, "palace_none"),
    ]
    held = game.wall_hand(player)
    lines += [text(options, f"wall{wall}") for wall in held] or [text(options, "wall_none")]
    if game.played[player]:
        played = ", ".join(str(w) for w in game.played[player])
        lines.append(text(options, "wall_played", tiles=played))
    return lines


def _player_column(
    image: Image.Image,
    game: CastleGame,
    player: int,
    origin: tuple[int, int],
    width: int,
    row: int,
    words: int,
    options: RenderOptions,
) -> None:
    draw = ImageDraw.Draw(image)
    x0, y = origin
    y += row // 2
    name_font = pal.font(round(words * 1.15))
    score_font = pal.font(round(words * 1.3))
    small = pal.font(words)
    name = game.setup.players[player]
    marker = marker_icon(player, round(row * 0.9))
    marks.used("marker", f"seat:{player}")
    image.paste(marker, (x0, y - marker.height // 2), marker)
    shown = name if len(name) <= 16 else name[:15] + "…"
    draw.text((x0 + marker.width + row // 4, y), shown, font=name_font, fill=pal.INK, anchor="lm")
    score = options.count("points", game.scores[player])
    draw.text((x0 + width, y), score, font=score_font, fill=pal.INK, anchor="rm")
    y += row
    icon = subject_icon(player, "knight", round(row / 0.38 * 0.85))
    marks.used("figure:subject")
    image.paste(icon, (x0 + (row - icon.width) // 2, y - icon.height // 2), icon)
    subjects = game.supply[player].get("subject", 0)
    draw.text(
        (x0 + row + row // 4, y),
        text(options, "subjects_one" if subjects == 1 else "subjects", n=subjects),
        font=small,
        fill=pal.INK,
        anchor="lm",
    )
    y += row
    palace = game.palaces[player]
    icon = palace_icon(player, round(row / 0.46 * 0.85))
    marks.used("palace")
    image.paste(icon, (x0 + (row - icon.width) // 2, y - icon.height // 2), icon)
    label = text(options, "palace", n=palace.tiles) if palace else text(options, "palace_none")
    draw.text((x0 + row + row // 4, y), label, font=small, fill=pal.INK, anchor="lm")
    y += row
    held = game.wall_hand(player)
    if not held:
        draw.text((x0, y), text(options, "wall_none"), font=small, fill=pal.MUTED, anchor="lm")
    for wall in held:
        tile_icon = wall_tile_icon(wall, round(row * 0.88))
        marks.used("wall_tile")
        image.paste(
            tile_icon, (x0 + (row - tile_icon.width) // 2, y - tile_icon.height // 2), tile_icon
        )
        label = text(options, f"wall{wall}")
        draw.text((x0 + row + row // 4, y), label, font=small, fill=pal.INK, anchor="lm")
        y += row
    if game.played[player]:
        y += 0 if held else row
        played = ", ".join(str(w) for w in game.played[player])
        draw.text(
            (x0, y),
            text(options, "wall_played", tiles=played),
            font=small,
            fill=pal.MUTED,
            anchor="lm",
        )


def castle_end_picture(game: Game, options: RenderOptions | None = None) -> Image.Image:
    """The final castle with the strip, above the per-player breakdown by castle category."""
    options = options or RenderOptions()
    # The castle as the turn picture draws it: phone-wide, its words and subjects large.
    top = castle_phone_picture(game, options).image
    chart = chart_picture(
        game,
        top.width,
        100,
        options,
        labels=category_names(options),
        colours=CATEGORY_COLOURS,
        order=CATEGORIES,
    )
    image = Image.new("RGB", (top.width, top.height + chart.height), pal.BACKGROUND)
    image.paste(top, (0, 0))
    image.paste(chart, (0, top.height))
    return image


def render_castle(
    game: Game,
    options: RenderOptions | None = None,
    *,
    candidates: Mapping[Pos, str] | None = None,
    preview: PlaceTile | None = None,
    spot_labels: Mapping[SpotKey, str] | None = None,
    feature_labels: Mapping[FeatureKey, str] | None = None,
) -> bytes:
    """PNG of :func:`castle_picture`."""
    return encode_png(
        castle_picture(
            game,
            options,
            candidates=candidates,
            preview=preview,
            spot_labels=spot_labels,
            feature_labels=feature_labels,
        )
    )


def render_castle_end(game: Game, options: RenderOptions | None = None) -> bytes:
    """PNG of :func:`castle_end_picture`."""
    return encode_png(castle_end_picture(game, options))


def castle_phone_picture(
    game: Game,
    options: RenderOptions,
    *,
    candidates: Mapping[Pos, str] | None = None,
    card: TileCard | None = None,
    features: Mapping[FeatureKey, str] | None = None,
) -> PhonePicture:
    """The castle's turn picture for a phone (see :mod:`renderer.phone`): the drawn tile, the
    whole castle :data:`~renderer.phone.WIDTH` pixels wide with large letters and subjects
    (``features``: the wall tiles' targets, lettered after the squares), the players under
    it."""
    import dataclasses

    from renderer.board import Box
    from renderer.phone import WIDTH, PhonePicture, card_picture, stack_marked

    castle = _castle(game)
    track = castle_track()
    probe = make_frame(
        track,
        castle.geometry.interior,
        dataclasses.replace(
            options, coordinates=False, tile_size=100, min_tile=100, max_side=100_000
        ),
    )
    tile = max(24, (WIDTH - 8) * 100 // probe.size[0])
    opts = dataclasses.replace(
        options,
        tile_size=tile,
        min_tile=tile,
        max_side=100_000,
        coordinates=False,
        label_scale=2.0,
        figure_scale=1.6,
    )
    measures = Measures([], [], [])
    board, _ = draw_castle(
        castle, opts, candidates=candidates, measures=measures, feature_labels=features
    )
    parts: list[tuple[Image.Image, list[tuple[str, Pos, Box]]]] = []
    if card is not None:
        parts.append((card_picture(game, card, options, measures), []))
    parts.append((board, list(measures.marks)))
    strip = draw_strip(castle, 100, WIDTH, options)
    parts.append((strip, []))
    for player in range(castle.players):
        score = options.count("points", castle.scores[player]).split()[0]
        measures.digits.append(glyph_height(score, pal.font(40)))
    image, marks = stack_marked(parts)
    measures.marks[:] = marks
    drawn = {pos for _, pos, _ in marks}
    hidden = tuple(text for pos, text in (candidates or {}).items() if pos not in drawn)
    return PhonePicture(image, measures, None, hidden)


def castle_review_region(
    game: Game,
    figures: Sequence[Figure],
    squares: Sequence[Pos],
    window: tuple[int, int, int, int],
    options: RenderOptions,
) -> Image.Image:
    """A reviewed move's part of the castle (:mod:`renderer.review`): the squares of
    ``window``, its tile framed, ``figures`` on it."""
    import dataclasses

    opts = dataclasses.replace(options, max_side=100_000, figure_scale=1.6)
    board, frame = draw_castle(_castle(game), opts, figures=figures)
    wx, wy, wc, wr = window
    x0, y0, _, _ = frame.box((wx, wy))
    # The window's squares where the picture has them: the rest (beyond the walls) is left
    # as the background, so that each square lies where the window puts it.
    region = Image.new("RGB", (wc * frame.tile, wr * frame.tile), pal.BACKGROUND)
    box = (
        max(0, x0),
        max(0, y0),
        min(board.width, x0 + wc * frame.tile),
        min(board.height, y0 + wr * frame.tile),
    )
    region.paste(board.crop(box), (box[0] - x0, box[1] - y0))
    return region


def _legend_samples() -> dict[str, Callable[[str, int], Image.Image]]:
    """The Castle's marks for the help's legend (:mod:`renderer.legend`), as its pictures draw
    them: a seat's subject, each subject's role, the palace, a score marker, a wall tile and a
    wall tile's target."""
    from renderer.board import badge
    from renderer.castle.picture import TARGET
    from renderer.legend import NEUTRAL, centred

    def target(_: str, size: int) -> Image.Image:
        image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        badge(ImageDraw.Draw(image), (size / 2, size / 2), "A", size * 0.4, TARGET)
        return image

    def subject(role: str, size: int) -> Image.Image:
        shown = role if role != "subject" else "knight"
        return centred(subject_icon(NEUTRAL, shown, round(size / 0.46)), size)

    return {
        "seat": lambda seat, size: centred(
            subject_icon(int(seat), "knight", round(size / 0.46)), size
        ),
        "figure": subject,
        "palace": lambda _, size: centred(palace_icon(NEUTRAL, round(size / 0.46)), size),
        "marker": lambda _, size: centred(marker_icon(NEUTRAL, round(size * 0.7)), size),
        "wall_tile": lambda _, size: centred(wall_tile_icon(None, round(size * 0.8)), size),
        "target": target,
    }


families.LEGEND["castle"] = _legend_samples()
families.register_pictures(
    "castle",
    board=castle_picture,
    phone=castle_phone_picture,
    end=castle_end_picture,
    categories=lambda options: (CATEGORIES, category_names(options)),
    review=castle_review_region,
)
