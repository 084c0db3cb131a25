"""Player-facing strings of the game manager, in English and French, looked up by key.

Keep it small: one table, ``str.format`` placeholders, English as the fallback for a missing
locale or key. Discord locales like ``fr`` or ``en-GB`` are reduced to their language.

>>> t("not_your_turn", "fr", player="Alice")
"Ce n'est pas votre tour : c'est à Alice de jouer."
"""

from __future__ import annotations

from typing import Any

LOCALES = ("en", "fr")
DEFAULT_LOCALE = "en"

STRINGS: dict[str, dict[str, str]] = {
    "game_not_found": {
        "en": "There is no game #{game_id}. Check the number with the games command.",
        "fr": "Il n'y a pas de partie n°{game_id}. Vérifiez le numéro avec la commande games.",
    },
    "not_a_player": {
        "en": "You are not playing in game #{game_id}.",
        "fr": "Vous ne jouez pas dans la partie n°{game_id}.",
    },
    "not_your_turn": {
        "en": "It is not your turn: {player} is playing.",
        "fr": "Ce n'est pas votre tour : c'est à {player} de jouer.",
    },
    "stale_action": {
        "en": "That move was for an earlier step (turn {expected}); the game has moved on to "
        "turn {turn}. Use the latest prompt.",
        "fr": "Ce coup visait une étape passée (tour {expected}) ; la partie en est au tour "
        "{turn}. Utilisez le dernier message.",
    },
    "stale_step": {
        "en": "That step was already played (a double click?): the game goes on at turn {turn}. "
        "Use the latest message.",
        "fr": "Cette étape est déjà jouée (double clic ?) : la partie continue au tour {turn}. "
        "Utilisez le dernier message.",
    },
    "illegal_action": {
        "en": "Move refused: {reason}.",
        "fr": "Coup refusé : {reason}.",
    },
    "not_in_lobby": {
        "en": "Game #{game_id} has already started or ended: its lobby is closed.",
        "fr": "La partie n°{game_id} a déjà commencé ou est terminée : l'inscription est close.",
    },
    "not_active": {
        "en": "Game #{game_id} is not being played (it is {status}).",
        "fr": "La partie n°{game_id} n'est pas en cours (état : {status}).",
    },
    "game_over": {
        "en": "Game #{game_id} is over: no more moves can be made.",
        "fr": "La partie n°{game_id} est terminée : plus aucun coup n'est possible.",
    },
    "already_joined": {
        "en": "You have already joined game #{game_id}.",
        "fr": "Vous avez déjà rejoint la partie n°{game_id}.",
    },
    "lobby_full": {
        "en": "Game #{game_id} is full ({count} players).",
        "fr": "La partie n°{game_id} est complète ({count} joueurs).",
    },
    "not_owner": {
        "en": "Only the game's creator can do that.",
        "fr": "Seul le créateur de la partie peut faire cela.",
    },
    "owner_cannot_leave": {
        "en": "As the creator you cannot leave the lobby; press Cancel game to call it off.",
        "fr": "En tant que créateur, vous ne pouvez pas quitter : appuyez sur Annuler la partie "
        "pour l'arrêter.",
    },
    "bad_setup": {
        "en": "These settings are not valid: {reason}.",
        "fr": "Ces réglages ne sont pas valides : {reason}.",
    },
    "wrong_player_count": {
        "en": "This game is for {wanted} players, and the lobby has {count}. Wait until "
        "{wanted} have joined (or ask someone to leave), then press Start.",
        "fr": "Cette partie se joue à {wanted} joueurs, et l'inscription en compte "
        "{count}. Attendez qu'il y en ait {wanted} (ou demandez à quelqu'un de partir), puis "
        "appuyez sur Commencer.",
    },
    "bad_seat_order": {
        "en": "The seat order must list every player of the lobby exactly once.",
        "fr": "L'ordre des places doit citer chaque joueur inscrit une seule fois.",
    },
    "bad_colour": {
        "en": "Colour {colour!r} is not available: choose one of {choices}.",
        "fr": "La couleur {colour!r} n'est pas disponible : choisissez parmi {choices}.",
    },
    "colour_taken": {
        "en": "Colour {colour} is already taken in this game.",
        "fr": "La couleur {colour} est déjà prise dans cette partie.",
    },
    "undo_nothing": {
        "en": "There is nothing to take back yet.",
        "fr": "Il n'y a encore rien à annuler.",
    },
    "undo_stale": {
        "en": "This undo request is over: the game has moved on since. Ask again with "
        "/carcassonne undo if needed.",
        "fr": "Cette demande d'annulation est dépassée : la partie a avancé depuis. "
        "Redemandez avec /carcassonne annuler si besoin.",
    },
    "undo_game_over": {
        "en": "The game is over: moves can no longer be taken back.",
        "fr": "La partie est terminée : les coups ne peuvent plus être annulés.",
    },
    "bad_record": {
        "en": "This record cannot be imported: {reason}.",
        "fr": "Cet enregistrement ne peut pas être importé : {reason}.",
    },
    "bad_settings": {
        "en": "Invalid setting: {reason}.",
        "fr": "Réglage invalide : {reason}.",
    },
    "corrupt_game": {
        "en": "Game #{game_id} cannot be loaded ({reason}). Please report it to the bot's admins.",
        "fr": "La partie n°{game_id} ne peut pas être chargée ({reason}). Signalez-le aux "
        "administrateurs du bot.",
    },
    "db_too_new": {
        "en": "The database is at schema version {found}, newer than this bot knows ({known}). "
        "Upgrade the bot or use a backup made by this version.",
        "fr": "La base de données est en version {found}, plus récente que ce bot ({known}). "
        "Mettez le bot à jour ou utilisez une sauvegarde faite par cette version.",
    },
    "conflict": {
        "en": "Someone else changed game #{game_id} at the same moment; try again.",
        "fr": "Quelqu'un a modifié la partie n°{game_id} au même moment ; réessayez.",
    },
}


