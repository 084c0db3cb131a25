"""The browser replay viewer: one HTML page that plays a game back, turn by turn.

The page draws with our own tile art and figures (embedded as pictures) and decodes a game from a
compact code (:mod:`renderer.viewer.codec`), carried in the page itself (``/carcassonne replay``
attaches a standalone file) or in its URL fragment (the page hosted as a static file, the code
short enough for a Discord link button). :mod:`renderer.viewer.turns` reads what each turn shows
from the engine; :mod:`renderer.viewer.tables` holds what the page knows of each game family;
:mod:`renderer.viewer.page` writes the page.
"""
