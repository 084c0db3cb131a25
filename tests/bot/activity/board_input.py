"""Taps on the live board's page in Chromium (selenium), for its browser tests: where a square
is on the screen, a tap there."""

from __future__ import annotations

from typing import Any

#: A point of square (x, y) where a tap reaches the board (no mark or button over it), or null.
FREE_POINT = """
const [x, y] = arguments;
const r = document.getElementById("viewport").getBoundingClientRect();
const t = window.activityState.transform;
for (const v of [0.5, 0.3, 0.7, 0.15, 0.85]) for (const u of [0.5, 0.3, 0.7, 0.15, 0.85]) {
  const px = r.left + t.x + (x + u) * 64 * t.s;
  const py = r.top + t.y + (y + v) * 64 * t.s;
  const hit = document.elementFromPoint(px, py);
  if (hit && hit.closest("#viewport")) return [px, py];
}
return null;
"""


def tap(driver: Any, point: tuple[float, float], touch: bool = False) -> None:
    """A tap (a touch on a phone, else a mouse click) at ``point`` (page pixels)."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.interaction import POINTER_MOUSE, POINTER_TOUCH

    builder = ActionBuilder(driver)
    # A source's name keeps its kind for the whole session.
    kind, name = (POINTER_TOUCH, "finger") if touch else (POINTER_MOUSE, "mouse")
    finger: Any = builder.add_pointer_input(kind, name)
    finger.create_pointer_move(x=int(point[0]), y=int(point[1]))
    finger.create_pointer_down(button=0)
    finger.create_pointer_up(0)
    builder.perform()


def free_square(driver: Any, squares: list[dict[str, Any]], rotations: int = 1) -> Any:
    """A square of ``squares`` with at least ``rotations`` rotations that a tap reaches."""
    for square in squares:
        if len(square["rotations"]) >= rotations:
            point = driver.execute_script(FREE_POINT, square["x"], square["y"])
            if point is not None:
                return square, point
    raise AssertionError(f"no square of {rotations} rotations on screen: {squares}")
