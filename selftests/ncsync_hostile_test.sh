#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the hostile-user cases that need the module loaded with
# parameters of its own (the ncsync_hostile_*_test binaries have the
# others):
#
#  1. user_mem_cap: reload with user_mem_mb=32 fd_mem_mb=24 and run
#     ncsync_hostile_mem_test -r hostile.user_mem_cap (one user's descriptors
#     together stay under user_mem_mb, each under fd_mem_mb);
#  2. held_memory: reload with user_mem_mb=64 fd_mem_mb=64 and run
#     ncsync_hostile_mem_test -r hostile.held_memory_within_user_cap (a user
#     filling its cap with queues of 8,193 records takes no more MemFree
#     than the cap: what the allocators hold is charged);
#  3. load_enomem: "insmod ncsync.ko cores=64 devmem_kb=65536" asks for
#     4 GiB of device memory in the 1 GiB guest: it must fail with ENOMEM
#     ("Cannot allocate memory"), the module must not stay loaded, and the
#     kernel log must have no OOM-killer or allocation-failure report;
#  4. teardown_soak: reload with cores=2 lnc=2 and run ncsync_teardown_test
#     reset_soak and close_soak (resets and closes while programs across
#     cores land copies on each other's core; about 10 s each) and
#     other_uid (the same with the peer's descriptor another user's,
#     passed through SCM_RIGHTS); no kernel-log report;
#  5. unload_soak: for about 10 s, load with cores=2 lnc=2, leave programs
#     whose copies land on the peer core in flight (ncsync_teardown_test
#     inflight_exit) and unload at once; each unload must succeed, and
#     the kernel log must get no report (a completion update after its
#     core's banks went, objects left in the module's caches); with
#     NCSYNC_UNLOAD_ROUNDS=N it goes on until N rounds have run, however
#     long they take (issue 25's reproducer: Documentation/ncsync/
#     debug-tier.rst);
#  6. load_again: the module loads again, with the parameters it had.
#
# selftests/run.sh runs this inside the test VM with the module loaded; it
# is left loaded as found.  The module file loaded again is the first of
# $NCSYNC_KO, build/module/ncsync.ko and build/debug/src/ncsync.ko that is
# built for the running kernel and, when the kernel shows the
# loaded module's srcversion, has the same one.  Outside the VM
# (NCSYNC_IN_VM unset) nothing is done.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
tool=$build/tools/ncsync
bin=$build/selftests/ncsync_hostile_mem_test
tbin=$build/selftests/ncsync_teardown_test
sys=/sys/module/ncsync
# Kernel log lines of a load that did not fail cleanly.
oom_re='invoked oom-killer|Out of memory|oom-kill:|page allocation failure|vmalloc error|Call Trace'
# Kernel log lines of a teardown that went wrong.
bad_re='BUG|Oops|WARNING|KASAN|Objects remaining|general protection|Call Trace'
# How long each soak runs, in ms.
soak_ms=${NCSYNC_SOAK_MS:-10000}
# The least number of unload_soak rounds, whatever the time.
min_rounds=${NCSYNC_UNLOAD_ROUNDS:-1}
. "$here/ncsync_module.sh"
tap_plan 6 hostile

oom_reports() {
	dmesg 2>/dev/null | grep -cE "$oom_re"
}

bad_reports() {
	dmesg 2>/dev/null | grep -cE "$bad_re"
}

# One result @1: new kernel-log reports since @2 (bad_reports) fail it.
tap_reports() {
	n=$(($(bad_reports) - $2))
	if [ $n -gt 0 ]; then
		dmesg | grep -E "$bad_re" | head -5 | tap_diag
		tap_not_ok "$1 # $n kernel-log reports"
		return 1
	fi
	return 0
}

# One round of unload_soak: load, leave copies in flight, unload.
unload_round() {
	# shellcheck disable=SC2046 # one word per parameter
	out=$(ncsync_load $(ncsync_params_with cores=2 lnc=2)) ||
		{ echo "load: $out"; return 1; }
	out=$(NCSYNC_TEARDOWN=inflight_exit "$tbin" 2>&1) ||
		{ echo "$out" | tap_diag; echo "inflight_exit failed"; return 1; }
	ncsync_unload || { echo "cannot unload (refcnt $(cat $sys/refcnt))"; return 1; }
}

