#!/bin/sh
# First step of a torchrun launch: check this node with lingjun-check and start
# torchrun only when the check passes. Usage, in the training container:
#   sh preflight-torchrun.sh [torchrun arguments...]
# LINGJUN_CHECK: path of lingjun-check.pyz (default /opt/lingjun/lingjun-check.pyz,
# where the ConfigMap from `lingjun-kb bundle --configmap` is mounted).
# Any non-zero exit of the checker (1 errors, 2 warnings with --strict, 3 usage or
# internal failure) stops here with that status: torchrun never starts.
pyz="${LINGJUN_CHECK:-/opt/lingjun/lingjun-check.pyz}"
python3 "$pyz" --require-gpu
status=$?
if [ "$status" -ne 0 ]; then
    echo "preflight: lingjun-check exited with $status on node ${NODE_NAME:-$(hostname)}; not starting torchrun" >&2
    exit "$status"
fi
exec torchrun "$@"
