"""``python -m lingjun.checks``: run :func:`lingjun.checks.cli.main`."""

from lingjun.checks._startup import exit_frozen
from lingjun.checks.cli import main

exit_frozen(main())
