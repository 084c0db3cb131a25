"""Pure, deterministic rules engine for Carcassonne and its relatives.

No Discord, Pillow, SQLite or asyncio here: a game is (setup, seed, actions).

Layout: :mod:`engine.core` (board, features, turn machine, records) and one package per game
family beside it (:mod:`engine.carcassonne` with its expansions, :mod:`engine.hunters`,
:mod:`engine.castle`). Importing :mod:`engine` registers every family, so ``Game(setup)`` builds
the right game.
"""

# First: it decides whether the modules below load compiled or from their Python sources.
from engine._compiled import BUILD, COMPILED
from engine.carcassonne import CarcassonneGame
from engine.castle import CastleGame
from engine.core.actions import (
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
from engine.core.errors import GameError, IllegalActionError, MalformedError, WrongPhaseError
from engine.core.events import (
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
from engine.core.game import Game
from engine.core.setup import Setup
from engine.core.turn import Decision, LegalPlacements, Phase
from engine.hunters import HuntersGame

if COMPILED:
    from engine._compiled import pickle_by_fields

    pickle_by_fields()

__all__ = [
    "BUILD",
    "COMPILED",
    "Action",
    "CarcassonneGame",
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
