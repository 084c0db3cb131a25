"""``python -m renderer RECORD.json --out board.png [--turn N]``."""

from renderer.cli import main

raise SystemExit(main())
