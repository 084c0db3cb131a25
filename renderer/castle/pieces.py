"""The Castle's figures one by one, for pictures drawn figure by figure (the browser viewer):
the subjects where they stand, and each palace on its house."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PIL import Image

from engine.core.board import Figure
from engine.core.tiles import Oriented
from renderer import families
from renderer.castle.icons import palace_icon, subject_icon
from renderer.castle.picture import palace_local, role_of

if TYPE_CHECKING:
    from engine.castle.game import CastleGame


def castle_pieces(game: Any) -> list[families.Piece]:
    """Every subject, then every palace, as the castle picture draws them."""
    castle: CastleGame = game
    tiles = castle.board.tiles
    pieces = [
        families.Piece(f.player, role_of(f, tiles[f.pos].oriented), f.pos, f.local)
        for f in castle.figures()
        if f.pos in tiles
    ]
    for player, palace in enumerate(castle.palaces):
        if palace is not None and palace.where in tiles:
            local = palace_local(castle, palace.where, palace.tiles)
            pieces.append(families.Piece(player, "palace", palace.where, local))
    return pieces


def castle_icon(player: int, role: str, tile: int) -> Image.Image:
    """A subject in its role, or a palace, sized for tiles of ``tile`` pixels."""
    return palace_icon(player, tile) if role == "palace" else subject_icon(player, role, tile)


def castle_role(figure: Figure, oriented: Oriented) -> str:
    """A subject's role, or ``palace``."""
    return "palace" if figure.kind == "palace" else role_of(figure, oriented)


families.PIECES["castle"] = families.FamilyPieces(castle_pieces, castle_role, castle_icon)
