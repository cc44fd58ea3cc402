"""``python -m sodos_plugin.cli``."""

import sys

from sodos_plugin.cli import main

sys.exit(main())
