"""The ``/carcassonne`` command group: thin handlers over the game manager.

Each command resolves its game (the number given, else the game of this thread or channel),
asks the manager, and answers; turn messages go through :mod:`bot.ui.turn.post`. Names and
descriptions are ``locale_str`` so :mod:`bot.ui.translator` can give them in French.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

import catalogs
from bot import lobby
from bot.i18n import language, shown_name
from bot.storage import GameRow, Status
from bot.ui import access, clocks, help_ui, images
from bot.ui.errors import UIError
from bot.ui.limits import Cell, Figure, GameNumber, Opponents, Rotation, check_options, heavy
from bot.ui.lobby import lobby_ui
from bot.ui.texts import player_locale, rules_keys, rules_text, tr, trn
from bot.ui.timing import chess_clock, pbp_commands
from bot.ui.turn import abandon, final, place_cmd, post, undo
from bot.ui.turn.state import resolve, snapshot
from bot.ui.watching import dashboard as dashboards
from bot.ui.watching import review_ui, stats_ui, viewer
from engine.core.record import MAX_RECORD_BYTES, RecordError
from engine.core.setup import EXPANSIONS as GAME_EXPANSIONS
from engine.core.setup import OPTIONS as GAME_OPTIONS

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

#: The most days ``settings keep_days`` takes (ten years).
MAX_KEEP_DAYS = 3650

#: The ``expansion`` option: one expansion, or a usual combination ("+" between names). The
#: lobby's menu combines them freely; the first two values are those of the first bot.
EXPANSIONS = [
    Choice(name=_("None"), value="none"),
    Choice(name=_("Abbey & Mayor"), value="abbey_mayor"),
    Choice(name=_("Inns & Cathedrals"), value="inns_cathedrals"),
    Choice(name=_("Traders & Builders"), value="traders_builders"),
    Choice(name=_("The River"), value="river"),
    Choice(
        name=_("Inns & Cathedrals + Traders & Builders"), value="inns_cathedrals+traders_builders"
    ),
    Choice(
        name=_("Inns & Cathedrals + Traders & Builders + The River"),
        value="inns_cathedrals+traders_builders+river",
    ),
    Choice(name=_("All four expansions"), value="all"),
]


def chosen_expansions(expansion: str | None) -> tuple[str, ...] | None:
    """The expansions an ``expansion`` option value names (None: not given)."""
    if expansion is None:
        return None
    if expansion == "none":
        return ()
    if expansion == "all":
        return lobby_ui.EXPANSION_CHOICES
    return lobby_ui.ordered_expansions(expansion.split("+"))


def foreign_expansion(game: str | None, expansions: tuple[str, ...] | None) -> bool:
    """Whether a game named with the command does not take these expansions."""
    allowed = GAME_EXPANSIONS.get(game or "", ())
    return game is not None and any(name not in allowed for name in expansions or ())


LEVELS = [
    Choice(name=_("easy"), value="easy"),
    Choice(name=_("medium"), value="medium"),
    Choice(name=_("hard"), value="hard"),
    Choice(name=_("expert"), value="expert"),
]
GAMES = [
    Choice(name=_("Carcassonne"), value="carcassonne"),
    Choice(name=_("The Castle (2 players)"), value="castle"),
    Choice(name=_("Hunters & Gatherers"), value="hunters"),
]
SMALL_CITY = [
    Choice(name=_("classic (2 points)"), value="classic"),
    Choice(name=_("modern (4 points)"), value="modern"),
]
FARMERS = [
    Choice(name=_("classic (3 per city)"), value="classic"),
    Choice(name=_("classic, 4 per city"), value="classic4"),
    Choice(name=_("modern"), value="modern"),
]
INCOMPLETE = [
    Choice(name=_("standard"), value="standard"),
    Choice(name=_("half points"), value="half"),
]
#: Each language by its own name (the same in every client).
LANGUAGES = [
    Choice(name="English", value="en"),
    Choice(name="Français", value="fr"),
    Choice(name="Deutsch", value="de"),
]
WHICH = [
    Choice(name=_("mine"), value="mine"),
    Choice(name=_("playing"), value="playing"),
    Choice(name=_("finished"), value="finished"),
    Choice(name=_("this channel"), value="channel"),
]
ALL: tuple[Status, ...] = ("lobby", "active", "finished", "abandoned")
#: From this many turns, a replay takes seconds to draw: say so while it is drawn.
LONG_REPLAY = 20


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def chosen_options(
    small_city: str | None, farmers: str | None, incomplete: str | None, hand: bool | None
) -> dict[str, Any] | None:
    options: dict[str, Any] = {}
    for name, value in (
        ("small_city", small_city),
        ("farmers", farmers),
        ("incomplete", incomplete),
        ("hand", hand),
    ):
        if value is not None:
            options[name] = value
    return options or None


def shared(interaction: discord.Interaction, row: GameRow) -> bool:
    """Whether an answer about ``row`` may be posted for all to see: a public game's, or a
    private game's in its own private thread (where only its table reads); elsewhere a
    private game's answers are the asker's alone."""
    return not row.private or interaction.channel_id == row.thread_id


def require_started(row: GameRow) -> None:
    """Refuse game commands on a lobby, saying how it starts."""
    if row.status == "lobby":
        raise UIError("not_started", game_id=row.id)


def here_locale(interaction: discord.Interaction, row: GameRow | None = None) -> str:
    return player_locale(interaction, row.locale if row else interaction.extras.get("locale"))


async def adopt_server_locale(interaction: discord.Interaction) -> None:
    """Answer in the server's language unless the player's own is known (see texts)."""
    if interaction.guild_id is not None:
        settings = await bot_of(interaction).manager.records.guild_settings(interaction.guild_id)
        interaction.extras.setdefault("locale", server_language(interaction, settings))


def server_language(interaction: discord.Interaction, settings: Any) -> str:
    """The language of the server's games: the one its admins chose, else the server's own
    Discord language when the bot speaks it, else English."""
    guild = interaction.guild
    server = guild.preferred_locale if guild is not None else interaction.guild_locale
    if settings.locale_chosen or server is None:
        return str(settings.locale)
    return language(str(server.value))


@app_commands.guild_only()
class CarcassonneGroup(app_commands.Group):
    """/carcassonne ..."""

    def __init__(self) -> None:
        super().__init__(name=_("carcassonne"), description=_("Play Carcassonne in this server"))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await adopt_server_locale(interaction)
        check_options(interaction)
        await access.authorise_command(interaction)
        return True

    @app_commands.command(
        name=_("new"), description=_("Open a new game: others join with the button")
    )
    @app_commands.describe(
        game=_("Which game to play (default: the server's)"),
        expansion=_("Expansion to add"),
        small_city=_("How a 2-tile city scores"),
        farmers=_("Farmer scoring"),
        incomplete=_("End-of-game scoring of unfinished features"),
        hand=_("Tactical hand: hold 3 tiles and choose one"),
        purist=_("Purist: hide the tiles left and the dead squares"),
        private=_("Play in a private thread (only invited players see it)"),
        turn_hours=_("Hours each player has per turn (default: the server's)"),
        timeout=_("What happens when a player's time runs out"),
        clock=_("chess clock for a live game: each player's time, plus some per turn"),
    )
    @app_commands.choices(game=GAMES)
    @app_commands.choices(
        expansion=EXPANSIONS, small_city=SMALL_CITY, farmers=FARMERS, incomplete=INCOMPLETE
    )
    @app_commands.choices(timeout=pbp_commands.TIMEOUTS, clock=chess_clock.CLOCKS)
    @app_commands.rename(
        game=_("game"),
        expansion=_("expansion"),
        small_city=_("small_city"),
        farmers=_("farmers"),
        incomplete=_("incomplete"),
        hand=_("hand"),
        purist=_("purist"),
        private=_("private"),
        turn_hours=_("turn_hours"),
        timeout=_("timeout"),
        clock=_("clock"),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        expansion: str | None = None,
        small_city: str | None = None,
        farmers: str | None = None,
        incomplete: str | None = None,
        hand: bool | None = None,
        purist: bool = False,
        private: bool = False,
        turn_hours: app_commands.Range[int, 1, pbp_commands.MAX_TURN_HOURS] | None = None,
        timeout: str | None = None,
        clock: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        manager = bot_of(interaction).manager
        guild_id = interaction.guild_id
        settings = await manager.records.guild_settings(guild_id) if guild_id else None
        channel = interaction.channel
        if settings and settings.channel_id and settings.channel_id != interaction.channel_id:
            found = interaction.client.get_channel(settings.channel_id)
            if isinstance(found, discord.TextChannel):
                channel = found
        if isinstance(channel, discord.Thread):
            raise UIError("new_in_thread")
        if not isinstance(channel, discord.TextChannel):
            raise UIError("guild_only")
        expansions = chosen_expansions(expansion)
        rules = chosen_options(small_city, farmers, incomplete, hand)
        if game is not None and (
            (rules and not GAME_OPTIONS.get(game)) or foreign_expansion(game, expansions)
        ):
            raise UIError("carcassonne_only", game=tr(f"{game}_game", here_locale(interaction)))
        row = await manager.lobbies.create_lobby(
            interaction.user.id,
            interaction.user.display_name,
            guild_id=guild_id,
            channel_id=channel.id,
            game=game,
            expansions=expansions,
            options=rules,
            private=private,
            purist=purist,
            locale=server_language(interaction, settings) if settings else None,
            **pbp_commands.game_timing(turn_hours, timeout),
            **chess_clock.clock_choice(clock),
        )
        message = await channel.send(embed=lobby_ui.lobby_embed(row), view=lobby_ui.lobby_view(row))
        await manager.records.set_messages(row.id, thread_id=None, message_id=message.id)
        await interaction.followup.send(message.jump_url, ephemeral=True)

    @app_commands.command(
        name=_("practice"), description=_("Play at once against computer players")
    )
    @app_commands.describe(
        level=_("How strong the computers play (default: medium)"),
        opponents=_("How many computer players (default: 1)"),
        game=_("Which game to play (default: the server's)"),
        expansion=_("Expansion to add"),
    )
    @app_commands.choices(level=LEVELS, game=GAMES, expansion=EXPANSIONS)
    @app_commands.rename(
        level=_("level"), opponents=_("opponents"), game=_("game"), expansion=_("expansion")
    )
    async def practice(
        self,
        interaction: discord.Interaction,
        level: str = "medium",
        opponents: Opponents = 1,
        game: str | None = None,
        expansion: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        manager = bot_of(interaction).manager
        guild_id = interaction.guild_id
        settings = await manager.records.guild_settings(guild_id) if guild_id else None
        if isinstance(interaction.channel, discord.Thread):
            raise UIError("new_in_thread")
        if not isinstance(interaction.channel, discord.TextChannel):
            raise UIError("guild_only")
        expansions = chosen_expansions(expansion)
        if foreign_expansion(game, expansions):
            raise UIError("carcassonne_only", game=tr(f"{game}_game", here_locale(interaction)))
        row = await manager.lobbies.create_lobby(
            interaction.user.id,
            interaction.user.display_name,
            guild_id=guild_id,
            channel_id=interaction.channel.id,
            game=game,
            expansions=expansions,
            locale=server_language(interaction, settings) if settings else None,
        )
        low, high = lobby.player_range(row.kind)
        wanted = max(low - 1, min(opponents, high - 1))
        namer = lobby_ui.computer_namer(row.locale or "en")
        for _seat in range(wanted):
            name = lobby.computer_name(row, lambda n: namer(n, level))
            row = await manager.lobbies.add_computer(row.id, interaction.user.id, level, name)
        view = await manager.lobbies.start(row.id, interaction.user.id)
        await lobby_ui.begin(bot_of(interaction), interaction, view.game)
        thread = view.game.thread_id
        row = await manager.game(row.id)
        await interaction.followup.send(f"<#{row.thread_id or thread}>", ephemeral=True)

    @heavy
    @app_commands.command(name=_("board"), description=_("Show the current board again"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def board(self, interaction: discord.Interaction, game: GameNumber | None = None) -> None:
        row = await resolve(interaction, game, "carcassonne board")
        require_started(row)
        await interaction.response.defer(ephemeral=True, thinking=True)
        snap = await snapshot(bot_of(interaction).manager, row.id)
        if snap.game is None:
            raise UIError("no_game_here")
        if snap.view.finished or row.status != "active":  # the final board, to the asker
            locale = here_locale(interaction, row)
            styles = images.seat_styles(row)
            file = await images.end_file(snap.game, locale, styles=styles)
            # The final picture shows the part around the last tile of a large board: the
            # whole board comes with it.
            whole, _ = await images.turn_file(snap.game, locale, styles=styles, whole=True)
            await interaction.edit_original_response(
                content=tr("final_board", locale, game_id=row.id), attachments=[file, whole]
            )
            return
        await post.announce(bot_of(interaction), snap, [], whole=True)
        await interaction.delete_original_response()

    @heavy
    @app_commands.command(
        name=_("tiles"), description=_("The tiles not placed yet, as a picture (only you see it)")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def tiles(self, interaction: discord.Interaction, game: GameNumber | None = None) -> None:
        # Private: a player checks the tiles mid-game without filling the game's thread.
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await resolve(interaction, game, "carcassonne tiles")
        require_started(row)
        locale = here_locale(interaction, row)
        if row.purist:
            raise UIError("tiles_purist", game_id=row.id)
        snap = await snapshot(bot_of(interaction).manager, row.id)
        if snap.game is None:
            raise UIError("no_game_here")
        if snap.view.finished or row.status != "active":
            raise UIError("game_closed", game_id=row.id)
        # Drawn from what the table has seen (tiles in hands and the stack's order unknown).
        public = await bot_of(interaction).manager.records.public_copy(row.id)
        file = await images.tiles_file(public, locale)
        lines = [tr("tiles_intro", locale, game_id=row.id)]
        if row.kind == "castle":
            lines.append(tr("tiles_castle", locale))
        await interaction.followup.send("\n".join(lines), file=file, ephemeral=True)

    @heavy
    @app_commands.command(
        name=_("replay"),
        description=_("Watch the whole game again, turn by turn (animated picture)"),
    )
    @app_commands.rename(game=_("game"), page=_("page"))
    @app_commands.describe(
        game=_("Game number (default: the game of this thread)"),
        page=_("Also attach the game as a web page: a turn slider and the score chart"),
    )
    async def replay(
        self, interaction: discord.Interaction, game: GameNumber | None = None, page: bool = False
    ) -> None:
        """The game so far (finished or not) as an animated picture, posted where asked: drawn
        in a render worker, with a word first when it will take a while. With ``page``, the
        viewer's page too; with the host's ``VIEWER_URL``, a button opening the game there."""
        row = await resolve(interaction, game, "carcassonne replay")
        require_started(row)
        await interaction.response.defer(thinking=True, ephemeral=not shared(interaction, row))
        manager = bot_of(interaction).manager
        snap = await snapshot(manager, row.id)
        if snap.game is None:
            raise UIError("no_game_here")
        # A running game's replay, page and link show what the table has seen, nothing more.
        public = await manager.records.public_copy(row.id)
        locale = here_locale(interaction, row)
        turns = await asyncio.to_thread(manager.records.turns_of, public)
        if turns >= LONG_REPLAY:
            drawing = catalogs.plural("ui", "replay_drawing", turns, locale, game_id=row.id)
            await interaction.edit_original_response(content=drawing)
        styles = images.seat_styles(row)
        files = [await images.replay_file(public, locale, row.id, styles=styles)]
        if page:
            files.append(await viewer.viewer_file(public, locale, row.id, styles=styles))
        done = catalogs.plural("ui", "replay_done", turns, locale, game_id=row.id)
        base = bot_of(interaction).settings.viewer_url
        url = None if base is None else await viewer.viewer_link(base, public, styles)
        if url is None:
            await interaction.edit_original_response(content=done, attachments=files)
        else:
            view = viewer.link_view(url, locale)
            await interaction.edit_original_response(content=done, attachments=files, view=view)

    @heavy
    @app_commands.command(
        name=_("review"),
        description=_("A finished game's review: accuracy and the costliest moves"),
    )
    @app_commands.rename(game=_("game"), hint=_("hint"))
    @app_commands.describe(
        game=_("Game number (default: the game of this thread)"),
        hint=_("Practice games: the expert's best move for your turn, for you alone"),
    )
    async def review(
        self, interaction: discord.Interaction, game: GameNumber | None = None, hint: bool = False
    ) -> None:
        """A finished game's review, computed once in the review workers (see
        :mod:`bot.ui.watching.review_ui`); with ``hint``, the expert's move for the caller's
        turn in a practice game."""
        if hint:
            row = await resolve(interaction, game, "carcassonne review hint")
            await review_ui.show_hint(interaction, row)
            return
        row = await resolve(interaction, game, "carcassonne review")
        require_started(row)
        await review_ui.show_review(interaction, row)

    @app_commands.command(
        name=_("status"), description=_("Scores, tiles left and whose turn it is")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def status(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        row = await resolve(interaction, game, "carcassonne status")
        snap = await snapshot(bot_of(interaction).manager, row.id)
        locale = here_locale(interaction, row)
        if snap.game is None:
            lines = [lobby_ui.setup_summary(row, locale)]
        elif row.status == "abandoned":  # no turn any more: the scores where it stopped
            lines = [tr("abandoned", locale, game_id=row.id)]
            lines += [
                tr("score_line", locale, name=n, score=s)
                for n, s in zip(snap.names, snap.game.scores, strict=True)
            ]
        else:
            view = snap.view
            player = snap.names[view.seat] if view.seat is not None else "-"
            lines = [
                trn(
                    "status_line",
                    view.tiles_left,
                    locale,
                    game_id=row.id,
                    turn=view.turn + 1,
                    tiles=view.tiles_left,
                    player=player,
                )
            ]
            lines += [
                tr("score_line", locale, name=n, score=s)
                for n, s in zip(snap.names, view.scores, strict=True)
            ]
            manager = bot_of(interaction).manager
            lines += await clocks.clock_lines(manager, row, locale, everyone=True)
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(
        name=_("place"), description=_("Play your turn in one line (cell, rotation, figure)")
    )
    @app_commands.rename(cell=_("cell"), rotation=_("rotation"), figure=_("figure"), game=_("game"))
    @app_commands.describe(
        cell=_("Square: its letter on the board, or x,y"),
        rotation=_("Rotation in degrees, clockwise"),
        figure=_("Spot number for a figure, or none"),
        game=_("Game number (default: the game of this thread)"),
    )
    @app_commands.autocomplete(cell=place_cmd.cell_choices, figure=place_cmd.figure_choices)
    @app_commands.autocomplete(rotation=place_cmd.rotation_choices)
    async def place(
        self,
        interaction: discord.Interaction,
        cell: Cell,
        rotation: Rotation | None = None,
        figure: Figure = "none",
        game: GameNumber | None = None,
    ) -> None:
        row = await resolve(interaction, game, "carcassonne place")
        await place_cmd.place(interaction, row, cell, rotation, figure)

    @app_commands.command(
        name=_("resign"), description=_("Leave the game: your figures stay but score nothing")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def resign(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        row = await resolve(interaction, game, "carcassonne resign")
        require_started(row)
        await interaction.response.defer(ephemeral=True, thinking=True)
        manager = bot_of(interaction).manager
        result = await manager.resign(row.id, interaction.user.id)
        name = shown_name(interaction.user.display_name)
        await post.resigned(bot_of(interaction), row.id, result, name)
        locale = here_locale(interaction, row)
        await interaction.followup.send(tr("resign_done", locale, game_id=row.id), ephemeral=True)

    @app_commands.command(
        name=_("abandon"),
        description=_(
            "Stop a game: its creator, with the players' agreement once started, or an admin"
        ),
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def abandon(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        await abandon.command(interaction, await resolve(interaction, game, "carcassonne abandon"))

    @app_commands.command(
        name=_("undo"), description=_("Take back the last move (others may have to agree)")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def undo(self, interaction: discord.Interaction, game: GameNumber | None = None) -> None:
        row = await resolve(interaction, game, "carcassonne undo")
        require_started(row)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await undo.ask(bot_of(interaction), interaction, row)

    @heavy
    @app_commands.command(name=_("export"), description=_("Download the game's record (JSON)"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def export(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        row = await resolve(interaction, game, "carcassonne export")
        require_started(row)
        # A running game: what the table has seen, in one canonical text.
        data = await bot_of(interaction).manager.records.export_file(row.id)
        file = discord.File(io.BytesIO(data), filename=f"carcassonne-{row.id}.json")
        await interaction.response.send_message(
            tr("exported", here_locale(interaction, row), game_id=row.id),
            file=file,
            ephemeral=not shared(interaction, row),
        )

    @app_commands.command(name=_("import"), description=_("Continue a game from a record file"))
    @app_commands.rename(file=_("file"))
    @app_commands.describe(file=_("A record exported with /carcassonne export"))
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        locale = here_locale(interaction)
        if file.size > MAX_RECORD_BYTES:
            raise UIError("too_big")
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await file.read()
        manager = bot_of(interaction).manager
        try:
            row = await manager.records.import_file(
                data,
                interaction.user.id,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
            )
        except RecordError as error:
            key, params = record_refusal(error, locale)
            raise UIError(key, **params) from None
        if isinstance(interaction.channel, discord.Thread):
            await manager.records.set_messages(
                row.id, thread_id=interaction.channel.id, message_id=None
            )
        snap = await snapshot(manager, row.id)
        await post.announce(bot_of(interaction), snap, [])
        await interaction.followup.send(
            trn("imported", row.action_count, locale, game_id=row.id, count=row.action_count),
            ephemeral=True,
        )

    @heavy
    @app_commands.command(name=_("games"), description=_("List games (yours, or this channel's)"))
    @app_commands.rename(which=_("which"))
    @app_commands.describe(which=_("Which games to list"))
    @app_commands.choices(which=WHICH)
    async def games(self, interaction: discord.Interaction, which: str = "mine") -> None:
        manager = bot_of(interaction).manager
        locale = here_locale(interaction)
        if which == "channel":
            rows = await manager.records.games_in_channel(interaction.channel_id or 0, ALL)
            rows = [row for row in rows if await access.may_list(interaction, row)]
        else:
            filters: dict[str, tuple[Status, ...]] = {
                "playing": ("lobby", "active"),
                "finished": ("finished", "abandoned"),
            }
            statuses = filters.get(which, ALL)
            rows = await manager.records.games_of_user(
                interaction.user.id, guild_id=interaction.guild_id, statuses=statuses
            )
        lines = []
        followers = await manager.watch.follower_counts([row.id for row in rows[:20]])
        for row in rows[:20]:
            players = ", ".join(s.mention for s in row.seats)
            place = (
                f" · <#{row.thread_id or row.channel_id}>"
                if (row.thread_id or row.channel_id)
                else ""
            )
            lines.append(
                tr(
                    "games_line",
                    locale,
                    game_id=row.id,
                    players=players,
                    where=place,
                    status=tr(f"status_{row.status}", locale),
                )
                + (
                    " · " + dashboards.followers_text(followers[row.id], locale)
                    if row.id in followers
                    else ""
                )
            )
        await interaction.response.send_message(
            "\n".join(lines) or tr("games_none", locale), ephemeral=True
        )

    @heavy
    @app_commands.command(name=_("stats"), description=_("A player's statistics in this server"))
    @app_commands.rename(player=_("player"), versus=_("versus"))
    @app_commands.describe(
        player=_("Whose statistics (default: yours)"),
        versus=_("Compare with this player (games together)"),
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        versus: discord.Member | None = None,
    ) -> None:
        await stats_ui.show(interaction, player, versus)

    @heavy
    @app_commands.command(
        name=_("help"), description=_("How a turn works, the commands, and the rules")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("The game whose rules to show (default: this thread's)"))
    @app_commands.choices(game=GAMES)
    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        row: GameRow | None = None
        with contextlib.suppress(UIError):
            row = await resolve(interaction, None, None)
        locale = here_locale(interaction, row)
        tree = bot_of(interaction).tree
        await help_ui.show(interaction, tree, row, game, locale)

    @app_commands.command(name=_("rules"), description=_("Short rules of the game"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def rules(self, interaction: discord.Interaction, game: GameNumber | None = None) -> None:
        row: GameRow | None = None
        try:
            row = await resolve(interaction, game, "carcassonne rules")
        except UIError:
            if game is not None:
                raise
        locale = here_locale(interaction, row)
        if row is not None and row.kind != "carcassonne" and row.kind in rules_keys():
            parts = [rules_text(row.kind, locale)]
        else:
            parts = [rules_text("carcassonne", locale)]
            # No game here: the first expansion only (/carcassonne help has them all).
            shown = ("abbey_mayor",) if row is None else row.expansions
            for name in lobby_ui.EXPANSION_CHOICES:
                if name in shown and name in rules_keys():
                    parts.append(rules_text(name, locale))
            if row is None:
                parts.append(rules_text("castle_pointer", locale))
                parts.append(rules_text("hunters_pointer", locale))
        if row is not None:
            parts.append(lobby_ui.setup_summary(row, locale))
        parts.append(rules_text("how", locale))
        # Four expansions' rules outgrow one message (2000 characters): the rest follows.
        lines = [line for part in parts for line in (part, "")][:-1]
        first, *rest = final.chunks(lines, final.CONTENT)
        await interaction.response.send_message(first, ephemeral=True)
        for more in rest:
            await interaction.followup.send(more, ephemeral=True)

    @app_commands.command(
        name=_("settings"), description=_("Server defaults: options, channel, language")
    )
    @app_commands.rename(
        language=_("language"),
        channel=_("channel"),
        expansion=_("expansion"),
        small_city=_("small_city"),
        farmers=_("farmers"),
        incomplete=_("incomplete"),
        hand=_("hand"),
        turn_hours=_("turn_hours"),
        timeout=_("timeout"),
        digest_channel=_("digest_channel"),
        digest_off=_("digest_off"),
        dashboard=_("dashboard"),
        keep_days=_("keep_days"),
    )
    @app_commands.describe(
        language=_("Language of game messages"),
        channel=_("Default channel for new games"),
        expansion=_("Expansion to add"),
        small_city=_("How a 2-tile city scores"),
        farmers=_("Farmer scoring"),
        incomplete=_("End-of-game scoring of unfinished features"),
        hand=_("Tactical hand: hold 3 tiles and choose one"),
        turn_hours=_("Default hours per turn of new games (0: no time limit)"),
        timeout=_("Default: what happens when a player's time runs out"),
        digest_channel=_("Channel for the daily list of whose turn it is"),
        digest_off=_("Stop the daily list of whose turn it is"),
        dashboard=_("This channel's running games in one message, kept up to date (False: off)"),
        keep_days=_("Delete finished games this many days after they end (0: keep them)"),
    )
    @app_commands.choices(
        language=LANGUAGES,
        expansion=EXPANSIONS,
        small_city=SMALL_CITY,
        farmers=FARMERS,
        incomplete=INCOMPLETE,
        timeout=pbp_commands.TIMEOUTS,
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        channel: discord.TextChannel | None = None,
        expansion: str | None = None,
        small_city: str | None = None,
        farmers: str | None = None,
        incomplete: str | None = None,
        hand: bool | None = None,
        turn_hours: app_commands.Range[int, 0, pbp_commands.MAX_TURN_HOURS] | None = None,
        timeout: str | None = None,
        digest_channel: discord.TextChannel | None = None,
        digest_off: bool | None = None,
        dashboard: bool | None = None,
        keep_days: app_commands.Range[int, 0, MAX_KEEP_DAYS] | None = None,
    ) -> None:
        manager = bot_of(interaction).manager
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UIError("guild_only")
        asked: tuple[object, ...] = (language, channel, expansion, small_city, farmers)
        asked += (incomplete, hand, turn_hours, timeout, digest_channel, digest_off, dashboard)
        asked += (keep_days,)
        if any(value is not None for value in asked):
            await access.authorise(interaction, "carcassonne settings change")
        extra: list[str] = []
        if dashboard is not None:  # posting it takes a moment: answered as a follow-up
            extra.append(await dashboards.setting(interaction, dashboard))
        changes: dict[str, Any] = {}
        if language is not None:
            changes["locale"] = language
        if channel is not None:
            changes["channel_id"] = channel.id
        if expansion is not None:
            changes["expansions"] = chosen_expansions(expansion)
        timing = pbp_commands.settings_changes(turn_hours, timeout, digest_channel, digest_off)
        changes.update(timing)
        if keep_days is not None:  # 0: for ever
            changes["keep_days"] = keep_days or None
        options = chosen_options(small_city, farmers, incomplete, hand)
        if changes or options:
            if options:
                current = await manager.records.guild_settings(guild_id)
                changes["options"] = {**current.options, **options}
            settings = await manager.records.update_guild_settings(guild_id, **changes)
            key = "settings_saved"
        else:
            settings = await manager.records.guild_settings(guild_id)
            key = "settings_show"
        locale = player_locale(interaction, settings.locale)
        summary = settings_summary(settings, locale)
        text = "\n".join([tr(key, locale, summary=summary), *extra])
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


#: The words of each problem :func:`engine.core.record.read_record` finds in a file.
RECORD_REASONS = {
    "not_text": "json_not_text",
    "too_deep": "json_too_deep",
    "invalid": "json_invalid",
    "huge_number": "json_huge_number",
    "position": "json_position",
}


def record_refusal(error: RecordError, locale: str) -> tuple[str, dict[str, Any]]:
    """The text key and parameters telling a player why a file is not a record."""
    if error.code == "too_big":
        return "too_big", {}
    if error.code == "empty":
        return "empty_file", {}
    key = RECORD_REASONS.get(error.code, "json_not_object")
    return "bad_json", {"reason": tr(key, locale, **error.params)}


def settings_summary(settings: Any, locale: str) -> str:
    fake = GameRow(
        id=0,
        owner_id=0,
        created_at=0,
        updated_at=0,
        expansions=settings.expansions,
        options=dict(settings.options),
        locale=settings.locale,
    )
    parts = [settings.locale, lobby_ui.setup_summary(fake, locale).rsplit(" · ", 1)[0]]
    if settings.channel_id:
        parts.append(f"<#{settings.channel_id}>")
    parts += pbp_commands.settings_parts(settings, locale)
    if settings.keep_days:
        parts.append(trn("settings_keep_days", settings.keep_days, locale, days=settings.keep_days))
    return " · ".join(parts)
