#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the registered generic netlink family against its YNL
# spec, Documentation/netlink/ncsync.yaml: the kernel's ops, their flags
# and request policies, maxattr and the multicast groups, as the kernel's
# controller reports them (ncsync_nlspec.py).  selftests/run.sh runs it in
# the test VM with the module loaded.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

echo "TAP version 13"
if [ "${NCSYNC_IN_VM:-}" != 1 ]; then
	echo "1..0 # SKIP not in the test VM (tools/vm-run)"
	exit 0
fi
# The system's python3 (a pyenv shim on PATH can take seconds to start).
py=/usr/bin/python3
[ -x $py ] || py=python3
exec $py "$here/ncsync_nlspec.py" "$top/Documentation/netlink/ncsync.yaml"
