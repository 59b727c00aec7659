#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: one JSON vocabulary in every command of ncsync(1).
#
# Runs every command that prints with -j, in every form that adds names
# (a blocked program for dump and top, a deadlock and a cancelled run for
# run, replay of check -j's schedules, every kind of notification for
# monitor, dump and top of a logical core of two, the module reloaded for
# them), keeps each output, and
# has ncsync_json_vocab.py check them against the table of
# Documentation/ncsync/tool.rst, "JSON vocabulary": each output parses,
# every name is in the table with the table's type, every name of the
# table is printed.  selftests/run.sh runs it in the test VM with the
# module loaded.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# $build, $N, $ex, $py, $tmp; the TAP header, or a skip.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"
files=

# j NAME ARGS...: ncsync -j ARGS, standard output kept as the output NAME
# (whatever the exit status: run of a deadlock exits 1).
j() {
	name=$1
	shift
	"$N" -j "$@" > "$tmp/$name.json" 2> "$tmp/$name.err" < /dev/null
	files="$files $name=$tmp/$name.json"
}

printf 'engine pool\n\tnop wait sem[50] >= 1\n\texit\n' > "$tmp/block.s"
"$N" sem set 50 0 > /dev/null
"$N" event set 61 > /dev/null

j info info
j sem-get sem get 3..4
j sem-set sem set 3 -7
j sem-inc sem inc 3
j sem-dec sem dec 3
j event-get event get 9..10
j event-set event set 10
j event-clear event clear 10
j reset reset
"$N" event set 61 > /dev/null
j wait-sem wait sem 3 '<=' 0
j wait-event wait event 61 set
j asm asm "$ex/token-ring.s"
"$N" asm -o "$tmp/ring.img" "$ex/token-ring.s" > /dev/null
j disasm disasm "$tmp/ring.img"
j run-done run "$ex/producer-consumer.s"
j run-deadlock run "$ex/deadlock.s"
j run-barrier-skip run "$ex/barrier-skip.s"
j run-cancelled run --timeout 200 --watchdog 60000 "$tmp/block.s"
j run-timeline run --timeline "$tmp/t.svg" "$ex/fence.s"
j check-deadlock check "$ex/deadlock.s"
j check-barrier-skip check "$ex/barrier-skip.s"
j check-race check "$ex/publish-race.s"
j check-safe check "$ex/token-ring.s"
# fence.s: engines searched as interchangeable ("symmetry", "class").
j check-symmetry check "$ex/fence.s"
# A counter that takes only even values, waited on for 5: its values.
printf 'engine pool\n\tnop then sem[2] += 2\n\tnop then sem[2] += 2\n\texit\nengine act\n\tnop wait sem[2] == 5\n\texit\n' > "$tmp/even.s"
j check-unposted check "$tmp/even.s"
j check-fell-back check "$ex/abba.s"
# replay of the schedules check -j printed: the defect each ends at.
j replay-deadlock replay "$ex/deadlock.s" "@$tmp/check-deadlock.json"
j replay-race replay "$ex/publish-race.s" "@$tmp/check-race.json"
j replay-cores replay "$ex/pingpong-cores.s" 0:pool@0.fx
j dump-all dump --all
j notify-on notify on
j notify notify

# A blocked program for dump and top.
"$N" run --watchdog 60000 "$tmp/block.s" > /dev/null 2>&1 &
rpid=$!
i=0
while [ $i -lt 100 ] && ! "$N" dump 2> /dev/null | grep -q blocked; do
	sleep 0.1
	i=$((i + 1))
done
j dump dump
j top top --once
"$N" sem set 50 1 > /dev/null
wait $rpid

# Every kind of notification: an event write, a program's end, a fault.
# Event notifications are turned off after the first, so that no event
# the programs write takes the place of their ends in the three.
monitor_bg -j monitor --count 3 --timeout 30000
"$N" event clear 61 > /dev/null
"$N" notify off > /dev/null
"$N" run "$ex/fence.s" > /dev/null 2>&1
"$N" run "$ex/deadlock.s" > /dev/null 2>&1
wait $mpid
files="$files monitor=$tmp/mon.out"
"$N" sem set 3 0 > /dev/null

# dump, top and run of a logical core of two cores (logical_core, lnc,
# cores): the module reloaded with cores=2 lnc=2 for them, then as it
# was.  If that cannot be done, the names they add are missing and the
# check fails.
tool=$N
sys=/sys/module/ncsync
# shellcheck source=selftests/ncsync_module.sh
. "$here/ncsync_module.sh"
if ko=$(ncsync_module_file); then
	saved=$(ncsync_module_params)
	# shellcheck disable=SC2046 # one word per parameter
	if ncsync_load $(ncsync_params_with cores=2 lnc=2) > /dev/null; then
		j dump-lnc dump -c 1
		j top-lnc top --once
		j run-cores run "$ex/pingpong-cores.s"
	fi
	# shellcheck disable=SC2086 # one word per parameter
	ncsync_load $saved > /dev/null || echo "# cannot load the module again"
fi

# shellcheck disable=SC2086 # one word per output
$py "$here/ncsync_json_vocab.py" "$top/Documentation/ncsync/tool.rst" $files
