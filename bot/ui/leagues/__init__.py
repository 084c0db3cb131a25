"""Leagues in Discord: the ``/league`` command group."""
