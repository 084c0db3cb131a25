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
    "Leave the game: your figures stay but score nothing": "Quitter la partie : vos pions "
    "restent mais ne marquent plus rien",
    "undo": "annuler",
    "Take back the last move (others may have to agree)": "Reprendre le dernier coup (les "
    "autres doivent parfois accepter)",
    "export": "exporter",
    "Download the game's record (JSON)": "Télécharger l'enregistrement de la partie (JSON)",
    "import": "importer",
    "Continue a game from a record file": "Continuer une partie depuis un fichier d'enregistrement",
    "games": "parties",
    "List games (yours, or this channel's)": "Lister les parties (les vôtres, ou de ce salon)",
    "help": "aide",
    "abandon": "arreter",
    "Stop a game: its creator for a lobby or a solo game, an admin for any": "Arrêter une "
    "partie : son créateur pour une inscription ou une partie solo, un admin pour toute partie",
    "How a turn works, the commands, and the rules": "Comment jouer un tour, les commandes et "
    "les règles",
    "The game whose rules to show (default: this thread's)": "Le jeu dont montrer les règles "
    "(par défaut : celui de ce fil)",
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
    # play-by-post: commands, options, choices
    "away": "absent",
    "Pause your turn clocks while you are away (0 days: back)": "Mettre vos horloges de tour "
    "en pause pendant votre absence (0 jour : retour)",
    "days": "jours",
    "How many days you are away; 0 ends your absence": "Nombre de jours d'absence ; 0 met fin "
    "à votre absence",
    "mygames": "mesparties",
    "The games of this server where it is your turn": "Les parties de ce serveur où c'est "
    "votre tour",
    "reminders": "rappels",
    "Get your turn reminders by direct message, or not": "Recevoir ou non vos rappels de tour "
    "par message privé",
    "dm": "mp",
    "True: a DM before your time runs out; False: no DM": "True : un message privé avant la "
    "fin de votre temps ; False : aucun",
    "turn_hours": "heures_par_tour",
    "Hours each player has per turn (default: the server's)": "Heures de chaque joueur par "
    "tour (par défaut : celles du serveur)",
    "timeout": "temps_ecoule",
    "What happens when a player's time runs out": "Ce qui se passe quand le temps d'un joueur "
    "est écoulé",
    "Default hours per turn of new games (0: no time limit)": "Heures par tour par défaut des "
    "nouvelles parties (0 : sans limite)",
    "Default: what happens when a player's time runs out": "Par défaut : ce qui se passe quand "
    "le temps d'un joueur est écoulé",
    "digest_channel": "salon_resume",
    "Channel for the daily list of whose turn it is": "Salon du résumé quotidien : à qui de jouer",
    "digest_off": "sans_resume",
    "Stop the daily list of whose turn it is": "Arrêter le résumé quotidien",
    "the bot places the tile (no figure)": "le bot pose la tuile (sans pion)",
    "the turn is skipped": "le tour passe",
    "the player leaves the game": "le joueur quitte la partie",
    # choices
    "Abbey & Mayor": "Abbaye & Maire",
    "Carcassonne": "Carcassonne",
    "The Castle (2 players)": "Le Château (2 joueurs)",
    "Hunters & Gatherers": "Chasseurs et Cueilleurs",
    "Which game to play (default: the server's)": "Jeu à jouer (par défaut : celui du serveur)",
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
    "playing": "en cours",
    "finished": "finies",
    "this channel": "ce salon",
    "English": "Anglais",
    "French": "Français",
}


