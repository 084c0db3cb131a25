"""The ``/tournament`` group, its sign-up message, round announcements and pictures."""
