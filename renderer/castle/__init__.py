"""The Castle (2 players): its castle board, walls, subjects and pictures."""