# /league (bot/ui/league_commands.py): names, options, descriptions, choices.
FRENCH.update(
    {
        "league": "ligue",
        "Community leagues: seasons, standings, ratings": "Ligues du serveur : saisons, "
        "classements, cotes",
        "create": "creer",
        "Create a league (members who can manage the server)": "Créer une ligue (membres qui "
        "gèrent le serveur)",
        "name": "nom",
        "The league's name": "Le nom de la ligue",
        "Channel for its games and standings (default: here)": "Salon de ses parties et de son "
        "classement (par défaut : ici)",
        "game_kind": "jeu",
        "Which game the league plays": "Le jeu de la ligue",
        "min_players": "joueurs_min",
        "Fewest players in a league game (2-5)": "Nombre minimum de joueurs par partie (2-5)",
        "max_players": "joueurs_max",
        "Most players in a league game (2-5)": "Nombre maximum de joueurs par partie (2-5)",
        "pace": "rythme",
        "Live games, or play-by-post with a time per turn": "Parties en direct, ou par messages "
        "avec un temps par tour",
        "turn_hours": "heures_par_tour",
        "Play-by-post: hours per turn (default 24)": "Par messages : heures par tour (24 par "
        "défaut)",
        "points": "points",
        "Standings points per place, first first (default 3,1,0)": "Points de classement par "
        "place, la première d'abord (3,1,0 par défaut)",
        "tiebreak": "departage",
        "How players level on points are ordered": "Comment départager les égalités de points",
        "starts": "debut",
        "First day of the season, YYYY-MM-DD (default: today)": "Premier jour de la saison, "
        "AAAA-MM-JJ (par défaut : aujourd'hui)",
        "ends": "fin",
        "Last day of the season, YYYY-MM-DD (default: none)": "Dernier jour de la saison, "
        "AAAA-MM-JJ (par défaut : aucun)",
        "Carcassonne": "Carcassonne",
        "Hunters & Gatherers": "Chasseurs et Cueilleurs",
        "The Castle (2 players)": "Le Château (2 joueurs)",
        "live (the server's usual timing)": "en direct (le rythme habituel du serveur)",
        "play-by-post (time per turn)": "par messages (temps par tour)",
        "wins, then total score": "victoires, puis score total",
        "total score, then wins": "score total, puis victoires",
        "average score, then wins": "score moyen, puis victoires",
        "join": "rejoindre",
        "Join a league": "Rejoindre une ligue",
        "League name (default: the league of this channel)": "Nom de la ligue (par défaut : "
        "celle de ce salon)",
        "leave": "quitter",
        "Leave a league (your results stay)": "Quitter une ligue (vos résultats restent)",
        "standings": "classement",
        "A season's standings": "Le classement d'une saison",
        "season": "saison",
        "Season number (default: the current one)": "Numéro de saison (par défaut : l'actuelle)",
        "leaderboard": "cotes",
        "Players by rating": "Les joueurs par cote",
        "profile": "profil",
        "A player's league profile": "Le profil de ligue d'un joueur",
        "player": "joueur",
        "Whose profile (default: yours)": "Le profil de qui (par défaut : le vôtre)",
        "schedule": "programmer",
        "Start league games: the players named, or a round for every free member": "Lancer "
        "des parties de ligue : les joueurs nommés, ou une ronde pour tous les membres libres",
        "player1": "joueur1",
        "player2": "joueur2",
        "player3": "joueur3",
        "player4": "joueur4",
        "player5": "joueur5",
        "A player (name nobody to seat every free member)": "Un joueur (personne : tous les "
        "membres libres jouent)",
        "challenge": "defier",
        "Challenge league members to a game": "Défier des membres de la ligue",
        "opponent1": "adversaire1",
        "opponent2": "adversaire2",
        "opponent3": "adversaire3",
        "opponent4": "adversaire4",
        "A member you challenge": "Un membre que vous défiez",
        "Another member you challenge": "Un autre membre que vous défiez",
        "Another player": "Un autre joueur",
        "annul": "invalider",
        "Annul a league game's result (admins, with a reason)": "Annuler le résultat d'une "
        "partie de ligue (admins, avec une raison)",
        "reason": "raison",
        "Game number": "Numéro de partie",
        "Why (kept in the league's log)": "Pourquoi (gardé dans le journal de la ligue)",
        "close": "clore",
        "Close the season (organiser); optionally open the next": "Clore la saison "
        "(organisateur) ; ouvrir la suivante si voulu",
        "next_season_ends": "fin_saison_suivante",
        "Open the next season at once, ending on YYYY-MM-DD": "Ouvrir tout de suite la saison "
        "suivante, jusqu'au AAAA-MM-JJ",
        "log": "journal",
        "Who closed seasons or annulled results, and why": "Qui a clos des saisons ou annulé "
        "des résultats, et pourquoi",
    }
)


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
