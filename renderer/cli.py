"""Command line: draw a game record's board (or end image, or rotations) to a PNG file, its
animated replay to a WebP file, or its viewer page to an HTML file; ``python -m renderer viewer
--out viewer.html`` writes the viewer page to host, which reads games from its links."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import catalogs
from engine import Game, Setup, action_from_json
from engine.core.errors import GameError
from renderer.endgame import render_game_end
from renderer.options import RenderOptions
from renderer.render import render_board
from renderer.replay import render_replay
from renderer.turn import render_rotations
from renderer.viewer.page import hosted_page, standalone_page


def game_at(record: Any, turn: int | None) -> Game:
    """Replay a record to its end, or until ``game.turn`` reaches ``turn``."""
    game = Game(Setup.from_json(record))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise GameError("'actions' must be a list")
    for index, raw in enumerate(actions):
        if turn is not None and game.turn >= turn:
            break
        try:
            game.play(action_from_json(raw))
        except ValueError as error:
            raise GameError(f"action {index}: {error}") from error
    return game


def hosted_viewer(argv: list[str]) -> int:
    """``python -m renderer viewer --out FILE``: the viewer page to host as a static file."""
    parser = argparse.ArgumentParser(
        prog="python -m renderer viewer",
        description="Write the browser viewer page to host as a static file (every game family's "
        "tiles embedded); set the bot's VIEWER_URL to its address.",
    )
    parser.add_argument("--out", type=Path, required=True, help="HTML file to write")
    parser.add_argument(
        "--lang",
        choices=catalogs.LANGUAGES,
        help="the page's language (default: each reader's browser language)",
    )
    args = parser.parse_args(argv)
    html = hosted_page(args.lang).encode("utf-8")
    args.out.write_bytes(html)
    print(f"wrote {args.out} ({len(html) // 1024} KB)")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["viewer"]:
        return hosted_viewer(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m renderer", description=__doc__)
    parser.add_argument("record", type=Path, help="game record JSON file")
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        help="PNG file to write (WebP for --image replay, HTML for --image viewer)",
    )
    parser.add_argument("--turn", type=int, help="draw the board once turn N is reached")
    parser.add_argument(
        "--image", choices=("board", "end", "rotations", "replay", "viewer"), default="board"
    )
    parser.add_argument("--lang", choices=catalogs.LANGUAGES, default="en")
    parser.add_argument("--tile-size", type=int, default=RenderOptions().tile_size)
    args = parser.parse_args(argv)
    try:
        record = json.loads(args.record.read_text("utf-8"))
        game = game_at(record, args.turn)
    except OSError as error:
        print(f"cannot read {args.record}: {error.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"{args.record} is not valid JSON: {error}", file=sys.stderr)
        return 2
    except GameError as error:
        print(f"{args.record}: {error}", file=sys.stderr)
        return 1
    options = RenderOptions(lang=args.lang, tile_size=max(32, args.tile_size))
    if args.image == "replay":
        # The whole record, whatever --turn says: the replay chooses its own tile size.
        replay = render_replay(record, RenderOptions(lang=args.lang))
        args.out.write_bytes(replay.webp)
        size = f"{len(replay.webp) // 1024} KB, {replay.frames} frames of {replay.size[0]}x"
        print(f"wrote {args.out} ({size}{replay.size[1]}, {replay.turns} turns)")
        return 0
    if args.image == "viewer":
        try:
            html = standalone_page(record, args.lang).encode("utf-8")
        except ValueError as error:
            print(f"{args.record}: {error}", file=sys.stderr)
            return 1
        args.out.write_bytes(html)
        print(f"wrote {args.out} ({len(html) // 1024} KB, the whole game)")
        return 0
    if args.image == "end":
        png = render_game_end(game, options)
    elif args.image == "rotations":
        png = render_rotations(game, options)
    else:
        png = render_board(game, options)
    args.out.write_bytes(png)
    print(f"wrote {args.out} ({len(png) // 1024} KB, turn {game.turn})")
    return 0
