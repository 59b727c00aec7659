#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the registered generic netlink family against its YNL
# spec, Documentation/netlink/ncsync.yaml: the kernel's ops, their flags
# and request policies, maxattr and the multicast groups, as the kernel's
# controller reports them, and the replies of get-core and get-programs
# (ncsync_nlspec.py), and the notifications core 1 sends for an event
# write, a program's end and a fault.  For the replies, core 0 gets more programs than
# one get-core reply holds, blocked until the end.  selftests/run.sh runs
# it in the test VM with the module loaded.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# $build, $N, $py, $tmp; the TAP header, or a skip.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"

# 40 programs of five engines: a get-core reply holds about 30.
block_programs 40

$py "$here/ncsync_nlspec.py" "$top/Documentation/netlink/ncsync.yaml" "$N"
rc=$?
"$N" sem set 50 1 > /dev/null
for p in $pids; do
	wait "$p"
done
exit $rc
