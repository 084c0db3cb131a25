"""``python -m bot``: start the Discord bot (see README for the environment variables)."""

import sys

from bot.app import main

sys.exit(main())
