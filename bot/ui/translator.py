"""French names and descriptions of the slash commands, options and choices.

Discord shows a command in the user's client language when the command carries localisations;
discord.py asks an :class:`app_commands.Translator` for each ``locale_str`` at sync time. The
English text is the key, so the command definitions stay readable.
"""

from __future__ import annotations

from discord import Locale, app_commands

FRENCH: dict[str, str] = {
    # group and commands (names: lower case, no spaces)
    "carcassonne": "carcassonne",
    "Play Carcassonne in this server": "Jouer à Carcassonne sur ce serveur",
    "new": "nouvelle",
    "Open a new game: others join with the button": "Ouvrir une partie : les autres la "
    "rejoignent avec le bouton",
    "board": "plateau",
    "Show the current board again": "Remontrer le plateau actuel",
    "status": "etat",
    "Scores, tiles left and whose turn it is": "Scores, tuiles restantes et joueur actif",
    "place": "poser",
    "Play your turn in one line (cell, rotation, figure)": "Jouer votre tour en une ligne "
    "(case, rotation, pion)",
    "resign": "abandonner",
    "Leave the game: the bot plays your tiles without figures": "Quitter la partie : le bot "
    "pose vos tuiles sans pion",
    "undo": "annuler",
    "Take back the last move (others may have to agree)": "Reprendre le dernier coup (les "
    "autres doivent parfois accepter)",
    "export": "exporter",
    "Download the game's record (JSON)": "Télécharger l'enregistrement de la partie (JSON)",
    "import": "importer",
    "Continue a game from a record file": "Continuer une partie depuis un fichier d'enregistrement",
    "games": "parties",
    "List games (yours, or this channel's)": "Lister les parties (les vôtres, ou de ce salon)",
    "rules": "regles",
    "Short rules of the game": "Règles résumées du jeu",
    "settings": "reglages",
    "Server defaults: options, channel, language": "Réglages du serveur : options, salon, langue",
    # options
    "game": "partie",
    "Game number (default: the game of this thread)": "Numéro de partie (par défaut : celle "
    "de ce fil)",
    "expansion": "extension",
    "Expansion to add": "Extension à ajouter",
    "private": "privee",
    "Play in a private thread (only invited players see it)": "Jouer dans un fil privé "
    "(seuls les joueurs invités le voient)",
    "small_city": "petite_ville",
    "How a 2-tile city scores": "Comment compte une ville de 2 tuiles",
    "farmers": "paysans",
    "Farmer scoring": "Décompte des paysans",
    "incomplete": "inacheves",
    "End-of-game scoring of unfinished features": "Décompte final des éléments inachevés",
    "hand": "main",
    "Tactical hand: hold 3 tiles and choose one": "Main tactique : garder 3 tuiles et en "
    "choisir une",
    "cell": "case",
    "Square: its letter on the board, or x,y": "Case : sa lettre sur le plateau, ou x,y",
    "rotation": "rotation",
    "Rotation in degrees, clockwise": "Rotation en degrés, sens horaire",
    "figure": "pion",
    "Spot number for a figure, or none": "Numéro d'endroit pour un pion, ou aucun",
    "file": "fichier",
    "A record exported with /carcassonne export": "Un enregistrement exporté avec "
    "/carcassonne exporter",
    "which": "lesquelles",
    "Which games to list": "Quelles parties lister",
    "language": "langue",
    "Language of game messages": "Langue des messages de partie",
    "channel": "salon",
    "Default channel for new games": "Salon par défaut des nouvelles parties",
    # choices
    "Abbey & Mayor": "Abbaye & Maire",
    "None": "Aucune",
    "classic (2 points)": "classique (2 points)",
    "modern (4 points)": "moderne (4 points)",
    "classic (3 per city)": "classique (3 par ville)",
    "classic, 4 per city": "classique, 4 par ville",
    "modern": "moderne",
    "standard": "standard",
    "half points": "moitié des points",
    "yes": "oui",
    "no": "non",
    "mine": "les miennes",
    "this channel": "ce salon",
    "English": "Anglais",
    "French": "Français",
}


class Translator(app_commands.Translator):
    """Serves :data:`FRENCH` to discord.py when it syncs the commands."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is Locale.french:
            return FRENCH.get(string.message)
        return None
