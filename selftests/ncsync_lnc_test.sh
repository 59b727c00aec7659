#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: logical cores, which need the module loaded with
# parameters of its own (Documentation/ncsync/engines.rst, "Logical
# cores"):
#
#  1. bad_lnc: "cores=3 lnc=2" is refused: EINVAL, the kernel log says
#     why, and the module does not stay loaded;
#  2. lnc_test: reload with cores=4 lnc=2 and run ncsync_lnc_test (signals
#     between the cores of a logical core, programs across cores), none of
#     it skipped;
#  3. deadlock_report: the watchdog test of ncsync_lnc_test left each
#     core's report of its member in the kernel log;
#  4. lnc_lib_test: ncsync_lnc_lib_test (programs across cores through the
#     library), none of it skipped;
#  5. info: "ncsync info -c 1" names the logical core;
#  6. load_again: the module loads again, with the parameters it had.
#
# selftests/run.sh runs this inside the test VM with the module loaded; it
# is left loaded as found (the module file: ncsync_module.sh).  Outside
# the VM (NCSYNC_IN_VM unset) nothing is done.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
tool=$build/tools/ncsync
bin=$build/selftests/ncsync_lnc_test
libbin=$build/selftests/ncsync_lnc_lib_test
sys=/sys/module/ncsync
. "$here/ncsync_module.sh"
tap_plan 6 lnc

ncsync_reload_begin "$bin"

# 1: a core count that is not a multiple of lnc
if ncsync_unload; then
	out=$("$tool" load --path "$ko" cores=3 lnc=2 2>&1)
	rc=$?
	why=
	[ -d $sys ] && why="; it loaded"
	ncsync_unload
	[ $rc != 0 ] || why="$why; exit status 0"
	echo "$out" | grep -q 'invalid parameters' ||
		why="$why; not refused as invalid (EINVAL): '$out'"
	dmesg | grep -q 'ncsync: cores=3 is not a multiple of lnc=2' ||
		why="$why; no kernel log line"
	if [ -z "$why" ]; then
		tap_ok "bad_lnc"
	else
		tap_not_ok "bad_lnc # cores=3 lnc=2${why#;}"
	fi
else
	tap_not_ok "bad_lnc # cannot unload (refcnt $(cat $sys/refcnt))"
fi

# 2 - 5: two logical cores of two
# shellcheck disable=SC2046 # one word per parameter
if out=$(ncsync_load $(ncsync_params_with cores=4 lnc=2)); then
	tap_run lnc_test "cores=4 lnc=2" "$bin"
	why=
	for c in 0 1; do
		dmesg | grep 'timed out: no progress for 300 ms (a member of a program across cores)' |
			grep -q "ncsync: core $c program" || why="$why core $c"
	done
	if [ -z "$why" ]; then
		tap_ok "deadlock_report"
	else
		tap_not_ok "deadlock_report # no report of the member on$why"
	fi
	tap_run lnc_lib_test "cores=4 lnc=2" "$libbin"
	out=$("$tool" info -c 3 2>&1)
	if echo "$out" | grep -q 'logical core 1: cores 2-3 (lnc 2)'; then
		tap_ok "info"
	else
		tap_not_ok "info # '$out'"
	fi
else
	tap_not_ok "lnc_test # load with cores=4 lnc=2: $out"
	tap_not_ok "deadlock_report # not loaded"
	tap_not_ok "lnc_lib_test # not loaded"
	tap_not_ok "info # not loaded"
fi

# 6: loaded again as found
tap_load_again
exit $tap_failed
