# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # the variables are the sourcer's
#
# Sourced by the selftests that run ncsync(1) (ncsync_tool_test.sh,
# ncsync_json_test.sh, ncsync_nlspec_test.sh, ncsync_ynl_test.sh,
# ncsync_nldoc_test.sh, ncsync_samples_test.sh); not a test of its own.  Needs $top.  Prints the
# TAP header, and exits with a skip outside the test VM or without the
# tool; sets $build, $N (the tool), $ex (the examples), $py (python3) and
# $tmp, a directory removed on exit; defines monitor_bg and
# block_programs.

build=${BUILD:-$top/build}
N=$build/tools/ncsync
ex=$top/examples

echo "TAP version 13"
if [ "${NCSYNC_IN_VM:-}" != 1 ]; then
	echo "1..0 # SKIP not in the test VM (tools/vm-run)"
	exit 0
fi
if [ ! -x "$N" ]; then
	echo "1..0 # SKIP no $N (make tools)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The system's python3 (a pyenv shim on PATH can take seconds to start).
py=/usr/bin/python3
[ -x $py ] || py=python3

# monitor_bg ARGS...: ncsync ARGS (a monitor) in the background, output in
# $tmp/mon.out, until its first line says it listens; $mpid.
monitor_bg() {
	rm -f "$tmp/mon.out"
	"$N" "$@" > "$tmp/mon.out" 2> "$tmp/mon.err" &
	mpid=$!
	i=0
	while [ ! -s "$tmp/mon.out" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# block_programs COUNT: COUNT programs of five engines on core 0, each
# blocked on sem[50] >= 1 (set to 0), run in the background until dump
# shows them all (300 s at most: seventy processes start slowly under the
# debug kernel); $pids.  Their watchdog is ten minutes, so that the first
# is not stopped while the last starts.  "ncsync sem set 50 1" releases
# them.
block_programs() {
	for e in pool act pe dve sp; do
		printf 'engine %s\n\tnop wait sem[50] >= 1\n\texit\n' "$e"
	done > "$tmp/block5.s"
	"$N" sem set 50 0 > /dev/null
	pids=
	i=0
	while [ $i -lt "$1" ]; do
		"$N" run --watchdog 600000 "$tmp/block5.s" > /dev/null 2>&1 &
		pids="$pids $!"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 1500 ] &&
		! "$N" dump 2> /dev/null | grep -q "^programs running: $1\$"; do
		sleep 0.2
		i=$((i + 1))
	done
}
