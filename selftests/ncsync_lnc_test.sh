#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: logical cores, which need the module loaded with
# parameters of its own (Documentation/ncsync/engines.rst, "Logical
# cores"):
#
#  1. bad_lnc: "cores=3 lnc=2" is refused: EINVAL, the kernel log says
#     why, and the module does not stay loaded;
#  2. lnc_test: reload with cores=4 lnc=2 and run ncsync_lnc_peer_test
#     (signals between the cores of a logical core), ncsync_lnc_cores_test
#     (programs across cores) and ncsync_lnc_access_test (a peer's
#     descriptor), none of them failing or skipping anything;
#  3. deadlock_report: the watchdog test of ncsync_lnc_cores_test left each
#     core's report of its member in the kernel log;
#  4. lnc_lib_test: ncsync_lnc_lib_test (programs across cores through the
#     library), none of it skipped;
#  5. corebarrier_test: ncsync_corebarrier_test under the same
#     parameters (core barriers between cores 0 and 1: the builder's, raw
#     0xD8 records, the lower_control fence's leg), none of it skipped;
#  6. info: "ncsync info -c 1" names the logical core;
#  7. dump: "ncsync dump -c 3" shows cores 2 and 3, text and JSON;
#  8. top: "ncsync top --once -c 3", likewise;
#  9. run_cores: "ncsync run examples/pingpong-cores.s", a program across
#     the two cores: done, each core's status and semaphores;
# 10. run_cores_json: the same with -j on core 3: logical core 1, cores 2
#     and 3;
# 11. run_cores_outside: a "core 2" is refused before anything runs;
# 12. run_cores_check: check finds the deadlock of a program across cores
#     and run --check refuses it before anything runs; run --check of
#     examples/pingpong-cores.s checks it safe and runs it;
# 13. run_cores_refused: a record the kernel refuses is named with its
#     core;
# 14. run_cores_timeline: --timeline draws a lane per (core, engine) and
#     a DMA lane per core, each copy on it, and an arrow per cross-core
#     copy to the wait it let pass, with both lines;
# 15. run_cores_other: a text naming core 1 alone, run with -c 0, runs on
#     core 1, submitted there;
# 16. run_cores_core_barrier: "ncsync run examples/core-barrier-loop.s",
#     ten engines on two cores meeting at a core_barrier 1000 times; its
#     timeline has an arrow per arrival on the other core, to the
#     barrier's wait there;
# 17. run_cores_notify: "ncsync monitor" of every core receives the end
#     of each core's part of a program across cores, from its core;
# 18. run_cores_deadlock: a program across cores whose cores wait for
#     each other's copy times out, and the report names the cycle across
#     the cores and each stuck engine's poster on the other core;
# 19. run_4x4_core_barrier: reload with cores=4 lnc=4 and "ncsync run
#     examples/core-barrier-loop-4x4.s", sixteen engines on the four
#     cores of one logical core meeting at a core_barrier 1000 times:
#     done, sem[22] = 4000 and sem[20] = 0 on each core;
# 20. load_again: the module loads again, with the parameters it had.
#
# selftests/run.sh runs this inside the test VM with the module loaded; it
# is left loaded as found (the module file: ncsync_module.sh).  Outside
# the VM (NCSYNC_IN_VM unset) nothing is done.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
tool=$build/tools/ncsync
bins="$build/selftests/ncsync_lnc_peer_test $build/selftests/ncsync_lnc_cores_test
$build/selftests/ncsync_lnc_access_test"
libbin=$build/selftests/ncsync_lnc_lib_test
cbin=$build/selftests/ncsync_corebarrier_test
sys=/sys/module/ncsync
. "$here/ncsync_module.sh"
ex=$top/examples
tap_plan 20 lnc

for b in $bins; do
	ncsync_reload_begin "$b"
done

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

# One result $1: $why empty, or why not (with the output $out).
lnc_result() {
	if [ -z "$why" ]; then
		tap_ok "$1"
	else
		tap_not_ok "$1 # ${why#; }"
		echo "$out" | tap_diag
	fi
}

