"""``python -m bot``: start the Discord bot (see README for the environment variables).

``python -m bot migrate-db --to postgresql://...`` moves the SQLite database to PostgreSQL
(:mod:`bot.migrate_db`).
"""

import sys

if sys.argv[1:2] == ["migrate-db"]:
    from bot.migrate_db import main as migrate_db

    sys.exit(migrate_db(sys.argv[2:]))

from bot.app import main

sys.exit(main())
