"""``/carcassonne help``: how a turn works (with a real turn picture), the commands, the rules.

Everything is sent privately as embeds: one for the turn with its picture, one listing the
commands (read from the command tree itself, so it never drifts from what Discord shows), and one
with the rules of the chosen game in short sections.
"""

from __future__ import annotations

import io
import random
from types import SimpleNamespace
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import language
from bot.ui.texts import tr
from bot.ui.translator import FRENCH

if TYPE_CHECKING:
    from bot.storage import GameRow

Section = tuple[str, str]

#: Rules per game, in short sections: (title, text) in English, then French.
RULES: dict[str, tuple[list[Section], list[Section]]] = {
    "carcassonne": (
        [
            (
                "Your turn",
                "Place the drawn tile so that every edge matches its neighbours (city to city, "
                "road to road, field to field). Then you may put one follower on a feature of "
                "that tile if nobody holds that feature yet: road (thief), city (knight), "
                "cloister (monk), field (farmer).",
            ),
            (
                "Scoring during the game",
                "A completed feature scores at once for the player with most followers on it "
                "(ties: all of them), and its followers come back. Road: 1 per tile. City: 2 per "
                "tile and 2 per pennant (a 2-tile city scores 2 with the classic small-city "
                "rule). Cloister: 9 once surrounded.",
            ),
            (
                "End of the game",
                "After the last tile, unfinished roads and cities score 1 per tile and pennant, "
                "cloisters 1 per tile around and including them. Farmers score 3 per completed "
                "city touching their field. Most points wins; a player who left never wins.",
            ),
        ],
        [
            (
                "Votre tour",
                "Posez la tuile tirée pour que chaque bord corresponde à ses voisines (ville "
                "contre ville, route contre route, pré contre pré). Puis vous pouvez poser un "
                "partisan sur un élément de cette tuile si personne ne l'occupe : route "
                "(voleur), ville (chevalier), abbaye (moine), pré (paysan).",
            ),
            (
                "Décompte en cours de partie",
                "Un élément achevé marque tout de suite pour le joueur qui y a le plus de "
                "partisans (à égalité : tous), et ses partisans reviennent. Route : 1 par tuile. "
                "Ville : 2 par tuile et 2 par blason (une ville de 2 tuiles vaut 2 avec la règle "
                "classique). Abbaye : 9 une fois entourée.",
            ),
            (
                "Fin de partie",
                "Après la dernière tuile, routes et villes inachevées valent 1 par tuile et "
                "blason, les abbayes 1 par tuile autour d'elles et elle-même. Les paysans "
                "marquent 3 par ville achevée touchant leur pré. Le plus de points gagne ; un "
                "joueur qui a quitté la partie ne gagne jamais.",
            ),
        ],
    ),
    "abbey_mayor": (
        [
            (
                "Abbey",
                "Once per game, instead of your tile, put your abbey into a hole (an empty "
                "square with tiles on all four sides); after the last tile you get one more "
                "chance. It is a cloister, and it closes every feature around it.",
            ),
            (
                "Mayor, wagon, barn",
                "The mayor goes into a city and counts one per pennant there. The wagon goes on a "
                "road, city or cloister and moves on to a free neighbouring feature when its own "
                "scores. The barn sits on a field corner where four tiles meet: it scores that "
                "field's cities for you at once, then farmers joining it later score less.",
            ),
        ],
        [
            (
                "Abbaye",
                "Une fois par partie, au lieu de votre tuile, posez votre abbaye dans un trou "
                "(une case vide entourée de tuiles sur ses quatre côtés) ; après la dernière "
                "tuile, vous avez une dernière occasion. C'est une abbaye qui ferme tous les "
                "éléments autour d'elle.",
            ),
            (
                "Maire, chariot, grange",
                "Le maire va dans une ville et y compte un par blason. Le chariot va sur une "
                "route, une ville ou une abbaye et repart vers un élément voisin libre quand le "
                "sien est décompté. La grange se pose à un coin de pré où quatre tuiles se "
                "touchent : elle fait marquer tout de suite les villes de ce pré, puis les "
                "paysans qui la rejoignent marquent moins.",
            ),
        ],
    ),
    "hunters": (
        [
            (
                "Your turn",
                "Tiles show forests, meadows and rivers; touching edges must match. Then you may "
                "put a man on a feature of that tile that has none: hunter (meadow), gatherer "
                "(forest), fisher (river), or one of your 2 huts on a river or lake whose river "
                "system has no hut. Closing a forest with gold gives you a bonus tile to play at "
                "once.",
            ),
            (
                "Scoring during the game",
                "A completed river pays its fisher majority 1 per tile and 1 per fish in the "
                "lakes at its ends; a completed forest pays its gatherer majority 2 per tile "
                "(and 2 per mushroom clearing).",
            ),
            (
                "End of the game",
                "Huts score 1 per fish in their river system. Hunters score 2 per deer, "
                "mammoth and aurochs in their meadow; each sabre-tooth tiger eats a deer, and "
                "the fire chases the tigers away. The deck is a documented reconstruction of "
                "the 2002 edition.",
            ),
        ],
        [
            (
                "Votre tour",
                "Les tuiles montrent forêts, prés et rivières ; les bords qui se touchent "
                "doivent correspondre. Puis vous pouvez poser un homme sur un élément libre de "
                "cette tuile : chasseur (pré), cueilleur (forêt), pêcheur (rivière), ou une de vos "
                "2 huttes sur une rivière ou un lac dont le réseau n'a pas de hutte. Achever une "
                "forêt avec de l'or donne une tuile bonus à jouer tout de suite.",
            ),
            (
                "Décompte en cours de partie",
                "Une rivière achevée rapporte à ses pêcheurs majoritaires 1 par tuile et 1 par "
                "poisson des lacs à ses bouts ; une forêt achevée rapporte à ses cueilleurs "
                "majoritaires 2 par tuile (et 2 par clairière à champignons).",
            ),
            (
                "Fin de partie",
                "Les huttes marquent 1 par poisson de leur réseau. Les chasseurs marquent 2 par "
                "cerf, mammouth et auroch de leur pré ; chaque tigre à dents de sabre mange un "
                "cerf, et le feu chasse les tigres. La pioche est une reconstitution documentée "
                "de l'édition de 2002.",
            ),
        ],
    ),
    "castle": (
        [
            (
                "Your turn (2 players)",
                "Place your tile inside the walls, next to a start square or a placed tile; only "
                "paths must continue across edges. Then you may put a subject on one of its free "
                "features: messenger (path), knight (tower), burgher (house), merchant "
                "(courtyard, stays to the end).",
            ),
            (
                "Scoring and the palace",
                "A completed feature scores at once for its majority; a tie scores nobody. Path "
                "1 per tile (2 with a well), tower 2 per tile, house 1 per tile. Your first "
                "completed house where you have the majority gets your palace; a larger one "
                "later takes it.",
            ),
            (
                "Wall tiles",
                "A score marker that stops exactly on a corner tower takes its wall tile. Tiles "
                "1 to 3 are played with the Wall tiles button from your next turn on; 4 to 9 "
                "count by themselves at the end.",
            ),
            (
                "End of the game",
                "The largest palace scores the largest empty area; courtyards score 3 per market "
                "for the merchant majority. The castle's outline and tiles are a documented "
                "reconstruction.",
            ),
        ],
        [
            (
                "Votre tour (2 joueurs)",
                "Posez votre tuile dans l'enceinte, contre une case Départ ou une tuile posée ; "
                "seuls les chemins doivent se prolonger. Puis vous pouvez poser un sujet sur un de "
                "ses décors libres : messager (chemin), chevalier (tour), bourgeois (maison), "
                "marchand (cour, reste jusqu'à la fin).",
            ),
            (
                "Décompte et palais",
                "Un décor achevé rapporte tout de suite au joueur majoritaire ; une égalité ne "
                "rapporte rien. Chemin 1 par tuile (2 avec un puits), tour 2 par tuile, maison 1 "
                "par tuile. Votre première maison achevée où vous êtes majoritaire reçoit votre "
                "palais ; une plus grande ensuite le récupère.",
            ),
            (
                "Tuiles Mur",
                "Un marqueur de score qui s'arrête pile sur une tour de coin prend sa tuile Mur. "
                "Les tuiles 1 à 3 se jouent avec le bouton Tuiles Mur dès votre tour suivant ; "
                "4 à 9 comptent seules à la fin.",
            ),
            (
                "Fin de partie",
                "Le plus grand palais marque la plus grande zone vide ; les cours marquent 3 par "
                "marché pour le marchand majoritaire. Le tracé du château et ses tuiles sont une "
                "reconstitution documentée.",
            ),
        ],
    ),
}

