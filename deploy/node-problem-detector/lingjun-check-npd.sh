#!/bin/sh
# lingjun-check as a node-problem-detector custom plugin (lingjun-check-monitor.json runs it with /bin/sh,
# so a ConfigMap mount without the executable bit is enough).
#
# Prints one line of at most 80 bytes and exits as NPD expects: 0 OK, 1 problem, 2 Unknown
# (lingjun-check --format npd does the mapping; this wrapper only finds Python and the zipapp).
# Arguments are passed on to lingjun-check (e.g. --root /host --timeout 10; add --strict to
# count warnings as problems).
#
# LINGJUN_CHECK_PYZ     the zipapp (default /opt/lingjun-check/lingjun-check.pyz)
# LINGJUN_CHECK_PYTHON  the interpreter, Python 3.9 or later (default python3 on PATH)
pyz="${LINGJUN_CHECK_PYZ:-/opt/lingjun-check/lingjun-check.pyz}"
python="${LINGJUN_CHECK_PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
  # NPD shows stdout: name the missing piece in at most 80 bytes
  printf 'UNKNOWN lingjun-check: no %.40s in the NPD container\n' "$python"
  exit 2
fi
if [ ! -r "$pyz" ]; then
  printf 'UNKNOWN lingjun-check: cannot read %.45s\n' "$pyz"
  exit 2
fi
exec "$python" "$pyz" --format npd "$@"
