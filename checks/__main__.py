"""``python -m lingjun.checks``: run :func:`lingjun.checks.cli.main`."""

import sys

from lingjun.checks.cli import main

sys.exit(main())