TURN: tuple[list[Section], list[Section]] = (
    [
        (
            "1 · Look",
            "The turn message shows your tile on top, described in words, and the board with "
            "lettered squares where it fits. Tap the picture to see it full size.",
        ),
        (
            "2 · Pick a square",
            "In the menu under the picture, choose a square and a rotation, e.g. **B · 90°** "
            "(just **B** when the tile fits one way there).",
        ),
        (
            "3 · Put a figure, or not",
            "Only you see the next step: your tile in place with a numbered figure at each "
            "free spot. Tap a number, or **No figure**: that tap plays the move. Pick another "
            "square to change your mind.",
        ),
        (
            "Mistakes",
            "`/carcassonne undo` takes back your last turn at once until the next player acts; "
            "later, everyone still playing must agree (buttons in the thread).",
        ),
    ],
    [
        (
            "1 · Regardez",
            "Le message du tour montre votre tuile en haut, décrite en mots, et le plateau avec "
            "des cases lettrées là où elle va. Touchez l'image pour l'agrandir.",
        ),
        (
            "2 · Choisissez une case",
            "Dans le menu sous l'image, choisissez une case et une orientation, par ex. "
            "**B · 90°** (juste **B** si la tuile ne s'y pose que d'une façon).",
        ),
        (
            "3 · Un pion, ou pas",
            "Vous seul voyez l'étape suivante : votre tuile en place avec un pion numéroté à "
            "chaque endroit libre. Touchez un numéro, ou **Aucun pion** : ce geste joue le coup. "
            "Choisissez une autre case pour changer d'avis.",
        ),
        (
            "Erreurs",
            "`/carcassonne annuler` reprend votre dernier tour tout de suite tant que le joueur "
            "suivant n'a pas joué ; ensuite, tous les joueurs encore en jeu doivent accepter "
            "(boutons dans le fil).",
        ),
    ],
)


