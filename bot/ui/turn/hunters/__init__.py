"""Hunters & Gatherers in Discord: the bonus tile inside the turn, figure hints, the final
breakdown, registered with :mod:`bot.ui.turn.families` when :func:`bot.ui.install` imports it."""
