"""Tournament pictures (issue 58): the Swiss standings and the knockout brackets, for 2, 8 and
64 players in every language, read at phone width (the capitals of every text 11 px tall once
the picture is shown 400 px wide, as :mod:`renderer.legible` records them), and their jobs."""

from __future__ import annotations

import io
import pickle
from fractions import Fraction

import pytest
from PIL import Image

import catalogs
from renderer import jobs
from renderer.encode import encode_png
from renderer.jobs import Job
from renderer.legible import MIN_TEXT, PHONE, Mark, recording
from renderer.options import RenderOptions
from renderer.tournament import (
    GOES_ON,
    ROWS,
    WIDTH,
    WIN_FILL,
    BracketPlayer,
    BracketView,
    MatchView,
    StandingRow,
    StandingsTable,
    bracket_image,
    bracket_page_count,
    bracket_pictures,
    clean_name,
    halves,
    round_name,
    standings_image,
    standings_page_count,
    standings_pictures,
)

LANGS = catalogs.LANGUAGES
LONG = "Maximilian-Alexander von Hohenzollern-Sigmaringen the Third"
ODD = ["名前テスト", "🦄🐉 Dragon", "R\u202eevil", "tab\tand\nnewline", "\x00\x01", "Zoë"]


def text(key: str, lang: str, **values: object) -> str:
    return catalogs.text("tournament_picture", key, lang, **values)


def name_of(k: int) -> str:
    return ODD[k % len(ODD)] if k % 7 == 3 else f"Player {k}"


def drawn(make: object) -> list[tuple[Image.Image, list[Mark]]]:
    """The pictures ``make()`` encodes, each with the marks of what it drew."""
    with recording() as rec:
        out = make()  # type: ignore[operator]
    pictures = out if isinstance(out, list) else [out]
    assert len(rec.sent) == len(pictures)
    for data, (image, _) in zip(pictures, rec.sent, strict=True):
        with Image.open(io.BytesIO(data)) as sent:
            assert sent.format == "PNG" and sent.size == image.size
    return rec.sent


def assert_phone(sent: list[tuple[Image.Image, list[Mark]]]) -> None:
    """Every text's capitals at least MIN_TEXT px tall at 400 px wide, inside the picture."""
    for image, marks in sent:
        assert image.width == WIDTH
        texts = [m for m in marks if m.kind == "text"]
        assert texts
        small = min(texts, key=lambda m: m.size)
        assert small.at_phone(image.width) >= MIN_TEXT, (small.what, small.size)
        assert small.size * PHONE / image.width >= MIN_TEXT
        for m in texts:
            x0, y0, x1, y1 = m.box
            assert x0 >= 0 and y0 >= 0 and x1 <= image.width and y1 <= image.height, m


def words(sent: list[tuple[Image.Image, list[Mark]]]) -> list[str]:
    return [m.what for _, marks in sent for m in marks if m.kind == "text"]


# -- standings ---------------------------------------------------------------------------------


def table_of(n: int, *, final: bool = False, tables: bool = True) -> StandingsTable:
    rows = []
    for k in range(n):
        points = Fraction(n - k, 2) if k % 4 else Fraction(n - k + 1, 2)
        rows.append(
            StandingRow(
                position=k + 1,
                name=name_of(k) if k != 2 else LONG,
                points=points,
                buchholz=Fraction(3 * n - k, 2),
                score=400 - k,
                style=k % 6 if k % 2 else None,
                dropped=k == n - 1 and n > 2,
            )
        )
    pairs = tuple(
        tuple(r.name for r in rows[i : i + 2]) for i in range(0, n - 1 if n % 2 else n, 2)
    )
    return StandingsTable(
        "Winter Cup",
        3,
        5,
        tuple(rows),
        final=final,
        tables=(*pairs, (rows[-1].name,)) if tables and n % 2 else (pairs if tables else ()),
    )


def test_points_read_in_halves() -> None:
    assert [halves(Fraction(v, 2)) for v in (0, 1, 2, 5, 13)] == ["0", "½", "1", "2½", "6½"]
    assert halves(3) == "3"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [2, 8, 64])
