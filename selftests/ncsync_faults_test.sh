#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: load/unload cycles of the module, with activity.
#
# selftests/run.sh runs this inside the test VM with the module loaded.  It
# unloads that module, then loads and unloads it NCSYNC_CYCLES times (100)
# with a little activity each time (ncsync_faults_procs_test --cycle-activity:
# open both cores, programs that end and one left blocked, a mapping, a
# wait left blocked in a thread, then close), and leaves the module loaded
# again with the parameters it had.  Every unload must succeed at once:
# nothing the activity did may keep the module busy once its process is
# gone.  Prints TAP.
#
# The module file loaded again is the first of $NCSYNC_KO,
# build/module/ncsync.ko (tools/vm-run) and build/debug/src/ncsync.ko
# (tools/check-debug) built for the running kernel (vermagic) and, when the kernel
# shows the loaded module's srcversion, with the same one; without one,
# every test is skipped.  Outside the VM (NCSYNC_IN_VM unset) nothing is
# done: it never unloads a host's module.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
tool=$build/tools/ncsync
helper=$build/selftests/ncsync_faults_procs_test
cycles=${NCSYNC_CYCLES:-100}
sys=/sys/module/ncsync
. "$here/ncsync_module.sh"
tap_plan 5 load_unload

# Kernel log lines vm-run would fail the run for.
reports() {
	dmesg 2>/dev/null | grep -cE 'WARNING|BUG|Oops|Call Trace|general protection|UBSAN|KASAN|lockdep|circular locking|refcount_t|hung_task|blocked for more than|soft lockup'
}

# The module file the loaded module came from: we load it again; and its
# parameters.
ncsync_reload_begin "$helper"
params=$saved
reports0=$(reports)

# 1: unload the module the VM loaded
if out=$("$tool" unload 2>&1) && [ ! -d $sys ]; then
	tap_ok "unload the loaded module"
else
	tap_not_ok "unload the loaded module # $out (refcnt $(cat $sys/refcnt 2>/dev/null))"
	tap_skip_rest "the module could not be unloaded"
fi

# 2: the cycles
i=0
why=
while [ $i -lt "$cycles" ]; do
	i=$((i + 1))
	# shellcheck disable=SC2086 # one word per parameter
	if ! out=$("$tool" load --path "$ko" $params 2>&1); then
		why="cycle $i: load: $out"
		break
	fi
	if [ ! -c /dev/ncsync0 ]; then
		why="cycle $i: no /dev/ncsync0 after load"
		break
	fi
	if ! out=$("$helper" --cycle-activity 2>&1); then
		why="cycle $i: activity: $out"
		break
	fi
	if ! out=$("$tool" unload 2>&1) || [ -d $sys ]; then
		why="cycle $i: unload: $out (refcnt $(cat $sys/refcnt 2>/dev/null))"
		break
	fi
done
if [ -z "$why" ]; then
	tap_ok "$cycles load/activity/unload cycles"
else
	tap_not_ok "$cycles load/activity/unload cycles # $why"
fi

# 3: unload is refused while a descriptor is open, and succeeds once the
# last one is closed.
# shellcheck disable=SC2086
if [ -d $sys ] || "$tool" load --path "$ko" $params >/dev/null 2>&1; then
	fifo=$(mktemp -u /tmp/ncsync-faults.XXXXXX)
	mkfifo "$fifo"
	sh -c 'exec 9</dev/ncsync0 && read x <"$1"' sh "$fifo" &
	holder=$!
	t=0
	while [ "$(readlink /proc/$holder/fd/9)" != /dev/ncsync0 ] &&
	      [ $t -lt 200 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	if "$tool" unload >/dev/null 2>&1; then
		tap_not_ok "unload refused while a descriptor is open # it unloaded"
		kill $holder 2>/dev/null
	else
		echo go >"$fifo"
		wait $holder
		if out=$("$tool" unload 2>&1) && [ ! -d $sys ]; then
			tap_ok "unload refused while a descriptor is open, then done"
		else
			tap_not_ok "unload after the last close # $out"
		fi
	fi
	rm -f "$fifo"
else
	tap_not_ok "unload refused while a descriptor is open # cannot load"
fi

# 4: leave it loaded, as found
# shellcheck disable=SC2086
[ -d $sys ] || "$tool" load --path "$ko" $params >/dev/null 2>&1
now=$(ncsync_module_params)
if [ -d $sys ] && [ "$now" = "$params" ] && [ -c /dev/ncsync0 ]; then
	tap_ok "loaded again with its parameters"
else
	tap_not_ok "loaded again with its parameters # have '$now', want '$params'"
fi

# 5: the kernel log
if [ "$(reports)" = "$reports0" ]; then
	tap_ok "kernel log clean"
else
	tap_not_ok "kernel log clean # $(dmesg | grep -E 'WARNING|BUG|Oops|Call Trace|general protection|UBSAN|KASAN|lockdep|circular locking|refcount_t|hung_task|blocked for more than|soft lockup' | head -5)"
fi
exit $tap_failed
