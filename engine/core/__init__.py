"""The common core every game family shares: tiles as data, the board with its incremental
features, actions and events (the record's vocabulary), the setup, and the turn machine
(:class:`engine.core.game.Game`) whose rule points the families override and whose hooks the
expansions fill (:mod:`engine.core.expansion`). Nothing here names a game family or an expansion.
"""