# The semaphores of core $1 in the text report $out: the lines of its
# part, up to the next core's.
part_of() {
	echo "$out" | awk -v c="  core $1 " '
		index($0, c) == 1 { on = 1; next }
		/^  core / { on = 0 }
		on'
}

# 9, 10: the ping-pong across cores 0 and 1, then 2 and 3 in JSON.
lnc_pingpong() {
	for c in 0 1 2 3; do
		"$tool" -c $c sem set 10 0 > /dev/null
		"$tool" -c $c sem set 11 0 > /dev/null
	done
	why=
	succeeds -c 0 run "$ex/pingpong-cores.s"
	echo "$out" | head -n 1 | grep -q 'on logical core 0 (cores 0-1, submitted on core 0): done' ||
		why="$why; no 'done' on logical core 0"
	part_of 0 | grep -q '\[12\]=50' || why="$why; core 0: no sem[12]=50"
	part_of 1 | grep -q '\[13\]=50' || why="$why; core 1: no sem[13]=50"
	part_of 0 | grep -q 'engine 1 pool done' || why="$why; core 0: pool"
	! echo "$out" | grep -Eq '\[1[01]\]=' || why="$why; a ball left"
	lnc_result run_cores
	out=$("$tool" -j -c 3 run "$ex/pingpong-cores.s" 2>&1)
	why=
	echo "$out" | $py -c '
import json, sys
d = json.loads(sys.stdin.read())
assert d["state"] == "done" and d["logical_core"] == 1, d
assert d["core"] == 3 and d["lnc"] == 2, d
assert [c["core"] for c in d["cores"]] == [2, 3], d
assert {"index": 12, "value": 50} in d["cores"][0]["sems"], d
assert {"index": 13, "value": 50} in d["cores"][1]["sems"], d
assert [e["engine"] for e in d["cores"][1]["engines"]] == ["pool"], d
' > "$tmpf" 2>&1 || why="JSON: $(tail -n 1 "$tmpf")"
	lnc_result run_cores_json
}

# succeeds ARGS...: "ncsync ARGS" exits 0, its output in $out; else why
# not, added to $why.
succeeds() {
	out=$("$tool" "$@" 2>&1)
	rc=$?
	[ $rc = 0 ] || why="$why; $*: exit status $rc"
}

# refused STATUS MESSAGE ARGS...: "ncsync ARGS" exits STATUS and says
# MESSAGE (a fixed string); else why not, added to $why.
refused() {
	r_want=$1
	r_msg=$2
	shift 2
	out=$("$tool" "$@" 2>&1)
	rc=$?
	[ $rc = "$r_want" ] || why="$why; $*: exit status $rc"
	echo "$out" | grep -qF "$r_msg" || why="$why; $*: no '$r_msg'"
}

# 11, 12: refused before anything runs: core 0's part would set sem[20].
lnc_refusals() {
	"$tool" -c 0 sem set 20 0 > /dev/null
	printf 'core 0\nengine pool\n\tnop then sem[20]++\ncore 2\nengine pool\n\tnop\n' > "$tmpd/out.s"
	why=
	refused 1 "ncsync: $tmpd/out.s: core 2: outside the logical core of core 0 (lnc 2: core 0 to 1)" \
		-c 0 run "$tmpd/out.s"
	[ "$("$tool" -c 0 sem get 20)" = 0 ] || why="$why; it ran"
	lnc_result run_cores_outside
	# Each core waits for the other's copy before sending its own.
	printf 'core 0\nengine pool\n\tnop then sem[20]++\n\tnop wait sem[4] >= 1\n\tdma 0x0, 0x40, 64, peer=1 on_land sem[3]++\ncore 1\nengine pool\n\tnop wait sem[3] >= 1\n\tdma 0x0, 0x40, 64, peer=0 on_land sem[4]++\n' > "$tmpd/check.s"
	why=
	refused 1 "check.s: check found a defect: not submitted" \
		-c 0 run --check "$tmpd/check.s"
	[ "$("$tool" -c 0 sem get 20)" = 0 ] || why="$why; it ran"
	refused 1 "deadlock: 0:pool waits for sem[4] >= 1 (line 4), no step can run" \
		check "$tmpd/check.s"
	refused 0 "(cores 0-1, submitted on core 0): done" -c 0 run --check "$ex/pingpong-cores.s"
	lnc_result run_cores_check
}

