"""The live board: a web page Discord shows as an Activity, served by the bot itself.

``docs/ACTIVITY.md`` describes its routes, its sign-in and its messages. The package is part of
the bot's core (it knows nothing of discord.py): :mod:`bot.activity.settings` reads its
configuration, :mod:`bot.activity.sessions` signs and checks sessions,
:mod:`bot.activity.discord_api` signs users in at Discord (:mod:`bot.activity.fake_discord` is a
local fake of those endpoints for development and tests), :mod:`bot.activity.views` writes what a
board shows of a game (nothing hidden), :mod:`bot.activity.hub` keeps the open boards and sends
them every change, :mod:`bot.activity.turns` reads what the player in turn may play off the turn
view (and a played decision back into one move), and :mod:`bot.activity.server` serves it all
with aiohttp.
"""