def language(locale: str | None) -> str:
    """Reduce a Discord locale (``fr``, ``en-US``...) to one of :data:`LOCALES`."""
    if not locale:
        return DEFAULT_LOCALE
    lang = locale.split("-")[0].lower()
    return lang if lang in LOCALES else DEFAULT_LOCALE


def t(key: str, locale: str | None = None, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (English if missing), with ``params`` filled in."""
    entry = STRINGS.get(key)
    if entry is None:
        return key
    text = entry.get(language(locale)) or entry[DEFAULT_LOCALE]
    return text.format(**params)


def hidden_chars(text: str) -> bool:
    """Whether ``text`` holds control, format (zero-width, text-direction) or private-use
    characters, which no name shown to players may hold."""
    import unicodedata

    return any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in text)


#: How long a player's name may be where it is shown (Discord's own display-name limit).
NAME_LIMIT = 32


def shown_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name or a free text (a reason) as the bot shows it: visible characters only, spaces
    collapsed, and no mention syntax (``<@id>``, ``<#id>``, ``<@&id>``) that could ping or link:
    its angle brackets become single guillemets (U+2039, U+203A). ``@everyone`` and ``@here``
    never ping (the client allows user mentions only)."""
    visible = "".join(c for c in name if not hidden_chars(c))
    cleaned = " ".join(visible.split()).replace("<", "\u2039").replace(">", "\u203a")
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1] + "…"
    return cleaned or "?"


def quote_input(text: str, limit: int = 20) -> str:
    """A short, harmless quote of what a user typed, for refusals: no control characters, no
    markdown, no mentions, at most ``limit`` characters."""
    short = "".join(c for c in text.strip() if c.isprintable())
    short = short if len(short) <= limit else short[: limit - 1] + "…"
    for mark in "\\*_~`|>":
        short = short.replace(mark, "\\" + mark)
    return short.replace("@", "@\u200b")