# 13: core 1's copy to the core at position 3, outside the logical core:
# the kernel refuses it, and the error names core 1's record.
lnc_refused() {
	printf 'core 0\nengine pool\n\tnop\ncore 1\nengine act\n\tnop\n\tdma 0x0, 0x40, 64, peer=3 on_land sem[1]++\n' > "$tmpd/peer.s"
	why=
	refused 1 "peer.s: core 1: line 7: engine act record 1: " -c 1 run "$tmpd/peer.s"
	lnc_result run_cores_refused
}

# The lanes of the timeline $1, top down, then its cross-core arrows,
# each "arrow: TITLE", then "N signals".
tl_lanes_arrows() {
	$py - "$1" <<'EOF'
import re, sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
lanes = sorted((float(t.get('y')), t.text) for t in root.iter(ns + 'text')
               if t.get('class') == 'l')
print(', '.join(n for _, n in lanes))
n = 0
for a in root.iter(ns + 'line'):
    if a.get('class') != 'xcore':
        continue
    title = a.find(ns + 'title').text
    m = re.search(r' \(and (\d+) more signals\)$', title)
    n += 1 + int(m.group(1)) if m else 1
    print('arrow: ' + title)
print('%d signals' % n)
EOF
}

# 14: one lane per (core, engine), each with its records, and a DMA lane
# per core; an arrow per copy to the other core, from its line to the
# line of the wait it let pass (or none).
lnc_timeline() {
	why=
	succeeds -c 0 run --timeline "$tmpd/t.svg" "$ex/pingpong-cores.s"
	tl_lanes_arrows "$tmpd/t.svg" > "$tmpd/tl.out" 2>&1 ||
		why="$why; the SVG does not parse: $(cat "$tmpd/tl.out")"
	l=$(head -n 1 "$tmpd/tl.out")
	[ "$l" = "core 0 pool, core 0 DMA, core 1 pool, core 1 DMA" ] ||
		why="$why; lanes: $l"
	! grep -q 'no records traced' "$tmpd/t.svg" || why="$why; an empty lane"
	[ "$(grep -c '>50 copies, 50 landed</text>' "$tmpd/t.svg")" = 2 ] ||
		why="$why; not 50 copies landed on each DMA lane"
	grep -qx '100 signals' "$tmpd/tl.out" ||
		why="$why; not 100 cross-core signals: $(tail -n 1 "$tmpd/tl.out")"
	p1=$(grep -n 'peer=1' "$ex/pingpong-cores.s" | cut -d: -f1)
	w10=$(grep -n 'wait sem\[10\]' "$ex/pingpong-cores.s" | cut -d: -f1)
	grep -q "^arrow: core 0 pool record 1, line $p1: copy [0-9]* landed: sem\[10\]++ on core 1, where core 1 pool record 1, line $w10 waited for sem\[10\] >= 1: passed" "$tmpd/tl.out" ||
		why="$why; no arrow from line $p1 to the wait of line $w10"
	! grep '^arrow: ' "$tmpd/tl.out" |
		grep -v -e 'sem\[10\]++ on core 1' -e 'sem\[11\]++ on core 0' ||
		why="$why; an arrow of another signal"
	out=$(cat "$tmpd/tl.out")
	lnc_result run_cores_timeline
}

# 15: -c 0's core is not named: the part runs on core 1, submitted there.
lnc_other() {
	for c in 0 1; do
		"$tool" -c $c sem set 21 0 > /dev/null
	done
	printf 'core 1\nengine pool\n\tnop then sem[21]++\n' > "$tmpd/one.s"
	why=
	succeeds -c 0 run "$tmpd/one.s"
	echo "$out" | head -n 1 | grep -q 'submitted on core 1): done' ||
		why="$why; not done, submitted on core 1"
	! echo "$out" | grep -q '^  core 0 ' || why="$why; a part on core 0"
	[ "$("$tool" -c 1 sem get 21)" = 1 ] || why="$why; core 1: sem[21] not 1"
	[ "$("$tool" -c 0 sem get 21)" = 0 ] || why="$why; core 0: sem[21] not 0"
	lnc_result run_cores_other
}

