import sys

from ai.arena import main

sys.exit(main())