def test_standings_read_on_a_phone(n: int, lang: str) -> None:
    table = table_of(n)
    sent = drawn(lambda: standings_pictures(table, lang))
    assert_phone(sent)
    shown = words(sent)
    assert text("round_of", lang, round=3, rounds=5) in shown
    assert {text("points", lang), text("buchholz", lang), text("score", lang)} <= set(shown)
    assert halves(table.rows[1].points) in shown and "400" in shown
    rows = [s for s in shown if s.isdigit() and 1 <= int(s) <= n]
    assert {str(k) for k in range(1, n + 1)} <= set(rows)
    if n > 2:
        assert text("dropped", lang) in shown
    assert any(s.startswith(text("table", lang, n=1) + ":") for s in shown)


def test_64_players_make_pages_of_even_length_then_the_tables() -> None:
    table = table_of(64)
    pages = standings_page_count(table, "en")
    assert pages == 6  # 4 pages of 16 players, then the 32 tables on 2 pages
    scores = {str(r.score) for r in table.rows}
    counts = []
    for p in range(pages):
        ((_image, marks),) = drawn(
            lambda p=p: encode_png(standings_image(table, "en", p), full_colour=True)
        )
        counts.append(sum(1 for m in marks if m.kind == "text" and m.what in scores))
    assert counts[:4] == [16, 16, 16, 16] and counts[4:] == [0, 0]
    assert max(counts) <= ROWS
    assert len(standings_pictures(table_of(8), "en")) == 1


def test_shared_positions_are_repeated_and_final_standings_titled() -> None:
    rows = tuple(
        StandingRow(pos, f"P{i}", Fraction(pts, 2), Fraction(4), 100)
        for i, (pos, pts) in enumerate([(1, 5), (2, 3), (2, 3), (4, 1)])
    )
    table = StandingsTable("Cup", 5, 5, rows, final=True)
    sent = drawn(lambda: standings_pictures(table, "de"))
    shown = words(sent)
    assert shown.count("2") >= 2 and "4" in shown and "3" not in shown
    assert "2½" in shown and "1½" in shown and "½" in shown
    assert text("final_standings", "de") in shown


def test_long_and_odd_names_are_cut_to_their_room_without_error() -> None:
    table = table_of(8)
    sent = drawn(lambda: standings_pictures(table, "fr"))
    _image, marks = sent[0]
    points_head = next(m for m in marks if m.what == text("points", "fr"))
    cut = [m for m in marks if m.kind == "text" and m.what.endswith("…")]
    assert cut, "the long name is cut"
    for m in cut:
        if m.what.startswith("Maximilian") and m.box[1] < points_head.box[1] + 900:
            assert m.box[2] < points_head.box[0] + 40
    assert not any("\x00" in m.what or "\u202e" in m.what or "\n" in m.what for m in marks)
    assert clean_name("\x00\u202e") == "?" and clean_name("tab\tand\nnewline") == "tab and newline"
    assert clean_name("R\u202eevil") == "Revil" and len(clean_name("x" * 500)) <= 64


# -- brackets ----------------------------------------------------------------------------------


def draw_order(slots: int) -> list[int]:
    order = [1]
    while len(order) < slots:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket_of(n: int, *, played: int, best_of: int = 3) -> BracketView:
    """A 2-player bracket of ``n`` players with its first ``played`` rounds decided (the
    lower seed wins 2-1, but seed 3 beats 2), as the bot's rules would pair it."""
    slots = 1
    while slots < n:
        slots *= 2
    total = max(1, slots.bit_length() - 1)
    players = {s: BracketPlayer(s, name_of(s) if s != 5 else LONG) for s in range(1, n + 1)}
    line: list[BracketPlayer | None] = [players.get(s) for s in draw_order(slots)]
    rounds: list[tuple[MatchView, ...]] = []
    champion = None
    for r in range(total):
        if r > played:
            break
        matches: list[MatchView] = []
        nxt: list[BracketPlayer | None] = []
        for t in range(len(line) // 2):
            a, b = line[2 * t], line[2 * t + 1]
            if a is None or b is None:
                alone = a or b
                assert alone is not None
                matches.append(MatchView(t + 1, (alone,), bye=True))
                nxt.append(alone)
                continue
            if r == played:
                matches.append(MatchView(t + 1, (a, b), (1, 0) if t == 0 else (0, 0)))
                nxt.append(None)
                continue
            win = b if (a.seed, b.seed) == (2, 3) else a
            wins = (2, 1) if win is a else (1, 2)
            matches.append(MatchView(t + 1, (a, b), wins, advancing=(win.seed,)))
            nxt.append(win)
        rounds.append(tuple(matches))
        line = nxt
        if len(line) == 1 and line[0] is not None:
            champion = line[0]
    return BracketView("Spring Knockout", 2, total, tuple(rounds), best_of, champion=champion)


def test_round_names_count_from_the_final() -> None:
    view = bracket_of(64, played=0)
    names = [round_name(view, r, "en") for r in range(6)]
    assert names == ["Round 1", "Round 2", "Round 3", "Quarter-finals", "Semi-finals", "Final"]
    assert round_name(view, 4, "fr") == text("semi_finals", "fr")
    assert round_name(view, 3, "de") == text("quarter_finals", "de")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("n", "pages"), [(2, 1), (8, 2), (64, 6)])