ncsync_reload_begin "$bin"

# 1: the per-user cap, with caps small enough to fill under TCG
# shellcheck disable=SC2046 # one word per parameter
if out=$(ncsync_load $(ncsync_params_with user_mem_mb=32 fd_mem_mb=24)); then
	tap_run user_mem_cap "user_mem_mb=32 fd_mem_mb=24" \
		"$bin" -r hostile.user_mem_cap
else
	tap_not_ok "user_mem_cap # load with user_mem_mb=32 fd_mem_mb=24: $out"
fi

# 2: what the allocators hold is charged
# shellcheck disable=SC2046 # one word per parameter
if out=$(ncsync_load $(ncsync_params_with user_mem_mb=64 fd_mem_mb=64)); then
	tap_run held_memory "user_mem_mb=64 fd_mem_mb=64" \
		"$bin" -r hostile.held_memory_within_user_cap
else
	tap_not_ok "held_memory # load with user_mem_mb=64 fd_mem_mb=64: $out"
fi

# 3: 64 cores of 64 MiB each cannot be had; the load must say so cleanly
if ncsync_unload; then
	before=$(oom_reports)
	if command -v insmod >/dev/null 2>&1; then
		out=$(insmod "$ko" cores=64 devmem_kb=65536 2>&1)
	else
		out=$("$tool" load --path "$ko" cores=64 devmem_kb=65536 2>&1)
	fi
	rc=$?
	stayed=no
	[ -d $sys ] && stayed=yes
	ncsync_unload
	after=$(oom_reports)
	why=
	[ $rc != 0 ] && [ $stayed = no ] || why="; it loaded"
	echo "$out" | grep -q 'Cannot allocate memory' ||
		why="$why; exit status $rc, not ENOMEM: '$out'"
	if [ "$after" != "$before" ]; then
		dmesg | grep -E "$oom_re" | head -3 | tap_diag
		why="$why; $((after - before)) OOM or allocation-failure log lines"
	fi
	if [ -z "$why" ]; then
		tap_ok "load_enomem"
	else
		tap_not_ok "load_enomem # cores=64 devmem_kb=65536${why#;}"
	fi
else
	tap_not_ok "load_enomem # cannot unload (refcnt $(cat $sys/refcnt))"
fi

# 4: resets and closes while programs across cores land copies on a peer
before=$(bad_reports)
[ -x "$tbin" ] || tap_skip_rest "no $tbin (make selftests)"
# shellcheck disable=SC2046 # one word per parameter
if out=$(ncsync_load $(ncsync_params_with cores=2 lnc=2)); then
	res=$(NCSYNC_SOAK_MS=$soak_ms \
	      NCSYNC_TEARDOWN="reset_soak close_soak other_uid" \
	      "$tbin" 2>&1)
	rc=$?
	echo "$res" | tap_diag
	# The three ran and passed (inflight_exit is skipped on purpose).
	ran=$(echo "$res" |
	      grep -cE '^ok [0-9]+ teardown\.(reset_soak|close_soak|other_uid)$')
	if [ $rc != 0 ] || [ "$ran" != 3 ]; then
		tap_not_ok "teardown_soak # exit status $rc, $ran of 3 tests passed"
	elif tap_reports teardown_soak "$before"; then
		tap_ok teardown_soak
	fi
else
	tap_not_ok "teardown_soak # load with cores=2 lnc=2: $out"
fi

# 5: unload while copies land on the peer core, for about $soak_ms ms
before=$(bad_reports)
end=$(($(date +%s) + (soak_ms + 999) / 1000))
rounds=0
why=
while [ -z "$why" ] &&
      { [ $rounds -lt "$min_rounds" ] || [ "$(date +%s)" -lt $end ]; }; do
	why=$(unload_round) || why=${why:-failed}
	rounds=$((rounds + 1))
done
echo "# unload_soak: $rounds rounds"
if [ -n "$why" ]; then
	tap_not_ok "unload_soak # round $rounds: $why"
elif tap_reports unload_soak "$before"; then
	tap_ok unload_soak
fi

# 6: loaded again as found
tap_load_again
exit $tap_failed
