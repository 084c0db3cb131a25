"""What happened, in words: engine events and engine refusals as short player-facing text.

English and French. The engine speaks in events (facts) and error codes; this module is the only
place that turns them into sentences, so the bot's messages read the same everywhere.

>>> from engine import FeatureScored
>>> describe_score(FeatureScored("city", {0: 8}, final=False, tiles=3, pennants=1), ["Bob"], "en")
'Bob scored 8 for the city (3 tiles, 1 pennant).'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import (
    Event,
    FeatureScored,
    FigurePlaced,
    GameEnded,
    GameError,
    PalacePlaced,
    TileDiscarded,
    TilePlaced,
    WallTileTaken,
    WallTileUsed,
)
from engine.events import BonusTileDrawn, PlayerLeft, TurnSkipped, WagonMoved

FEATURES = {
    "road": ("the road", "la route"),
    "city": ("the city", "la ville"),
    "cloister": ("the cloister", "le monastère"),
    "field": ("the farmers' field", "le pré des paysans"),
    "barn": ("the barn", "la grange"),
    "river": ("the river", "la rivière"),
    "forest": ("the forest", "la forêt"),
    "meadow": ("the hunting ground", "le terrain de chasse"),
    "hut": ("the river system's huts", "les huttes du réseau de rivières"),
    "path": ("the path", "le chemin"),
    "tower": ("the tower", "la tour"),
    "house": ("the house", "la maison"),
    "courtyard": ("the courtyard", "la cour"),
    "palace": ("the palace", "le palais"),
    "wall": ("the wall tiles", "les tuiles Mur"),
}
ROLES = {
    "thief": ("a thief", "un voleur"),
    "knight": ("a knight", "un chevalier"),
    "monk": ("a monk", "un moine"),
    "farmer": ("a farmer", "un paysan"),
    "mayor": ("the mayor", "le maire"),
    "wagon": ("the wagon", "le chariot"),
    "barn": ("the barn", "la grange"),
    "hunter": ("a hunter", "un chasseur"),
    "gatherer": ("a gatherer", "un cueilleur"),
    "fisher": ("a fisher", "un pêcheur"),
    "hut": ("a hut", "une hutte"),
    "messenger": ("a messenger", "un messager"),
    "burgher": ("a burgher", "un bourgeois"),
    "merchant": ("a merchant", "un marchand"),
}

TEXTS: dict[str, tuple[str, str]] = {
    "placed": (
        "{player} placed tile {tile} at {where}",
        "{player} a posé la tuile {tile} en {where}",
    ),
    "placed_bonus": (
        "{player} placed bonus tile {tile} at {where}",
        "{player} a posé la tuile bonus {tile} en {where}",
    ),
    "placed_abbey": (
        "{player} placed their abbey at {where}",
        "{player} a posé son abbaye en {where}",
    ),
    "with_figure": (" and put {role} on it", " et y a mis {role}"),
    "barn_figure": (
        " and built {role} on its {corner} corner",
        " et a bâti {role} au coin {corner}",
    ),
    "end": (".", "."),
    "discarded": (
        "Tile {tile} fitted nowhere and was removed from the game.",
        "La tuile {tile} ne se posait nulle part : elle est retirée du jeu.",
    ),
    "skipped": (
        "{player} ran out of time: the turn is skipped and tile {tile} goes under the stack.",
        "{player} a dépassé le temps : son tour passe et la tuile {tile} retourne sous la pile.",
    ),
    "left": (
        "{player} left the game: their figures stay but count for nothing.",
        "{player} a quitté la partie : ses pions restent mais ne comptent plus.",
    ),
    "bonus": (
        "Gold! {player} draws bonus tile {tile} and plays it now.",
        "De l'or ! {player} pioche la tuile bonus {tile} et la joue tout de suite.",
    ),
    "wagon_moved": (
        "{player} moved the wagon on to {where}.",
        "{player} a déplacé son chariot en {where}.",
    ),
    "scored_one": (
        "{players} scored {points} for {feature}",
        "{players} marque {points} pour {feature}",
    ),
    "scored_each": (
        "{players} scored {points} each for {feature}",
        "{players} marquent {points} chacun pour {feature}",
    ),
    "final": (" at the end", " en fin de partie"),
    "nobody": ("Nobody scored {feature}.", "Personne ne marque {feature}."),
    "winner": (
        "Game over! {players} wins with {score} points.",
        "Fin ! {players} gagne avec {score} points.",
    ),
    "winners": (
        "Game over! {players} share the win with {score} points.",
        "Fin ! {players} gagnent ex æquo avec {score} points.",
    ),
    "and": (" and ", " et "),
    # The Castle
    "wall_tile": ("wall tile {n}", "la tuile Mur {n}"),
    "wall_taken": (
        "{player} stops on tower {space} and takes wall tile {wall}: {meaning}.",
        "{player} s'arrête sur la tour {space} et prend la tuile Mur {wall} : {meaning}.",
    ),
    "wall_meaning_1": ("two turns in a row", "deux tours de suite"),
    "wall_meaning_2": ("a tower of theirs scores double", "une de ses tours compte double"),
    "wall_meaning_3": ("a house of theirs scores double", "une de ses maisons compte double"),
    "wall_meaning_4": ("an unfinished path scores at the end", "un chemin inachevé compte"),
    "wall_meaning_5": ("an unfinished tower scores at the end", "une tour inachevée compte"),
    "wall_meaning_6": ("an unfinished house scores at the end", "une maison inachevée compte"),
    "wall_meaning_7": (
        "each market of their largest courtyard scores 4",
        "chaque marché de sa plus grande cour vaut 4",
    ),
    "wall_meaning_8": ("their palace counts 2 tiles more", "son palais compte 2 tuiles de plus"),
    "wall_meaning_9": ("5 points at the end", "5 points à la fin"),
    "wall_used_1": (
        "{player} plays wall tile 1: they play again right after this turn.",
        "{player} joue la tuile Mur 1 : il rejoue juste après ce tour.",
    ),
    "wall_used_2": (
        "{player} plays wall tile 2: the tower at {where} will score double for them.",
        "{player} joue la tuile Mur 2 : la tour en {where} lui rapportera double.",
    ),
    "wall_used_3": (
        "{player} plays wall tile 3: the house at {where} will score double for them.",
        "{player} joue la tuile Mur 3 : la maison en {where} lui rapportera double.",
    ),
    "palace_placed": (
        "{player}'s palace rises on the house at {where} ({tiles} tile{ts}).",
        "{player} élève son palais sur la maison en {where} ({tiles} tuile{ts}).",
    ),
    "palace_moved": (
        "{player}'s palace moves to the larger house at {where} ({tiles} tile{ts}).",
        "{player} déplace son palais vers la maison plus grande en {where} ({tiles} tuile{ts}).",
    ),
    "with_well": ("with a well", "avec un puits"),
    "doubled": ("doubled by wall tile {n}", "doublé par la tuile Mur {n}"),
    "markets": ("{n} market{s}", "{n} marché{s}"),
    "empty_area": (
        "largest empty area: {n} square{s}",
        "plus grande zone vide : {n} case{s}",
    ),
    "tiles_pennants": (
        "{tiles} tile{ts}, {pennants} pennant{s}",
        "{tiles} tuile{ts}, {pennants} blason{s}",
    ),
    "tiles": ("{tiles} tile{ts}", "{tiles} tuile{ts}"),
    "cities": ("{cities} completed cit{ies}", "{cities} ville{s} complète{s}"),
    # Hunters & Gatherers: what a score was made of.
    "fish": ("{n} fish", "{n} poisson{s}"),
    "system_fish": ("{n} fish in the river system", "{n} poisson{s} dans le réseau"),
    "mushrooms": ("{n} mushroom clearing{s}", "{n} clairière{s} à champignons"),
    "gold": ("gold", "de l'or"),
    "deer": ("{n} deer", "{n} cerf{s}"),
    "mammoth": ("{n} mammoth{s}", "{n} mammouth{s}"),
    "aurochs": ("{n} aurochs", "{n} auroch{s}"),
    "tiger_ate": (
        "{n} sabre-tooth tiger{s} ate {n} deer",
        "{n} tigre{s} à dents de sabre {ont} mangé {n} cerf{s}",
    ),
    "fire": ("the fire chased the tigers away", "le feu a chassé les tigres"),
    "shrine": ("with the shrine", "avec le sanctuaire"),
}


def _lang(locale: str | None) -> int:
    return 1 if (locale or "").lower().startswith("fr") else 0


def text(key: str, locale: str | None, **params: Any) -> str:
    return TEXTS[key][_lang(locale)].format(**params)


def where(x: int, y: int) -> str:
    """A square as the board image labels it: column x, row y."""
    return f"({x}, {y})"


def join_names(names: Sequence[str], locale: str | None) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + text("and", locale) + names[-1]


def describe_score(event: FeatureScored, names: Sequence[str], locale: str | None) -> str:
    """One scoring, e.g. "Alice and Bob scored 10 each for the city (4 tiles, 1 pennant)."."""
    lang = _lang(locale)
    feature = FEATURES.get(event.feature, (event.feature, event.feature))[lang]
    if event.feature == "wall" and event.details.get("wall"):
        feature = text("wall_tile", locale, n=event.details["wall"])
    winners = [names[p] for p in sorted(event.points)]
    if not winners:
        return text("nobody", locale, feature=feature)
    points = next(iter(event.points.values()))
    key = "scored_each" if len(winners) > 1 else "scored_one"
    sentence = text(
        key, locale, players=join_names(winners, locale), points=points, feature=feature
    )
    detail = _detail(event, locale)
    if event.final:
        sentence += text("final", locale)
    return sentence + (f" ({detail})" if detail else "") + "."


def _detail(event: FeatureScored, locale: str | None) -> str:
    if event.feature in CASTLE_FEATURES:
        return _castle_detail(event, locale)
    if event.feature == "city" and event.tiles:
        plural = "" if event.pennants <= 1 and _lang(locale) else "" if event.pennants == 1 else "s"
        ts = "" if event.tiles == 1 else "s"
        return text(
            "tiles_pennants", locale, tiles=event.tiles, pennants=event.pennants, s=plural, ts=ts
        )
    if event.feature == "road" and event.tiles:
        return text("tiles", locale, tiles=event.tiles, ts="" if event.tiles == 1 else "s")
    if event.feature in HUNTERS_FEATURES:
        return _hunters_detail(event, locale)
    cities = event.details.get("cities")
    if cities:
        fr = _lang(locale) == 1
        return text(
            "cities",
            locale,
            cities=cities,
            ies=("y" if cities == 1 else "ies"),
            s="" if cities == 1 or not fr else "s",
        )
    return ""


HUNTERS_FEATURES = frozenset({"river", "forest", "hut", "meadow"})


def _count(key: str, n: int, locale: str | None) -> str:
    return text(key, locale, n=n, s="" if n == 1 else "s", ont="a" if n == 1 else "ont")


def _hunters_detail(event: FeatureScored, locale: str | None) -> str:
    """What a Hunters & Gatherers score was made of: tiles, fish, mushrooms, game."""
    d = event.details
    parts: list[str] = []
    if event.feature in ("river", "forest") and event.tiles:
        parts.append(text("tiles", locale, tiles=event.tiles, ts="" if event.tiles == 1 else "s"))
    if event.feature == "river" and d.get("fish"):
        parts.append(_count("fish", int(d["fish"]), locale))
    if event.feature == "forest":
        if d.get("mushrooms"):
            parts.append(_count("mushrooms", int(d["mushrooms"]), locale))
        if d.get("nuggets"):
            parts.append(text("gold", locale))
    if event.feature == "hut":
        parts.append(_count("system_fish", int(d.get("fish", 0)), locale))
    if event.feature == "meadow":
        tigers = int(d.get("tiger", 0))
        deer = int(d.get("deer", 0))
        for animal in ("deer", "mammoth", "aurochs"):
            if d.get(animal):
                parts.append(_count(animal, int(d[animal]), locale))
        if d.get("fire") and tigers:
            parts.append(text("fire", locale))
        elif tigers and deer:
            parts.append(_count("tiger_ate", min(tigers, deer), locale))
        if d.get("shrine"):
            parts.append(text("shrine", locale))
    return ", ".join(parts)


def _bonus_kinds() -> frozenset[str]:
    from engine.tiles import load_set

    return frozenset(k.name for k in load_set("hunters") if k.extra.get("bonus"))


BONUS_TILES = _bonus_kinds()


def narrate(events: Sequence[Event], names: Sequence[str], locale: str | None) -> list[str]:
    """Sentences for a turn's events, in order; figure returns and turn starts stay silent."""
    lines: list[str] = []
    current: str | None = None
    for event in events:
        if isinstance(event, TilePlaced):
            if current:
                lines.append(current + text("end", locale))
            key = "placed_abbey" if event.kind == "ABBEY" else "placed"
            if event.kind in BONUS_TILES:
                key = "placed_bonus"
            current = text(
                key,
                locale,
                player=names[event.player],
                tile=event.kind,
                where=where(event.x, event.y),
            )
        elif isinstance(event, FigurePlaced) and current is not None:
            role = ROLES.get(event.role, (event.role, event.role))[_lang(locale)]
            if event.figure == "barn":
                current += text("barn_figure", locale, role=role, corner=event.at)
            else:
                current += text("with_figure", locale, role=role)
        else:
            if current:
                lines.append(current + text("end", locale))
                current = None
            line = _other(event, names, locale)
            if line:
                lines.append(line)
    if current:
        lines.append(current + text("end", locale))
    return lines