def test_brackets_read_on_a_phone(n: int, pages: int, lang: str) -> None:
    view = bracket_of(n, played=0)
    assert bracket_page_count(view) == pages
    sent = drawn(lambda: bracket_pictures(view, lang))
    assert len(sent) == pages
    assert_phone(sent)
    shown = words(sent)
    assert round_name(view, 0, lang) in shown and text("final", lang) in shown
    # Every player of the first round by seed, and the first match's series score.
    assert {str(s) for s in range(1, n + 1)} <= set(shown)
    if n > 2:
        assert text("best_of", lang, n=3) in shown


def test_a_finished_bracket_shows_its_last_rounds_and_champion() -> None:
    view = bracket_of(8, played=3)
    assert view.champion is not None and view.champion.seed == 1
    sent = drawn(lambda: bracket_pictures(view, "en"))
    assert len(sent) == 1
    assert_phone(sent)
    shown = words(sent)
    assert text("champion", "en", name=view.champion.name) in shown
    assert {"Semi-finals", "Final"} <= set(shown) and "Quarter-finals" not in shown
    assert catalogs.plural("tournament_picture", "matches_played", 4, "en",
                           round="Quarter-finals") in shown  # fmt: skip
    # The series scores, and each winner on a highlighted row.
    image, marks = sent[0]
    assert shown.count("2") >= 3 and "1" in shown
    rgb = image.convert("RGB")
    # Seed 3 beat seed 2 in its semi-final.
    winner = next(m for m in marks if m.what.startswith(clean_name(name_of(3))[:7]))
    x0, y0, _x1, y1 = (round(v) for v in winner.box)
    assert rgb.getpixel((x0 - 30, (y0 + y1) // 2)) == WIN_FILL


def test_byes_are_shown_in_the_first_round() -> None:
    view = bracket_of(6, played=0)
    byes = [m for m in view.rounds[0] if m.bye]
    assert [m.players[0].seed for m in byes] == [1, 2]
    sent = drawn(lambda: bracket_pictures(view, "fr"))
    shown = words(sent)
    assert shown.count(text("bye", "fr")) == 2
    # The seeds with a bye already stand in the next round's boxes.
    assert shown.count("1") >= 2 and shown.count("2") >= 2


def test_a_64_player_bracket_after_round_one_starts_at_round_two() -> None:
    view = bracket_of(64, played=1)
    assert bracket_page_count(view) == 4  # rounds 2-3 (2 pages), 4-5, then the final
    sent = drawn(lambda: bracket_pictures(view, "de"))
    assert_phone(sent)
    first = [m.what for m in sent[0][1] if m.kind == "text"]
    assert catalogs.plural("tournament_picture", "matches_played", 32, "de",
                           round=round_name(view, 0, "de")) in first  # fmt: skip
    assert round_name(view, 0, "de") not in first[3:]


def tables_view(finished: bool) -> BracketView:
    p = {s: BracketPlayer(s, name_of(s) if s != 4 else LONG) for s in range(1, 13)}
    first = (
        MatchView(1, (p[1], p[6], p[7], p[12]), scores=(90, 80, 70, 60), advancing=(1, 6)),
        MatchView(2, (p[2], p[5], p[8], p[11]), scores=(90, 95, 70, 60), advancing=(5, 2)),
        MatchView(3, (p[3], p[4], p[9], p[10]), scores=(90, 80, 99, 60), advancing=(9, 3)),
    )
    second = (MatchView(1, (p[1], p[3], p[5])), MatchView(2, (p[2], p[6], p[9])))
    if not finished:
        return BracketView("Tables", 4, 3, (first, second), advance=2)
    second = (
        MatchView(1, (p[1], p[3], p[5]), scores=(70, 80, 60), advancing=(3, 1)),
        MatchView(2, (p[2], p[6], p[9]), scores=(70, 80, 60), advancing=(6, 2)),
    )
    final = MatchView(1, (p[1], p[2], p[3], p[6]), scores=(50, 90, 70, 60),
                      advancing=(2, 3, 6, 1))  # fmt: skip
    return BracketView("Tables", 4, 3, (first, second, (final,)), advance=2, champion=p[2])


@pytest.mark.parametrize("lang", LANGS)
def test_tables_of_three_to_five_list_who_goes_on(lang: str) -> None:
    view = tables_view(finished=False)
    sent = drawn(lambda: bracket_pictures(view, lang))
    assert_phone(sent)
    shown = words(sent)
    # The current round in full, the first summed up.
    assert text("round", lang, n=2) in shown and text("table", lang, n=2) in shown
    assert catalogs.plural("tournament_picture", "tables_played", 3, lang,
                           round=text("round", lang, n=1)) in shown  # fmt: skip
    assert text("advance", lang, n=2) in shown


def test_a_finished_table_knockout_places_its_final_and_crowns_the_winner() -> None:
    view = tables_view(finished=True)
    sent = drawn(lambda: bracket_pictures(view, "en"))
    assert_phone(sent)
    image, marks = sent[-1]
    shown = [m.what for m in marks if m.kind == "text"]
    assert text("champion", "en", name="Player 2") in shown
    names = [clean_name(name_of(s)) for s in (2, 3, 6, 1)]
    rows = [m for m in marks if m.what in names]
    order = [m.what for m in sorted(rows, key=lambda m: m.box[1])]
    assert order[-4:] == names  # the final table in its places, after the second round
    colours = {c for _, c in image.convert("RGB").getcolors(1 << 20) or []}
    # The winner emphasised; no arrow: nobody goes on from the final.
    assert WIN_FILL in colours and GOES_ON not in colours


def test_the_round_being_played_shows_who_went_on_with_arrows() -> None:
    done_first = BracketView("T", 5, 2, (tables_view(False).rounds[0],), advance=2)
    # The first round decided and the next not paired yet: the first round stays in view.
    sent = drawn(lambda: bracket_pictures(done_first, "en"))
    image, _ = sent[0]
    colours = {c for _, c in image.convert("RGB").getcolors(1 << 20) or []}
    assert GOES_ON in colours


# -- jobs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_jobs_draw_each_page_as_the_functions_do(lang: str) -> None:
    table, view = table_of(64), bracket_of(8, played=1)
    pages = standings_pictures(table, lang)
    brackets = bracket_pictures(view, lang)
    options = RenderOptions(lang=lang)
    for p in (0, len(pages) - 1):
        job = Job("standings", {}, options, extra={"table": table, "page": p})
        again = pickle.loads(pickle.dumps(job))  # as it crosses to a render worker
        assert jobs.run(again) == (pages[p], ())
        assert jobs.draw(None, job) == (pages[p], ())
    for p in range(len(brackets)):
        job = Job("bracket", {}, options, extra={"bracket": view, "page": p})
        assert jobs.run(pickle.loads(pickle.dumps(job))) == (brackets[p], ())
    assert {"standings", "bracket"} <= set(jobs.PLAIN)


def test_one_page_pictures_are_the_same_bytes_each_time() -> None:
    table = table_of(8)
    assert standings_pictures(table, "en") == standings_pictures(table, "en")
    image = standings_image(table, "en")
    assert image.width == WIDTH
    view = bracket_of(2, played=0)
    assert bracket_image(view, "en").width == WIDTH
