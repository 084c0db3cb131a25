"""``python -m renderer RECORD.json --out board.png [--turn N] [--image board|end|...]``."""

from renderer.cli import main

raise SystemExit(main())
