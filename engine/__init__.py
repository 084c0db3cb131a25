"""Pure, deterministic rules engine for Carcassonne and its relatives.

No Discord, Pillow, SQLite or asyncio here: a game is (setup, seed, actions).
"""

from engine.actions import (
    Action,
    Forfeit,
    MoveWagon,
    Pass,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    Skip,
    UseWallTile,
    action_from_json,
)
from engine.castle import CastleGame
from engine.errors import GameError, IllegalActionError, MalformedError, WrongPhaseError
from engine.events import (
    Event,
    FeatureScored,
    FigurePlaced,
    FigureReturned,
    GameEnded,
    PalacePlaced,
    TileDiscarded,
    TilePlaced,
    TurnStarted,
    WallTileTaken,
    WallTileUsed,
)
from engine.game import Game
from engine.hunters import HuntersGame
from engine.setup import Setup
from engine.turn import Decision, LegalPlacements, Phase

__all__ = [
    "Action",
    "CastleGame",
    "Decision",
    "Event",
    "FeatureScored",
    "FigurePlaced",
    "FigureReturned",
    "Forfeit",
    "Game",
    "GameEnded",
    "GameError",
    "HuntersGame",
    "IllegalActionError",
    "LegalPlacements",
    "MalformedError",
    "MoveWagon",
    "PalacePlaced",
    "Pass",
    "Phase",
    "PlaceAbbey",
    "PlaceFigure",
    "PlaceTile",
    "Setup",
    "Skip",
    "TileDiscarded",
    "TilePlaced",
    "TurnStarted",
    "UseWallTile",
    "WallTileTaken",
    "WallTileUsed",
    "WrongPhaseError",
    "action_from_json",
]
