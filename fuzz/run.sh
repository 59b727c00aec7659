#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the fuzzers for SECONDS each and print TAP (make fuzz, make
# fuzz-short; Documentation/ncsync/fuzzing.rst):
#
#   1. fuzz_record and 2. fuzz_asm, the libFuzzer targets, side by side on
#      the host, each from its seeds in fuzz/corpus/ and the corpus it grew
#      in earlier runs ($BUILD/fuzz/corpus/NAME).  A crash is saved as
#      $BUILD/fuzz/crashes/NAME-crash-*; replay it with
#      $BUILD/fuzz/NAME FILE.
#   3. ncsync-sysfuzz in the VM (tools/vm-run), as several users at once,
#      which fails on any kernel report and on the kernel running out of
#      memory; its kernel log is kept as $BUILD/fuzz/sysfuzz-kernel.log.
#      The module is loaded with cores=4 lnc=2 (FUZZ_PARAMS), so that
#      programs across cores land copies on each other's core;
#   4. check-diff in the VM: 3 x SECONDS random programs explored by
#      ncsync_check() and run on the kernel, whose end must be one the
#      checker found (Documentation/ncsync/check.rst).
#   5. check_spin on the host for SECONDS: random programs checked by
#      ncsync_check() and by SPIN on their Promela model, whose verdicts
#      must agree ($BUILD/lib/test/check_spin, skipped without spin(1)).
#
# Usage: fuzz/run.sh [SECONDS]   (default 60; build with make -C fuzz first)
# Environment: FUZZ_WORKERS (sysfuzz worker processes, each its own uid,
# default 4), FUZZ_THREADS (threads of each, default 2), FUZZ_SEED (its
# seed, default random), FUZZ_PARAMS (its module parameters, default
# "cores=4 lnc=2"), NCSYNC_VM_* (tools/vm-run).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
out=$build/fuzz
secs=${1:-60}
workers=${FUZZ_WORKERS:-4}
threads=${FUZZ_THREADS:-2}
rc=0

echo "TAP version 13"
echo "1..5"

host_start() {
	local name=$1
	mkdir -p "$out/corpus/$name" "$out/crashes"
	"$out/$name" -max_total_time="$secs" -print_final_stats=1 \
		-timeout=10 -rss_limit_mb=2048 -max_len=4096 \
		-artifact_prefix="$out/crashes/$name-" \
		"$out/corpus/$name" "$here/corpus/$2" \
		> "$out/$name.log" 2>&1
}

host_report() {
	local n=$1 name=$2 status=$3 log=$out/$2.log execs cov
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -n 1)
	if [ "$status" -eq 0 ] && [ -n "$execs" ]; then
		echo "ok $n - $name: ${execs} execs in $secs s, ${cov:-no coverage line}, 0 crashes"
		return
	fi
	sed 's/^/# /' "$log" | grep -vE '^# #[0-9]+' | tail -n 40
	echo "not ok $n - $name: exited $status after ${execs:-?} execs; crash in $out/crashes/"
	rc=1
}

host_start fuzz_record record &
pid_record=$!
host_start fuzz_asm asm &
pid_asm=$!
wait $pid_record
st_record=$?
wait $pid_asm
st_asm=$?
host_report 1 fuzz_record $st_record
host_report 2 fuzz_asm $st_asm

# The VM: its own time limit is well past the fuzzer's own bound.
vm_log=$out/sysfuzz.log
NCSYNC_VM_TIMEOUT=$((secs + 300)) NCSYNC_VM_LOG=$out/sysfuzz-kernel.log \
	"$top/tools/vm-run" -p "${FUZZ_PARAMS:-cores=4 lnc=2}" \
	"$out/ncsync-sysfuzz" -t "$secs" \
	-w "$workers" -j "$threads" ${FUZZ_SEED:+-s "$FUZZ_SEED"} \
	> "$vm_log" 2>&1
st=$?
# A kernel report fails the run even when the fuzzer itself passed.
ok_line='s/^ok 1 - /ok 3 - /'
[ $st -eq 0 ] || ok_line='s/^ok 1 - /# fuzzer: ok - /'
tr -d '\r' < "$vm_log" | grep -vE '^(TAP version|1\.\.1$)' |
	sed -e "$ok_line" -e 's/^not ok 1 - /not ok 3 - /' \
	    -e '/^\(not \)\?ok 3 - /!{/^#/!s/^/# /}'
if [ $st -ne 0 ]; then
	rc=1
	if ! tr -d '\r' < "$vm_log" | grep -q '^not ok 1 '; then
		case $st in
		124) why="VM timed out" ;;
		125) why="kernel report or VM failure" ;;
		*) why="exited $st" ;;
		esac
		echo "not ok 3 - sysfuzz: $why (log: $vm_log)"
	fi
fi

# The checker against the kernel: a short round in make check (20 s: 60
# programs), a longer one in make fuzz.
seed=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
diff_log=$out/check-diff.log
NCSYNC_VM_TIMEOUT=$((secs * 3 + 300)) "$top/tools/vm-run" "$out/check-diff" \
	--count $((secs * 3)) --seed "$seed" > "$diff_log" 2>&1
st=$?
tr -d '\r' < "$diff_log" | grep -vE '^(TAP version|1\.\.1$)' |
	sed -e 's/^ok 1 - /ok 4 - check-diff: /' \
	    -e 's/^not ok 1 - /not ok 4 - check-diff: /' \
	    -e '/^\(not \)\?ok 4 - /!{/^#/!s/^/# /}'
if [ $st -ne 0 ] || ! tr -d '\r' < "$diff_log" | grep -q '^ok 1 '; then
	rc=1
	tr -d '\r' < "$diff_log" | grep -q '^not ok 1 ' ||
		echo "not ok 4 - check-diff: exited $st, no result (log: $diff_log)"
fi

# SPIN against the checker, on the host (lib/test/check_spin.c).
spin_log=$out/check-spin.log
"$build/lib/test/check_spin" --time "$secs" --seed "$seed" > "$spin_log" 2>&1
st=$?
grep -vE '^1\.\.[01]' "$spin_log" |
	sed -e 's/^ok 1 - /ok 5 - check-spin: /' \
	    -e 's/^not ok 1 - /not ok 5 - check-spin: /' \
	    -e 's/^1\.\.0 # SKIP/ok 5 - check-spin # SKIP/' \
	    -e '/^\(not \)\?ok 5 - /!{/^#/!s/^/# /}'
if [ $st -ne 0 ]; then
	rc=1
	grep -q '^not ok 1 ' "$spin_log" ||
		echo "not ok 5 - check-spin: exited $st, no result (log: $spin_log)"
fi
exit $rc