def _other(event: Event, names: Sequence[str], locale: str | None) -> str:
    castle = _castle_event(event, names, locale)
    if castle is not None:
        return castle
    if isinstance(event, FeatureScored):
        return describe_score(event, names, locale) if event.points else ""
    if isinstance(event, TileDiscarded):
        return text("discarded", locale, tile=event.kind)
    if isinstance(event, TurnSkipped):
        return text("skipped", locale, player=names[event.player], tile=event.kind or "-")
    if isinstance(event, PlayerLeft):
        return text("left", locale, player=names[event.player])
    if isinstance(event, BonusTileDrawn):
        return text("bonus", locale, player=names[event.player], tile=event.kind)
    if isinstance(event, WagonMoved):
        return text(
            "wagon_moved", locale, player=names[event.player], where=where(event.x, event.y)
        )
    if isinstance(event, GameEnded):
        winners = [names[p] for p in event.winners]
        key = "winners" if len(winners) > 1 else "winner"
        score = max(event.scores) if event.scores else 0
        return text(key, locale, players=join_names(winners, locale), score=score)
    return ""


CASTLE_FEATURES = frozenset({"path", "tower", "house", "courtyard", "palace", "wall"})


def _castle_detail(event: FeatureScored, locale: str | None) -> str:
    """What a score of The Castle was made of: tiles, a well, markets, a doubling wall tile."""
    d = event.details
    parts: list[str] = []

    def plural(n: int) -> str:
        return "" if n == 1 else "s"

    if event.feature in ("path", "tower", "house") and event.tiles:
        parts.append(text("tiles", locale, tiles=event.tiles, ts=plural(event.tiles)))
        if d.get("wells"):
            parts.append(text("with_well", locale))
        if d.get("wall"):
            parts.append(text("doubled", locale, n=d["wall"]))
    markets = d.get("markets")
    if event.feature in ("courtyard", "wall") and markets:
        parts.append(text("markets", locale, n=markets, s=plural(int(markets))))
    if event.feature == "wall" and d.get("feature") in ("path", "tower", "house"):
        name = FEATURES[str(d["feature"])][_lang(locale)]
        parts.append(f"{name}, " + text("tiles", locale, tiles=event.tiles, ts=plural(event.tiles)))
    if event.feature == "palace":
        parts.append(text("empty_area", locale, n=event.tiles, s=plural(event.tiles)))
    return ", ".join(parts)


