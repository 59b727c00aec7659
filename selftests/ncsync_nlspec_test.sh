#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the registered generic netlink family against its YNL
# spec, Documentation/netlink/ncsync.yaml: the kernel's ops, their flags
# and request policies, maxattr and the multicast groups, as the kernel's
# controller reports them, and the replies of get-core and get-programs
# (ncsync_nlspec.py).  For the replies, core 0 gets more programs than
# one get-core reply holds, blocked until the end.  selftests/run.sh runs
# it in the test VM with the module loaded.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# $build, $N, $py, $tmp; the TAP header, or a skip.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"

# 40 programs of five engines: a get-core reply holds about 30.
nprogs=40
for e in pool act pe dve sp; do
	printf 'engine %s\n\tnop wait sem[50] >= 1\n\texit\n' "$e"
done > "$tmp/block5.s"
"$N" sem set 50 0 > /dev/null
pids=
i=0
while [ $i -lt $nprogs ]; do
	"$N" run --watchdog 60000 "$tmp/block5.s" > /dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
i=0
while [ $i -lt 150 ] &&
	! "$N" dump 2> /dev/null | grep -q "^programs running: $nprogs\$"; do
	sleep 0.2
	i=$((i + 1))
done

$py "$here/ncsync_nlspec.py" "$top/Documentation/netlink/ncsync.yaml"
rc=$?
"$N" sem set 50 1 > /dev/null
for p in $pids; do
	wait "$p"
done
exit $rc
