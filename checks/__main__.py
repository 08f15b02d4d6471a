"""``python -m lingjun.checks``: run :func:`lingjun.checks.cli.main`."""

import gc
import sys

from lingjun.checks.cli import main

status = main()
gc.freeze()  # the interpreter's last collection at exit then skips everything the run allocated
sys.exit(status)
