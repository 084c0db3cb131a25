"""The words The Castle's images print, in English and French, and its chart colours."""

from __future__ import annotations

from renderer import palette as pal
from renderer.options import RenderOptions

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "reconstructed": "Reconstructed castle and tiles",
        "subjects": "{n} subjects",
        "subjects_one": "1 subject",
        "palace_none": "Palace: no house yet",
        "palace": "Palace: house of {n}",
        "wall_none": "No wall tile",
        "wall_played": "Played: {tiles}",
        "path": "Paths",
        "tower": "Towers",
        "house": "Houses",
        "courtyard": "Courtyards",
        "palace_cat": "Palace",
        "wall": "Wall tiles",
        "lap": "lap {n}",
        "wall1": "Two turns in a row",
        "wall2": "A tower scores double",
        "wall3": "A house scores double",
        "wall4": "An unfinished path scores",
        "wall5": "An unfinished tower scores",
        "wall6": "An unfinished house scores",
        "wall7": "Markets score 4",
        "wall8": "Palace counts 2 more",
        "wall9": "5 points at the end",
    },
    "fr": {
        "reconstructed": "Château et tuiles reconstitués",
        "subjects": "{n} sujets",
        "subjects_one": "1 sujet",
        "palace_none": "Palais : pas encore de maison",
        "palace": "Palais : maison de {n}",
        "wall_none": "Aucune tuile Mur",
        "wall_played": "Jouées : {tiles}",
        "path": "Chemins",
        "tower": "Tours",
        "house": "Maisons",
        "courtyard": "Cours",
        "palace_cat": "Palais",
        "wall": "Tuiles Mur",
        "lap": "tour {n}",
        "wall1": "Deux tours de suite",
        "wall2": "Une tour compte double",
        "wall3": "Une maison compte double",
        "wall4": "Un chemin inachevé compte",
        "wall5": "Une tour inachevée compte",
        "wall6": "Une maison inachevée compte",
        "wall7": "Marchés à 4 points",
        "wall8": "Palais plus grand de 2",
        "wall9": "5 points à la fin",
    },
}

#: The end chart's categories (the engine's breakdown keys), in scoring order.
CATEGORIES = ("path", "tower", "house", "courtyard", "palace", "wall")
CATEGORY_COLOURS: dict[str, pal.RGB] = {
    "path": (200, 170, 120),
    "tower": (120, 120, 128),
    "house": pal.ROOF,
    "courtyard": (96, 156, 60),
    "palace": (150, 100, 170),
    "wall": (90, 66, 44),
}


def text(options: RenderOptions, key: str, **values: object) -> str:
    """A castle label in the options' language (English when missing)."""
    table = LABELS.get(options.lang, LABELS["en"])
    template = table.get(key) or LABELS["en"].get(key, key)
    return template.format(**values)


def category_names(options: RenderOptions) -> dict[str, str]:
    """Chart legend names of the castle's scoring categories."""
    return {c: text(options, "palace_cat" if c == "palace" else c) for c in CATEGORIES}
