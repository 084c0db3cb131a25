"""Hunters & Gatherers: its landscape art (rivers, lakes, forests, meadows, animals), its
figures and its end picture."""