def _castle_event(event: Event, names: Sequence[str], locale: str | None) -> str | None:
    """The Castle's own events: wall tiles taken and played, the palace built or moved."""
    if isinstance(event, WallTileTaken):
        meaning = text(f"wall_meaning_{event.wall}", locale)
        return text(
            "wall_taken",
            locale,
            player=names[event.player],
            space=event.space,
            wall=event.wall,
            meaning=meaning,
        )
    if isinstance(event, WallTileUsed):
        spot = where(*event.where) if event.where else ""
        return text(f"wall_used_{event.wall}", locale, player=names[event.player], where=spot)
    if isinstance(event, PalacePlaced):
        return text(
            "palace_moved" if event.moved else "palace_placed",
            locale,
            player=names[event.player],
            where=where(event.x, event.y),
            tiles=event.tiles,
            ts="" if event.tiles == 1 else "s",
        )
    return None


ENGINE_ERRORS_FR: dict[str, str] = {
    "game_over": "la partie est finie : plus aucun coup n'est possible",
    "no_abbey_mayor": "cette partie se joue sans l'extension Abbaye & Maire",
    "square_taken": "la case ({x}, {y}) porte déjà une tuile",
    "not_adjacent": "la case ({x}, {y}) ne touche aucune tuile posée par un côté",
    "does_not_fit": (
        "la tuile {tile} tournée de {rotation}° ne s'accorde pas en ({x}, {y}) : "
        "son côté {side} ne correspond pas à la tuile voisine"
    ),
    "choose_hand_tile": "dites quelle tuile de votre main vous jouez : {hand}",
    "not_in_hand": "la tuile {tile} n'est pas dans votre main ; vous avez {hand}",
    "wrong_tile": "la tuile à poser est {tile}",
    "figure_elsewhere": "un pion se pose sur la tuile que vous venez de poser, en ({x}, {y})",
    "no_such_figure": "il n'y a pas de {figure} dans cette partie",
    "no_figure_left": "vous n'avez plus de {figure} en réserve",
    "no_feature_there": "rien à cet endroit de la tuile",
    "figure_refused": (
        "ce pion ne peut pas aller là : l'élément est déjà occupé (peut-être plus loin) "
        "ou ne convient pas à ce pion ; choisissez un autre endroit ou passez"
    ),
    "barn_corner": "une grange se pose sur un coin de tuile : NO, NE, SE ou SO",
    "barn_refused": (
        "pas de grange au coin {corner} : il faut quatre tuiles qui s'y rejoignent, "
        "uniquement du pré à ce coin sur chacune, et aucune grange dans ce pré"
    ),
    "abbey_used": "vous avez déjà joué votre abbaye",
    "not_a_hole": (
        "une abbaye se pose seulement dans un trou entouré de tuiles sur les quatre côtés ; "
        "({x}, {y}) n'en est pas un"
    ),
    "wagon_refused": (
        "le chariot ne peut aller que sur une route, une ville ou une abbaye inachevée, libre, "
        "qui touche l'élément décompté ; choisissez-en une ou reprenez-le (passer)"
    ),
    "bad_rotation": "une tuile tourne de 0, 90, 180 ou 270 degrés, pas de {rotation}",
    "skip_too_late": "on ne peut passer un tour qu'avant de poser sa tuile",
    "no_such_seat": "il n'y a pas de place {seat} dans cette partie",
    "already_left": "la place {seat} a déjà quitté la partie",
    "phase_tile": "posez d'abord votre tuile",
    "phase_figure": "posez un pion sur la tuile que vous venez de poser, ou passez",
    "phase_wagon": "déplacez le chariot ou passez pour le reprendre",
    "phase_abbey_end": "posez votre abbaye dans un trou, ou passez",
    "phase_over": "la partie est finie",
    # The Castle
    "outside_castle": "({x}, {y}) n'est pas une case à l'intérieur des murs du château",
    "wrong_player_count": "Le Château se joue à exactement 2 joueurs, pas {players}",
    "palace_by_hand": (
        "personne ne pose le palais à la main : il va de lui-même à la première maison que "
        "vous achevez en y étant majoritaire, puis à une plus grande"
    ),
    "no_figure_now": "aucun sujet ne peut être posé maintenant : jouez une tuile Mur ou passez",
    "no_wall_tiles": "les tuiles Mur appartiennent au Château, pas à ce jeu",
    "wall_tile_at_end": (
        "la tuile Mur {wall} ne se joue pas à la main : elle compte d'elle-même au décompte final"
    ),
    "no_such_wall_tile": "vous n'avez pas de tuile Mur {wall}",
    "wall_tile_too_soon": (
        "vous avez pris la tuile Mur {wall} pendant ce tour : vous pourrez la jouer dès votre "
        "prochain tour"
    ),
    "wall_tile_no_target": "la tuile Mur 1 (deux tours de suite) ne vise aucun décor",
    "wall_tile_needs_target": (
        "la tuile Mur {wall} fait compter double une tour (2) ou une maison (3) : dites laquelle"
    ),
    "wall_tile_wrong_target": (
        "rien à cet endroit pour la tuile Mur {wall} : la 2 vise une tour, la 3 une maison"
    ),
    "wall_tile_scored": "ce décor a déjà été décompté",
    "wall_tile_no_majority": (
        "la tuile Mur {wall} demande d'être majoritaire dans ce décor : vous y avez moins de "
        "sujets que votre adversaire, ou autant"
    ),
    "wall_tile_twice": "ce décor compte déjà double pour vous",
}


def engine_error(error: GameError, locale: str | None) -> str:
    """An engine refusal in the player's language (English is the engine's own text)."""
    if _lang(locale) == 1:
        template = ENGINE_ERRORS_FR.get(error.code)
        if template is not None:
            try:
                return template.format(**error.params)
            except (KeyError, IndexError):
                pass
    return str(error)
