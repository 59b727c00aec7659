#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the generic netlink family driven by the kernel's YNL
# client, tools/net/ynl/cli.py, with Documentation/netlink/ncsync.yaml
# (ncsync_ynl.py).  cli.py and the schema come from Debian's
# linux-source-6.12, extracted on the host by tools/ynl-src into
# $BUILD/ynl-src (make check does it before the VM tier; the VM sees it
# read-only).  selftests/run.sh runs it in the test VM with the module
# loaded.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# $build, $N, $py, $tmp; the TAP header, or a skip.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"

src=$build/ynl-src
if [ ! -f "$src/.extracted" ]; then
	echo "1..0 # SKIP no $src (run tools/ynl-src on the host)"
	exit 0
fi
exec $py "$here/ncsync_ynl.py" "$src" "$top/Documentation/netlink/ncsync.yaml" "$N"