# 16: the core barrier loop, text form; each core counts 5 x 1000 passes.
lnc_core_barrier() {
	for c in 0 1; do
		"$tool" -c $c sem set 20 0 > /dev/null
		"$tool" -c $c sem set 22 0 > /dev/null
	done
	why=
	succeeds -c 0 run --timeline "$tmpd/cb.svg" "$ex/core-barrier-loop.s"
	echo "$out" | head -n 1 | grep -q ': done' || why="$why; not done"
	for c in 0 1; do
		part_of $c | grep -q '\[22\]=5000' ||
			why="$why; core $c: no sem[22]=5000"
		[ "$("$tool" -c $c sem get 20)" = 0 ] ||
			why="$why; core $c: sem[20] not 0"
	done
	# Each pass, each core's arrival on the other: 2000 signals, some
	# to the other core's wait in the barrier.
	tl_lanes_arrows "$tmpd/cb.svg" > "$tmpd/cb.out" 2>&1 ||
		why="$why; the SVG does not parse: $(tail -n 3 "$tmpd/cb.out")"
	grep -qx '2000 signals' "$tmpd/cb.out" ||
		why="$why; not 2000 cross-core signals: $(tail -n 1 "$tmpd/cb.out")"
	grep -q '^arrow: core 0 pool record [0-9]*, line [0-9]*: copy [0-9]* landed: sem\[20\]++ on core 1, where core 1 pool record [0-9]*, line [0-9]* waited for sem\[20\] >= 2, barrier (the semaphore of the program.s core barriers): passed' "$tmpd/cb.out" ||
		why="$why; no arrow to core 1's wait in the core barrier"
	lnc_result run_cores_core_barrier
}

# 19: the core barrier loop of four cores (lnc=4), four engines each;
# each core counts 4 x 1000 passes.
lnc_core_barrier_4x4() {
	for c in 0 1 2 3; do
		"$tool" -c $c sem set 20 0 > /dev/null
		"$tool" -c $c sem set 22 0 > /dev/null
	done
	why=
	succeeds -c 0 run "$ex/core-barrier-loop-4x4.s"
	echo "$out" | head -n 1 | grep -q 'on logical core 0 (cores 0-3, submitted on core 0): done' ||
		why="$why; not done on logical core 0 (cores 0-3)"
	for c in 0 1 2 3; do
		part_of $c | grep -q '\[22\]=4000' ||
			why="$why; core $c: no sem[22]=4000"
		[ "$("$tool" -c $c sem get 20)" = 0 ] ||
			why="$why; core $c: sem[20] not 0"
	done
	lnc_result run_4x4_core_barrier
}

