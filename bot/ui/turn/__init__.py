"""The turn in Discord: its messages, steps, typed command, undo and abandon, the end,
and each family's own turn (:mod:`bot.ui.turn.castle`, :mod:`bot.ui.turn.hunters`)."""
