"""``python -m bot``: start the Discord bot (see README for the environment variables).

``python -m bot migrate-db --to postgresql://...`` moves the SQLite database to PostgreSQL
(:mod:`bot.migrate_db`); ``backup --out FILE``, ``restore FILE`` and ``check`` copy, put back and
check the database (:mod:`bot.backup`).
"""

import sys

if sys.argv[1:2] == ["migrate-db"]:
    from bot.migrate_db import main as migrate_db

    sys.exit(migrate_db(sys.argv[2:]))

if sys.argv[1:2] in (["backup"], ["restore"], ["check"]):
    import os

    from bot.app import database_of
    from bot.backup import main as copies

    try:
        location = database_of(os.environ)
    except SystemExit as stop:
        print(stop.code, file=sys.stderr)
        sys.exit(1)
    sys.exit(copies(sys.argv[1], sys.argv[2:], location))

from bot.app import main

sys.exit(main())