def _pick(pair: tuple[list[Section], list[Section]], locale: str) -> list[Section]:
    return pair[1] if language(locale) == "fr" else pair[0]


def rules_embed(game: str, locale: str, expansions: tuple[str, ...] = ()) -> discord.Embed:
    """The rules of ``game`` (and its expansions) in short sections."""
    from bot.ui.texts import game_title

    which = SimpleNamespace(kind=game, expansions=expansions)
    title = tr("help_rules", locale, game=game_title(which, locale))
    embed = discord.Embed(title=title, colour=discord.Colour.dark_green())
    for name in (game, *expansions):
        for head, body in _pick(RULES[name], locale) if name in RULES else []:
            embed.add_field(name=head, value=body, inline=False)
    return embed


def turn_embed(locale: str) -> discord.Embed:
    embed = discord.Embed(title=tr("help_turn", locale), colour=discord.Colour.blurple())
    for head, body in _pick(TURN, locale):
        embed.add_field(name=head, value=body, inline=False)
    embed.set_image(url="attachment://help-turn.png")
    return embed


def commands_embed(tree: app_commands.CommandTree[discord.Client], locale: str) -> discord.Embed:
    """Every slash command with its description, as Discord shows them in ``locale``."""
    fr = language(locale) == "fr"

    def say(text: str) -> str:
        return FRENCH.get(text, text) if fr else text

    embed = discord.Embed(title=tr("help_commands", locale), colour=discord.Colour.blurple())
    for command in tree.get_commands():
        if not isinstance(command, app_commands.Group):
            continue
        lines = [
            f"`/{say(command.name)} {say(sub.name)}` {say(sub.description)}"
            for sub in command.commands
        ]
        value = "\n".join(lines)
        while len(value) > 1024:  # a field holds 1024 characters: continue in another
            cut = value.rfind("\n", 0, 1024)
            embed.add_field(name=f"/{say(command.name)}", value=value[:cut], inline=False)
            value = value[cut + 1 :]
        embed.add_field(name=f"/{say(command.name)}", value=value, inline=False)
    return embed


_PICTURES: dict[str, bytes] = {}


def demo_picture(locale: str) -> bytes:
    """A real turn picture of a small example game (the same renderer as every turn)."""
    if locale in _PICTURES:
        return _PICTURES[locale]
    from bot.ui.post import tile_card
    from bot.ui.state import turn_labels
    from engine import Game
    from engine.cli import random_action
    from engine.setup import Setup
    from renderer.encode import encode_png
    from renderer.options import RenderOptions
    from renderer.phone import turn_picture

    names = ("Ana", "Ben") if language(locale) != "fr" else ("Anne", "Benoît")
    game = Game(Setup(players=names, seed=11))
    rng = random.Random(11)
    while game.turn < 6:
        game.play(random_action(game, rng))
    options = RenderOptions(lang=language(locale))
    picture = turn_picture(
        game, options, candidates=turn_labels(game), card=tile_card(game, game.tile, locale)
    )
    data = encode_png(picture.image)
    _PICTURES[locale] = data
    return data


async def show(
    interaction: discord.Interaction,
    tree: app_commands.CommandTree[discord.Client],
    row: GameRow | None,
    game: str | None,
    locale: str,
) -> None:
    """Answer ``/carcassonne help`` privately: the turn, the commands, the rules."""
    import asyncio

    await interaction.response.defer(ephemeral=True, thinking=True)
    kind = game or (row.kind if row is not None else "carcassonne")
    expansions = tuple(row.expansions) if row is not None and game in (None, row.kind) else ()
    if game is None and row is None:
        expansions = ("abbey_mayor",)
    data = await asyncio.to_thread(demo_picture, locale)
    embeds = [
        turn_embed(locale),
        commands_embed(tree, locale),
        rules_embed(kind, locale, expansions),
    ]
    file = discord.File(io.BytesIO(data), filename="help-turn.png")
    # One message holds at most 6000 characters of embeds: the rest follows in another.
    first, rest = embeds[:1], embeds[1:]
    while rest and sum(len(e) for e in first) + len(rest[0]) <= 6000:
        first.append(rest.pop(0))
    await interaction.followup.send(embeds=first, file=file, ephemeral=True)
    if rest:
        await interaction.followup.send(embeds=rest, ephemeral=True)
