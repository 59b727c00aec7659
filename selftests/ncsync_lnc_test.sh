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
#  5. corebarrier_test: ncsync_corebarrier_test under the same
#     parameters (core barriers between cores 0 and 1: the builder's, raw
#     0xD8 records, the lower_control fence's leg), none of it skipped;
#  6. info: "ncsync info -c 1" names the logical core;
#  7. dump: "ncsync dump -c 3" shows cores 2 and 3, text and JSON;
#  8. top: "ncsync top --once -c 3", likewise;
#  9. load_again: the module loads again, with the parameters it had.
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
cbin=$build/selftests/ncsync_corebarrier_test
sys=/sys/module/ncsync
. "$here/ncsync_module.sh"
tap_plan 9 lnc

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

# 7, 8: dump and top of core 3 show cores 2 and 3, each with its own
# banks (sem[7] is 2 on core 2, 3 on core 3), and not core 0 or 1.
lnc_view() {
	# shellcheck disable=SC2086 # $1 is words
	out=$("$tool" -c 3 $1 2>&1)
	why=
	echo "$out" | head -n 1 | grep -q 'logical core 1: cores 2-3' ||
		why="$why; no logical core line"
	for c in 2 3; do
		echo "$out" | grep -Eq "^core $c[: ]" || why="$why; no core $c"
		echo "$out" | grep -q "\\[7\\]=$c" || why="$why; no sem[7]=$c"
	done
	! echo "$out" | grep -Eq '^core [01][: ]' ||
		why="$why; a core of logical core 0"
	# shellcheck disable=SC2086 # $1 is words
	"$tool" -j -c 3 $1 2>&1 | head -n 1 | $py -c '
import json, sys
d = json.loads(sys.stdin.read())
assert (d["logical_core"], d["lnc"]) == (1, 2), d
assert [c["core"] for c in d["cores"]] == [2, 3], d
for c in d["cores"]:
    assert {"index": 7, "value": c["core"]} in c["sems"], c
' > "$tmpf" 2>&1 || why="$why; JSON: $(tail -n 1 "$tmpf")"
	if [ -z "$why" ]; then
		tap_ok "${1%% *}"
	else
		tap_not_ok "${1%% *} # ${why#; }"
		echo "$out" | tap_diag
	fi
}

lnc_views() {
	py=/usr/bin/python3
	[ -x $py ] || py=python3
	tmpf=$(mktemp)
	for c in 0 1 2 3; do
		"$tool" -c $c sem set 7 $c > /dev/null
	done
	lnc_view dump
	lnc_view "top --once"
	for c in 0 1 2 3; do
		"$tool" -c $c sem set 7 0 > /dev/null
	done
	rm -f "$tmpf"
}

# 2 - 8: two logical cores of two
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
	tap_run corebarrier_test "cores=4 lnc=2" "$cbin"
	out=$("$tool" info -c 3 2>&1)
	if echo "$out" | grep -q 'logical core 1: cores 2-3 (lnc 2)'; then
		tap_ok "info"
	else
		tap_not_ok "info # '$out'"
	fi
	lnc_views
else
	tap_not_ok "lnc_test # load with cores=4 lnc=2: $out"
	tap_not_ok "deadlock_report # not loaded"
	tap_not_ok "lnc_lib_test # not loaded"
	tap_not_ok "corebarrier_test # not loaded"
	tap_not_ok "info # not loaded"
	tap_not_ok "dump # not loaded"
	tap_not_ok "top # not loaded"
fi

# 9: loaded again as found
tap_load_again
exit $tap_failed
