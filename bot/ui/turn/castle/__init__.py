"""The Castle in Discord: its turn (wall tiles, the turn kept open), registered with
:mod:`bot.ui.turn.families` when :func:`bot.ui.install` imports it."""
