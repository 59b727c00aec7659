#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the sample sessions of Documentation/ncsync/netlink.rst
# (genl-ctrl-list, genl, the kernel's YNL cli.py, ncsync) print what the
# document shows (ncsync_nldoc.py, which says how they are compared).
# They run as a new user's would, on a freshly loaded module: the module
# is loaded again, from the file it came from, with the parameters it had
# (ncsync_module.sh).  cli.py and the schemas come from
# $BUILD/ynl-src (tools/ynl-src, run on the host by make check).
# selftests/run.sh runs it in the test VM.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# $build, $N, $py, $tmp; the TAP header, or a skip.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"
tool=$N
sys=/sys/module/ncsync
# shellcheck source=selftests/ncsync_module.sh
. "$here/ncsync_module.sh"

skip() {
	echo "1..0 # SKIP $1"
	exit 0
}
# The debug tier (tools/check-debug) checks the kernel, not the document:
# there cli.py takes minutes to start, past a sample's --sleep 5 window.
if [ -n "${NCSYNC_DEBUG_TIER:-}" ]; then
	echo "ok 1 nldoc # SKIP netlink.rst's samples are compared in make check; under the debug kernel cli.py starts too slowly for their --sleep 5"
	echo "1..1"
	exit 0
fi
[ -f "$build/ynl-src/.extracted" ] ||
	skip "no $build/ynl-src (run tools/ynl-src on the host)"
ncsync_load_fresh nldoc
$py "$here/ncsync_nldoc.py" "$top/Documentation/ncsync/netlink.rst"
