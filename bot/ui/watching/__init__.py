"""Watching in Discord: followers, dashboards, the browser viewer, players' statistics."""