# 17: the monitor of every core sees the end of both parts, each from its
# own core.
lnc_notify() {
	for c in 0 1; do
		"$tool" -c $c sem set 10 0 > /dev/null
		"$tool" -c $c sem set 11 0 > /dev/null
	done
	"$tool" monitor --count 2 --timeout 60000 > "$tmpd/mon.out" 2>&1 &
	mpid=$!
	i=0
	while [ ! -s "$tmpd/mon.out" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	why=
	succeeds -c 0 run "$ex/pingpong-cores.s"
	wait $mpid || why="$why; monitor: exit status $?"
	out=$(cat "$tmpd/mon.out")
	for c in 0 1; do
		echo "$out" | grep -q "^core $c: program [0-9]* of pid [0-9]* ended done" ||
			why="$why; no end of core $c's part"
	done
	lnc_result run_cores_notify
}

# 18: the deadlock analysis across the cores (ncsync_program_deadlock_cores()).
lnc_deadlock() {
	printf 'core 0\nengine pool\n\tnop wait sem[4] >= 1\n\tdma 0x0, 0x40, 64, peer=1 on_land sem[3]++\ncore 1\nengine act\n\tnop wait sem[3] >= 1\n\tdma 0x0, 0x40, 64, peer=0 on_land sem[4]++\n' > "$tmpd/dl.s"
	"$tool" -c 0 sem set 4 0 > /dev/null
	"$tool" -c 1 sem set 3 0 > /dev/null
	why=
	refused 1 "program" -c 0 run --watchdog 300 "$tmpd/dl.s"
	for w in "timed out" "  deadlock: 0:pool -> 1:act -> 0:pool" \
		 "    0:pool waits for sem[4] >= 1 (line 3), now 0: only 1:act (line 8, record 1) would post it, and is stuck" \
		 "    1:act waits for sem[3] >= 1 (line 7), now 0: only 0:pool (line 4, record 1) would post it, and is stuck"; do
		echo "$out" | grep -qF -- "$w" || why="$why; no '$w'"
	done
	out=$("$tool" -j -c 0 run --watchdog 300 "$tmpd/dl.s" 2>/dev/null)
	echo "$out" | $py -c '
import json, sys
d = json.load(sys.stdin)
st = {(e["core"], e["engine"]): [(p["core"], p["engine"], p["record"])
      for p in e["posters"]] for e in d["deadlock"]}
assert st == {(0, "pool"): [(1, "act", 1)], (1, "act"): [(0, "pool", 1)]}, st
' || why="$why; JSON deadlock: $out"
	lnc_result run_cores_deadlock
}

lnc_runs() {
	py=/usr/bin/python3
	[ -x $py ] || py=python3
	tmpf=$(mktemp)
	tmpd=$(mktemp -d)
	lnc_pingpong
	lnc_refusals
	lnc_refused
	lnc_timeline
	lnc_other
	lnc_core_barrier
	lnc_notify
	lnc_deadlock
	rm -rf "$tmpf" "$tmpd"
}

# The ncsync_lnc_*_test binaries in turn: each one's TAP; fails if one
# fails (naming it).
lnc_bins() {
	lnc_rc=0
	for b in $bins; do
		echo "# $(basename "$b")"
		"$b" || { echo "# $(basename "$b") exited with $?"; lnc_rc=1; }
	done
	return $lnc_rc
}

# 2 - 18: two logical cores of two
# shellcheck disable=SC2046 # one word per parameter
if out=$(ncsync_load $(ncsync_params_with cores=4 lnc=2)); then
	tap_run lnc_test "cores=4 lnc=2" lnc_bins
	why=
	for c in 0 1; do
		dmesg | grep 'timed out: no progress for 300 ms (a member of a program across cores)' |
			grep -q "ncsync: core $c program" || why="$why core $c"
	done
	if [ -z "$why" ]; then
		tap_ok "deadlock_report"
	else
		tap_not_ok "deadlock_report # no report of the member on$why"
		dmesg | grep 'ncsync: core [0-9]* program' | tail -n 20 | tap_diag
		for c in 0 1; do
			grep -o 'log_suppressed [0-9]*' \
				/sys/kernel/debug/ncsync/core$c 2>/dev/null |
				sed "s/^/core $c: /" | tap_diag
		done
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
	lnc_runs
else
	tap_not_ok "lnc_test # load with cores=4 lnc=2: $out"
	tap_not_ok "deadlock_report # not loaded"
	tap_not_ok "lnc_lib_test # not loaded"
	tap_not_ok "corebarrier_test # not loaded"
	tap_not_ok "info # not loaded"
	tap_not_ok "dump # not loaded"
	tap_not_ok "top # not loaded"
	for t in run_cores run_cores_json run_cores_outside run_cores_check \
		 run_cores_refused run_cores_timeline run_cores_other \
		 run_cores_core_barrier run_cores_notify run_cores_deadlock; do
		tap_not_ok "$t # not loaded"
	done
fi

# 19: one logical core of four cores, four engines each
# shellcheck disable=SC2046 # one word per parameter
if out=$(ncsync_load $(ncsync_params_with cores=4 lnc=4)); then
	tmpd=$(mktemp -d)
	lnc_core_barrier_4x4
	rm -rf "$tmpd"
else
	tap_not_ok "run_4x4_core_barrier # load with cores=4 lnc=4: $out"
fi

# 20: loaded again as found
tap_load_again
exit $tap_failed
