"""The lobby in Discord: its message, options, seats and colours, and the start of a game."""
