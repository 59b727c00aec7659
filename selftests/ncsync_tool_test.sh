#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the command-line tool ncsync(1) (tools/ncsync/).
#
# selftests/run.sh runs this inside the test VM with the module loaded.
# Every command is run for success, for usage errors (exit 2) and for
# failures (exit 1); -j output must be valid JSON; every example of
# examples/ must end as its header says; monitor must receive
# notifications; run --timeline must draw one lane per engine.  The last
# tests unload the module and load it again (ncsync load), with the
# parameters it had.  Prints TAP.
#
# The tool is $BUILD/tools/ncsync, the module $NCSYNC_KO (default
# $BUILD/module/ncsync.ko).  Outside the VM nothing is done.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# $build, $N, $ex, $py, $tmp; the TAP header, or a skip.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"
ko=${NCSYNC_KO:-$build/module/ncsync.ko}
sys=/sys/module/ncsync
n=0
failed=0
out=$tmp/out
err=$tmp/err
cd "$top" || exit 1

pass() {
	n=$((n + 1))
	echo "ok $n - $*"
}

fail() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
	for f in "$out" "$err"; do
		[ -s "$f" ] && sed 's/^/#   /' "$f" | head -n 20
	done
}

# t EXPECTED_STATUS DESCRIPTION CMD [ARGS...]: run CMD, output in $out
# and $err; the test passes when it exits with EXPECTED_STATUS.
t() {
	want=$1
	desc=$2
	shift 2
	"$@" > "$out" 2> "$err" < /dev/null
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass "$desc"
		return 0
	fi
	fail "$desc (exit $got, expected $want)"
	return 1
}

# check DESCRIPTION CMD...: pass when CMD succeeds (output left as is).
check() {
	desc=$1
	shift
	if "$@"; then
		pass "$desc"
	else
		fail "$desc"
	fi
}

# json FILE [PYTHON_EXPR]: FILE is valid JSON (and EXPR holds, d being
# the document)
json() {
	$py -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if (${2:-True}) else 1)" \
		"${1:-$out}" 2>> "$err"
}

has() {
	grep -q -e "$1" "${2:-$out}"
}

lacks() {
	! grep -q -e "$1" "${2:-$out}"
}

# usage errors: exit 2, a message naming the command, nothing on stdout
usage() {
	desc=$1
	shift
	if t 2 "$desc: exit 2" "$@"; then
		check "$desc: message on stderr" \
			grep -q '^ncsync: ' "$err"
	fi
}

# --- help and usage --------------------------------------------------------

# shellcheck disable=SC2016 # $c and $1 are the inner shell's
t 0 "--help" "$N" --help &&
	check "--help lists every command" sh -c \
	'for c in load unload info sem event reset wait asm disasm run dump monitor notify top; do grep -q "^  $c" "$1" || exit 1; done' \
	sh "$out"
t 0 "help run" "$N" help run && check "help run prints its usage" has '^usage: ncsync run FILE'
t 0 "help --help" "$N" help --help && check "help --help prints help's usage" has '^usage: ncsync help'
t 0 "--version" "$N" --version &&
	check "--version prints dkms.conf's version" has \
	"^ncsync $(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")\$"
usage "help with two arguments" "$N" help run asm
for c in load unload info sem event reset wait asm disasm run dump monitor notify top; do
	t 0 "$c --help exits 0" "$N" "$c" --help
done
usage "no command" "$N"
usage "unknown command" "$N" frobnicate
usage "unknown global option" "$N" --frob info
usage "unknown command option" "$N" info --frob
usage "-c out of range" "$N" -c 99 info
usage "-c without a value" "$N" info -c
usage "help of an unknown command" "$N" help frob

# --- info --------------------------------------------------------------------

t 0 "info" "$N" info && check "info names the core" has '^core 0 of '
t 0 "info -j" "$N" -j info &&
	check "info -j is valid JSON: 256 semaphores" json "$out" 'd["num_sems"] == 256'
t 0 "-c 1 info" "$N" -c 1 info && check "-c 1 info is core 1" has '^core 1 of '
t 0 "info -c 1 (option after the command)" "$N" info -c 1
t 1 "info on a core that does not exist" "$N" -c 63 info &&
	check "error format: ncsync: open /dev/ncsync63: strerror" \
	grep -q '^ncsync: open /dev/ncsync63: No such file or directory' "$err"

# --- sem ---------------------------------------------------------------------

t 0 "sem set 3 42" "$N" sem set 3 42 && check "sem set prints the value" has '^sem\[3\] = 42$'
t 0 "sem get 3" "$N" sem get 3 && check "sem get of one index prints the bare value" has '^42$'
t 0 "sem inc 3" "$N" sem inc 3 && check "sem inc adds 1" has '^sem\[3\] = 43$'
t 0 "sem dec 3 5" "$N" sem dec 3 5 && check "sem dec subtracts 5" has '^sem\[3\] = 38$'
t 0 "sem set 3 -7 (negative value)" "$N" sem set 3 -7 &&
	check "a negative value is an operand, not an option" has '^sem\[3\] = -7$'
t 0 "sem set 4 0x10" "$N" sem set 4 0x10 && check "hex value" has '^sem\[4\] = 16$'
t 0 "sem get 3..4 5" "$N" sem get 3..4 5 &&
	check "sem get of several prints sem[N] = V" has '^sem\[4\] = 16$'
t 0 "sem get -j" "$N" -j sem get 3..4 &&
	check "sem get -j is valid JSON: sem[3] = -7" json "$out" \
	'd[0]["value"] == -7 and len(d) == 2'
t 0 "sem set -j" "$N" sem set 3 0 -j && check "sem set -j is valid JSON" json
"$N" sem set 4 0 > /dev/null
usage "sem without a subcommand" "$N" sem
usage "sem with an unknown subcommand" "$N" sem frob 1
usage "sem get without an index" "$N" sem get
usage "sem get 256" "$N" sem get 256
usage "sem get 5..3" "$N" sem get 5..3
usage "sem set without a value" "$N" sem set 3
usage "sem set with a bad value" "$N" sem set 3 x
usage "sem set out of 32 bits" "$N" sem set 3 4294967296
usage "sem inc with an extra word" "$N" sem inc 3 1 2
t 1 "sem get on a missing core" "$N" -c 63 sem get 0

# --- event -------------------------------------------------------------------

t 0 "event set 9" "$N" event set 9 && check "event set prints ev[9] = 1" has '^ev\[9\] = 1$'
t 0 "event get 9" "$N" event get 9 && check "event get prints 1" has '^1$'
t 0 "event clear 9" "$N" event clear 9
t 0 "event get 8..9" "$N" event get 8..9 && check "event get after clear" has '^ev\[9\] = 0$'
t 0 "event get -j" "$N" -j event get 9 &&
	check "event get -j is valid JSON: clear" json "$out" 'd[0]["set"] is False'
t 0 "event set -j" "$N" -j event set 10 && check "event set -j is valid JSON" json
"$N" event clear 10 > /dev/null
usage "event without a subcommand" "$N" event
usage "event get 300" "$N" event get 300
usage "event toggle" "$N" event toggle 1
usage "event set without an index" "$N" event set

# --- wait --------------------------------------------------------------------

"$N" sem set 30 5 > /dev/null
t 0 "wait sem 30 == 5 (already true)" "$N" wait sem 30 == 5 --timeout 1000 &&
	check "wait prints the value seen" has '^sem\[30\] = 5$'
t 0 "wait sem 30 ge 5 (word form)" "$N" wait sem 30 ge 5 --timeout 1000
t 1 "wait sem 30 > 5 times out" "$N" wait sem 30 '>' 5 --timeout 100 &&
	check "the timeout message names the wait and the value" \
	grep -q '^ncsync: wait sem\[30\] > 5: timed out after 100 ms (now 5)$' "$err"
"$N" wait sem 31 '>=' 3 --timeout 10000 > "$tmp/wait.out" 2>&1 &
w=$!
sleep 0.3
"$N" sem set 31 3 > /dev/null
wait $w
check "wait wakes when another process sets the semaphore" \
	sh -c "[ $? -eq 0 ] && grep -q '^sem\[31\] = 3$' '$tmp/wait.out'"
t 1 "wait event 11 set times out" "$N" wait event 11 set --timeout 50 &&
	check "the event timeout says timed out" \
	grep -q '^ncsync: wait ev\[11\] set: timed out after 50 ms$' "$err"
"$N" event set 11 > /dev/null
t 0 "wait event 11 set_then_clear" "$N" wait event 11 set_then_clear --timeout 1000
t 0 "wait event 11 clear, after the then-clear" "$N" wait event 11 clear --timeout 100
t 0 "wait -j" "$N" -j wait sem 30 '<=' 5 && check "wait -j is valid JSON" json
"$N" sem set 30 0 > /dev/null
"$N" sem set 31 0 > /dev/null
# --- reset -------------------------------------------------------------------
"$N" sem set 30 7 > /dev/null
t 0 "reset" "$N" reset &&
	check "reset names the core" has '^core 0 reset (resets [0-9]*, seq [0-9]*)$'
t 0 "sem get after reset" "$N" sem get 30 &&
	check "reset zeroed the semaphore" has '^0$'
t 0 "reset -j" "$N" -j reset && check "reset -j is valid JSON" json &&
	check "reset -j has core, resets and seq" sh -c \
	"$py -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d[\"core\"] == 0 and d[\"resets\"] >= 2 and \"seq\" in d))' '$out'"
usage "reset with an argument" "$N" reset now
if command -v setpriv > /dev/null; then
	t 1 "reset by a user the node refuses" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$N" reset &&
		check "the refusal names the node's mode and group" \
		grep -q "^ncsync: open /dev/ncsync0: Permission denied (mode 0[0-7]*, group '[^']*': join the group" "$err"
fi

usage "wait without arguments" "$N" wait
usage "wait with a bad comparison" "$N" wait sem 1 '=~' 3
usage "wait event with a bad state" "$N" wait event 1 on
usage "wait sem with an event state" "$N" wait sem 1 set 3
usage "wait event with a comparison" "$N" wait event 1 '>='
usage "wait with a bad timeout" "$N" wait sem 1 == 0 --timeout -5
usage "wait sem missing the value" "$N" wait sem 1 ==

# --- asm and disasm ------------------------------------------------------------

for f in "$ex"/*.s; do
	b=$(basename "$f")
	t 0 "asm $b" "$N" asm "$f"
done
t 0 "asm -j" "$N" -j asm "$ex/token-ring.s" &&
	check "asm -j is valid JSON: five engines" json "$out" 'len(d["engines"]) == 5'
t 0 "asm -j of deadlock.s" "$N" -j asm "$ex/deadlock.s" &&
	check "asm -j decodes a P(): wait sem > 0 paired with sem_sub 1" json "$out" \
	'any(r["waits"] and r["waits"][0]["mode"] == 4 and r["waits"][0]["threshold"] == 0 and r["updates"][0]["op"] == "sem_sub" and r["updates"][0]["operand"] == 1 and r["updates"][0]["paired"] for e in d["engines"] for r in e["records"])'
t 0 "asm --lowering events" "$N" asm --lowering events "$ex/barrier-loop.s" &&
	check "the event form waits for events" has 'wait ev\['
t 0 "asm from stdin" sh -c "'$N' asm - < '$ex/deadlock.s'"
printf 'engine pool\n\tnop wait sem[1] >> 3\n' > "$tmp/bad.s"
t 1 "asm of a bad line" "$N" asm "$tmp/bad.s" &&
	check "the error names FILE:LINE:COL" grep -q "^ncsync: $tmp/bad.s:2:[0-9]*: " "$err"
t 1 "asm of a missing file" "$N" asm "$tmp/missing.s" &&
	check "error format: ncsync: FILE: strerror" \
	grep -q "^ncsync: $tmp/missing.s: No such file or directory$" "$err"
usage "asm without a file" "$N" asm
usage "asm with a bad lowering" "$N" asm --lowering fast "$ex/fence.s"
usage "asm with two files" "$N" asm "$ex/fence.s" "$ex/fence.s"

t 0 "asm -o image" "$N" asm -o "$tmp/ring.img" "$ex/token-ring.s"
"$N" asm "$ex/token-ring.s" > "$tmp/ring.txt"
t 0 "disasm of the image" "$N" disasm "$tmp/ring.img" &&
	check "disasm of the image prints what asm printed" cmp -s "$out" "$tmp/ring.txt"
t 0 "disasm -j" "$N" -j disasm "$tmp/ring.img" && check "disasm -j is valid JSON" json
t 0 "asm of the disassembly" "$N" asm "$tmp/ring.txt" &&
	check "asm(disasm(image)) is the same program" cmp -s "$out" "$tmp/ring.txt"
printf 'engine pool\n\tnop then sem[1]++\n\texit\n' > "$tmp/one.s"
"$N" asm -o "$tmp/one.img" "$tmp/one.s" && tail -c 128 "$tmp/one.img" > "$tmp/one.raw"
t 0 "disasm of bare records" "$N" disasm "$tmp/one.raw" &&
	check "one line per record" sh -c "[ \$(wc -l < '$out') -eq 2 ] && grep -q '^exit$' '$out'"
t 0 "disasm --engine of bare records" "$N" disasm --engine pool "$tmp/one.raw" &&
	check "disasm --engine prints a stream" has '^engine pool$'
head -c 65 "$tmp/one.img" > "$tmp/short.bin"
t 1 "disasm of a file that is not records" "$N" disasm "$tmp/short.bin"
usage "disasm with a bad engine" "$N" disasm --engine dma "$tmp/one.raw"
usage "disasm without a file" "$N" disasm

# --- run: the examples ---------------------------------------------------------

t 0 "run barrier-loop.s" "$N" run "$ex/barrier-loop.s" &&
	check "barrier-loop: done, sem[0] = 100" sh -c \
	"grep -q 'program [0-9]* on core 0: done' '$out' && grep -q '\[0\]=100' '$out'"
t 0 "run --lowering events barrier-loop.s" "$N" run --lowering events "$ex/barrier-loop.s" &&
	check "barrier-loop (event form): sem[0] = 100" has '\[0\]=100'
# The conformance profile: barrier-loop's checks wait LE on an
# EventSemaphore, which the real encoder does not emit; a counter-form
# barrier alone conforms.
t 1 "run --conformance barrier-loop.s" "$N" run --conformance "$ex/barrier-loop.s" &&
	check "barrier-loop: refused by the profile, with the reason" grep -q \
	'record [0-9]*: conformance: EventSemaphore wait not GE' "$err"
printf 'engine pool\n\tnop then sem[0]++\nengine sp\n\tnop then sem[0]++\nbarrier\n' \
	> "$tmp/conform.s"
t 0 "run --conformance of a counter-form barrier" "$N" run --conformance "$tmp/conform.s" &&
	check "conform.s: done, the counter at 2 (two +1 arrivals)" sh -c \
	"grep -q 'on core 0: done' '$out' && grep -q '\[240\]=2 ' '$out'"
# What the lowering owns, off its value at the start: run warns, names
# it and suggests a reset (the one-engine barrier still runs).
printf 'engine pool\n\tbarrier\n\tnop then sem[7]++\n' > "$tmp/idle.s"
"$N" sem set 240 -3 > /dev/null
t 0 "run with the barrier counter left negative" "$N" run "$tmp/idle.s" &&
	check "run warns: sem[240] = -3, not >= 0, and suggests a reset" sh -c \
	"grep -q '^ncsync: warning: .*idle.s: core 0: sem\[240\] = -3, a counter of the all-engine barrier.s counter form, is not >= 0 when the program starts' '$err' && grep -q 'reset the core first: ncsync -c 0 reset' '$err'"
t 0 "run it again" "$N" run "$tmp/idle.s" &&
	check "no warning: its start set the counter" sh -c "! grep -q warning '$err'"
"$N" event set 241 > /dev/null
t 0 "run --lowering events with an event bit left set" "$N" run --lowering events "$tmp/idle.s" &&
	check "run warns: ev[241] = 1, not clear" grep -q \
	'warning: .*core 0: ev\[241\] = 1, an event bit of the all-engine barrier.s event form, is not clear' "$err"
"$N" reset > /dev/null
t 0 "run producer-consumer.s" "$N" run "$ex/producer-consumer.s" &&
	check "producer-consumer: sem[2] = 8, sem[3] = 64" sh -c \
	"grep -q '\[2\]=8 ' '$out' && grep -q '\[3\]=64' '$out' && ! grep -q '\[1\]=' '$out'"
t 0 "run token-ring.s" "$N" run "$ex/token-ring.s" &&
	check "token-ring: sem[10] = 1, sem[15] = 50" sh -c \
	"grep -q '\[10\]=1 ' '$out' && grep -q '\[15\]=50' '$out'"
t 0 "run fence.s" "$N" run "$ex/fence.s" &&
	check "fence: sem[20] = 5, sem[21] = 0" sh -c \
	"grep -q '\[20\]=5' '$out' && ! grep -q '\[21\]=' '$out'"
t 0 "run dma-drain.s" "$N" run "$ex/dma-drain.s" &&
	check "dma-drain: stale without drain, fresh with it" sh -c \
	"grep -q '\[44\]=1' '$out' && grep -q '\[45\]=1' '$out'"
start=$(date +%s)
t 1 "run deadlock.s fails" "$N" run "$ex/deadlock.s"
end=$(date +%s)
check "deadlock: timed out" has ': timed_out after'
check "deadlock: pool's wait and value" has 'engine 1 pool blocked .*waits for sem\[2\] > 0 (lane 0), now 0'
check "deadlock: pe's wait and value" has 'engine 3 pe   blocked .*waits for sem\[1\] > 0 (lane 0), now 0'
check "deadlock: the non-zero semaphores" has '\[3\]=2'
check "deadlock: the cycle" has 'deadlock: pool -> pe -> pool'
check "deadlock: the error on stderr" grep -q '^ncsync: .*deadlock.s: program [0-9]* timed out' "$err"
check "deadlock: the file's '# options: --watchdog 1000' applies" \
	sh -c "grep -q 'no progress for 1000 ms' '$out' && [ $((end - start)) -lt 8 ]"
t 1 "run --watchdog 1500 overrides the file's options" "$N" run --watchdog 1500 "$ex/deadlock.s" &&
	check "the command line's watchdog wins" has 'no progress for 1500 ms'
t 1 "run -j deadlock.s" "$N" -j run "$ex/deadlock.s" &&
	check "run -j is valid JSON: timed_out, two stuck engines" json "$out" \
	'd["state"] == "timed_out" and len(d["deadlock"]) == 2'
t 0 "run -j producer-consumer.s" "$N" run -j "$ex/producer-consumer.s" &&
	check "run -j of a done program is valid JSON" json
t 0 "run of an image" "$N" run "$tmp/ring.img"
# The examples before it leave sem[50] set: without a reset Activation may
# take that "ready" before pool's clear (examples/publish-race.s).
"$N" reset > /dev/null
t 0 "run publish-race.s" "$N" run "$ex/publish-race.s" &&
	check "publish-race: both copies landed" sh -c \
	"grep -q '\[51\]=1' '$out' && grep -q '\[52\]=1' '$out'"

# The seeds' per-engine 0xD5 bundle (SYNC: each engine does sem[S] += 1
# and is released at sem[S] >= N) runs as a barrier: done, and every
# engine finds all five arrivals after it.
{
	printf 'engine pool\n\tsema_clear 30\n'
	for e in act pe dve sp; do printf 'engine %s\n\tnop\n' $e; done
	printf 'barrier\nbarrier wait sem[30] >= 5 then sem[30]++\n'
	for e in pool act pe dve sp; do
		printf 'engine %s\n\tnop wait sem[30] == 5\n\texit\n' $e
	done
} > "$tmp/own.s"
t 0 "run of a 0xD5 with the barrier's own block" "$N" run --watchdog 3000 "$tmp/own.s" &&
	check "own block: done, sem[30] = 5" sh -c \
	"grep -q ': done after' '$out' && grep -q '\[30\]=5' '$out'"

# --- run --check: the checker before the submission -------------------------

t 1 "run --check deadlock.s submits nothing" "$N" run --check "$ex/deadlock.s" &&
	check "run --check: the deadlock and its cycle, no program run" sh -c \
	"grep -q 'cycle: pool -> pe -> pool' '$out' && ! grep -q 'timed_out' '$out' && grep -q 'not submitted' '$err'"
t 1 "run --check publish-race.s submits nothing" "$N" run --check "$ex/publish-race.s" &&
	check "run --check: the dma-race" has '^dma-race: '
t 0 "run --check producer-consumer.s checks, then runs" "$N" run --check "$ex/producer-consumer.s" &&
	check "run --check of a safe program: done, sem[3] = 64" sh -c \
	"grep -q 'program [0-9]* on core 0: done' '$out' && grep -q '\[3\]=64' '$out'"
t 0 "run from stdin" sh -c "'$N' run - < '$ex/producer-consumer.s'"

# --- run: failures and usage ------------------------------------------------------

"$N" sem set 50 0 > /dev/null
printf 'engine pool\n\tnop wait sem[50] >= 1\n\texit\n' > "$tmp/block.s"
t 1 "run --timeout cancels a program that does not end" \
	"$N" run --timeout 300 --watchdog 60000 "$tmp/block.s" &&
	check "run --timeout: cancelled, with the engine's wait" sh -c \
	"grep -q 'cancelled at --timeout' '$out' && grep -q 'waits for sem\[50\] >= 1' '$out'"
"$N" event clear 12 > /dev/null
printf 'engine pool\n\tnop then ev[12] set\n\tnop then ev[12] set\n\texit\n' > "$tmp/strict.s"
t 1 "run --strict faults on setting a set event" "$N" run --strict "$tmp/strict.s" &&
	check "run --strict: faulted, event_set_while_set" sh -c \
	"grep -q ': faulted after' '$out' && grep -q 'event_set_while_set' '$out'"
"$N" event clear 12 > /dev/null
t 0 "the same without --strict is done" "$N" run "$tmp/strict.s"
"$N" event clear 12 > /dev/null
printf 'engine pool\n\t.raw a4100000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 000000ff\n' > "$tmp/refused.s"
t 1 "run of a record the kernel refuses" "$N" run "$tmp/refused.s" &&
	check "the refusal names the engine, the record and the reason" \
	grep -q "^ncsync: .*refused.s: line 2: engine pool record 0: " "$err"
# A copy past the core's device memory: the kernel refuses it, and the
# error names its line.
dm=$("$N" -j info | $py -c 'import json, sys; print(json.load(sys.stdin)["devmem_size"])')
printf 'engine pool\n\tnop\n\tdma 0x0, %s, 4096\n\texit\n' "$dm" > "$tmp/pastdm.s"
t 1 "run of a copy past the device memory" "$N" run "$tmp/pastdm.s" &&
	check "the refusal names the copy's line" \
	grep -q "^ncsync: .*pastdm.s: line 3: engine pool record 1: DMA range or latency out of bounds" "$err"
t 1 "run of a bad text" "$N" run "$tmp/bad.s"
t 1 "run of a missing file" "$N" run "$tmp/missing.s"
usage "run without a file" "$N" run
usage "run --watchdog 0" "$N" run --watchdog 0 "$ex/fence.s"
usage "run --timeout x" "$N" run --timeout x "$ex/fence.s"
usage "run --lowering bogus" "$N" run --lowering bogus "$ex/fence.s"
printf '# options: --bogus\nengine pool\n\texit\n' > "$tmp/badopt.s"
usage "run with a bad '# options:' line" "$N" run "$tmp/badopt.s"

# --- timeline ------------------------------------------------------------------

lanes() {
	$py - "$1" "$2" 2>> "$err" <<'EOF'
import sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
labels = [t.text for t in root.iter(ns + 'text') if t.get('class') == 'l']
want = sys.argv[2].split()
sys.exit(0 if [l.split()[0] for l in labels] == want else 1)
EOF
}
# The timeline against its source: $1 the SVG, $2 the program's text, $3
# "barrier" when some wait must be a barrier's.  The header's time is the
# lanes' (the last tick at or below it, less than a step away); every
# wait's tooltip has its record's line, which names what it waits on
# (or is a barrier's, which waits on what the lowering owns).
tl_source() {
	$py - "$1" "$2" "${3:-}" 2>> "$err" <<'EOF'
import re, sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
src = open(sys.argv[2]).read().split('\n')
texts = list(root.iter(ns + 'text'))
head = re.search(r', ([0-9.]+) ms traced$', texts[0].text or '')
unit = {'s': 1e3, 'ms': 1.0, 'us': 1e-3}
ticks = [float(t.text.split()[0]) * unit[t.text.split()[1]]
         for t in texts if t.get('class') == 'a']
assert head and len(ticks) >= 2, 'header or ticks'
span, step = float(head.group(1)), ticks[1] - ticks[0]
assert ticks[-1] <= span + 1e-3 and span < ticks[-1] + step, (span, ticks)
barriers = lined = 0
for r in root.iter(ns + 'rect'):
    t = r.find(ns + 'title')
    m = t is not None and re.match(
        r'\S+ record \d+, line (\d+)(, barrier \(.*\))?: '
        r'waits for (sem|ev)\[(\d+)\]', t.text or '')
    if not m:
        continue
    line = src[int(m.group(1)) - 1]
    lined += 1
    if m.group(2):
        barriers += 1
        assert 'barrier' in line, (t.text, line)
    else:
        assert '%s[%s]' % (m.group(3), m.group(4)) in line, (t.text, line)
labels = [x.text for x in texts if x.get('class') == 'w']
assert lined, 'no wait with its line'
assert sys.argv[3] != 'barrier' or barriers, 'no barrier wait'
assert all(not re.match(r'sem\[24\d\]', x) for x in labels), labels
EOF
}
t 0 "run --timeline" "$N" run --timeline "$tmp/bl.svg" "$ex/barrier-loop.s" &&
	check "the timeline is an SVG with one lane per engine" lanes "$tmp/bl.svg" "pool act pe dve sp"
check "the timeline shows waits" grep -q 'waits for sem\[' "$tmp/bl.svg"
check "the timeline: barrier waits labelled, source lines, header time" \
	tl_source "$tmp/bl.svg" "$ex/barrier-loop.s" barrier
t 1 "run --timeline deadlock.s" "$N" run --timeline "$tmp/dl.svg" "$ex/deadlock.s" &&
	check "deadlock timeline: two lanes" lanes "$tmp/dl.svg" "pool pe"
check "deadlock timeline: the waits that never passed" grep -q 'never passed' "$tmp/dl.svg"
check "deadlock timeline: source lines, header time" \
	tl_source "$tmp/dl.svg" "$ex/deadlock.s"
# A program's copies: a DMA lane under its engines, a bar per copy
# from its issue to its landing, with the DMA record's line.
t 0 "run --timeline dma-drain.s" "$N" run --timeline "$tmp/dd.svg" "$ex/dma-drain.s" &&
	check "dma-drain timeline: a DMA lane under the engines" lanes "$tmp/dd.svg" "pool act DMA"
check "dma-drain timeline: its two copies landed" grep -q '>2 copies, 2 landed</text>' "$tmp/dd.svg"
check "dma-drain timeline: a copy's line and completion" grep -q \
	"pool record [0-9]*, line $(grep -n '^	dma 0x0, 0x1000' "$ex/dma-drain.s" | cut -d: -f1): copy 0, 4096 bytes, latency 200000 us: landed after [0-9.]* ms, then sem\[41\]++ on core 0<" "$tmp/dd.svg"
check "the timeline leaves no tracefs instance behind" \
	sh -c '! ls -d /sys/kernel/tracing/instances/ncsync-* 2>/dev/null'
usage "run --timeline with an empty name" "$N" run --timeline= "$ex/fence.s"
# An unwritable --timeline is refused before the program runs: the
# program would have counted in sem[70].
printf 'engine pool\n\tnop then sem[70]++\n\texit\n' > "$tmp/inc70.s"
"$N" sem set 70 0 > /dev/null
for p in "$tmp/no-such-dir/t.svg" "$top/t.svg"; do
	t 1 "run --timeline $p (not writable)" "$N" run --timeline "$p" "$tmp/inc70.s" &&
		check "--timeline $p: the error names it" grep -q -e "--timeline $p: " "$err"
	check "--timeline $p: the program did not run" \
		[ "$("$N" sem get 70)" = 0 ]
	check "--timeline $p: no file left" [ ! -e "$p" ]
done
# The timeline counts the records the engines completed, as the status
# does: not the ones they were blocked in at the end.
t 1 "run -j --timeline deadlock.s" "$N" -j run --timeline "$tmp/dl.svg" "$ex/deadlock.s" &&
	check "the timeline's records executed are the status's" sh -c \
	"n=\$(sed -n 's/.*>\([0-9]*\) records executed;.*/\1/p' '$tmp/dl.svg') &&
	 $py -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if sum(e[\"executed\"] for e in d[\"engines\"]) == int(sys.argv[2]) else 1)' '$out' \"\$n\""

# --- notify, monitor ---------------------------------------------------------------

t 0 "notify off" "$N" notify off
t 0 "notify" "$N" notify && check "notify shows off" has '^off$'
t 0 "notify on" "$N" notify on
t 0 "notify -j" "$N" -j notify &&
	check "notify -j is valid JSON: on" json "$out" 'd["notify"] is True'
usage "notify maybe" "$N" notify maybe

"$N" event clear 7 > /dev/null
monitor_bg monitor -c 0 --count 2 --timeout 10000
"$N" event set 7 > /dev/null
"$N" event clear 7 > /dev/null
wait $mpid
check "monitor --count 2 exits 0 after two notifications" [ $? -eq 0 ]
check "monitor shows the event set" grep -q '^core 0: ev\[7\] set' "$tmp/mon.out"
check "monitor shows the event clear" grep -q '^core 0: ev\[7\] clear' "$tmp/mon.out"

monitor_bg -j monitor --count 2 --timeout 10000
"$N" event set 7 > /dev/null
"$N" event clear 7 > /dev/null
wait $mpid
check "monitor -j exits 0" [ $? -eq 0 ]
check "monitor -j is valid JSON: two event notifications" json "$tmp/mon.out" \
	'[e["type"] for e in d] == ["event", "event"] and d[0]["index"] == 7'

"$N" notify off > /dev/null
monitor_bg monitor -c 0 --count 1 --timeout 20000
"$N" run "$ex/producer-consumer.s" > /dev/null
wait $mpid
check "monitor receives the end of a program" \
	grep -q '^core 0: program [0-9]* of pid [0-9]* ended done' "$tmp/mon.out"
monitor_bg monitor -c 0 --count 1 --timeout 20000
"$N" run "$ex/deadlock.s" > /dev/null 2>&1
wait $mpid
check "monitor receives a timeout with the engines' waits" sh -c \
	"grep -q 'ended timed_out' '$tmp/mon.out' && grep -q 'waits for sem\[2\] > 0, now 0' '$tmp/mon.out'"
t 1 "monitor --count with nothing to see times out with 1" "$N" monitor --count 1 --timeout 200
t 0 "monitor --timeout alone exits 0" "$N" monitor --timeout 100
usage "monitor --count 0" "$N" monitor --count 0
usage "monitor with an argument" "$N" monitor now

# --- dump, top -------------------------------------------------------------------

"$N" sem set 60 -3 > /dev/null
"$N" event set 61 > /dev/null
t 0 "dump" "$N" dump && check "dump shows the banks" sh -c \
	"grep -q '\[60\]=-3' '$out' && grep -q '^events: 1 set' '$out' && grep -q '^  61$' '$out'"
t 0 "dump --all" "$N" dump --all &&
	check "dump --all prints 32 rows of semaphores and 4 of events" sh -c \
	"[ \$(grep -c '^  *[0-9]*:  *-\{0,1\}[0-9]' '$out') -eq 36 ]"
t 0 "dump -j" "$N" -j dump &&
	check "dump -j is valid JSON: sem[60] and ev[61]" json "$out" \
	'{"index": 60, "value": -3} in d["sems"] and d["events"] == [{"index": 61, "set": True}]'
t 0 "dump -j --all" "$N" -j dump --all && check "dump -j --all: 256 values" json "$out" \
	'len(d["sems"]) == 256 and d["sems"][60]["value"] == -3 and len(d["events"]) == 256'
"$N" sem set 50 0 > /dev/null
"$N" run --watchdog 60000 "$tmp/block.s" > /dev/null 2>&1 &
rpid=$!
sleep 1
t 0 "dump while a program runs" "$N" dump &&
	check "dump shows the blocked engine's pc and wait" \
	has 'engine 1 pool pc 0 .*blocked: waits for sem\[50\] >= 1, now 0'
t 0 "top --once" "$N" top --once &&
	check "top shows the engine and the banks" sh -c \
	"grep -q 'waits for sem\[50\] >= 1' '$out' && grep -q '\[60\]=-3' '$out' && grep -q '^events set: 1' '$out'"
t 0 "top -j --once" "$N" -j top --once &&
	check "top -j --once is valid JSON: one program running" json "$out" \
	'len(d["programs"]) == 1'
"$N" sem set 50 1 > /dev/null
wait $rpid
check "the blocked program ends done once released" [ $? -eq 0 ]

# More programs than NCSYNC_CMD_GET_CORE's one message holds (about 30 of
# five engines): dump and top list them all, from its dump.
nmany=70
block_programs $nmany
t 0 "dump with $nmany programs" "$N" dump &&
	check "dump lists all $nmany programs" sh -c \
	"grep -q '^programs running: $nmany\$' '$out' && [ \$(grep -c '^  program [0-9]* of pid' '$out') -eq $nmany ] && ! grep -q 'not shown' '$out'"
t 0 "top -j --once with $nmany programs" "$N" -j top --once &&
	check "top -j lists all $nmany programs" json "$out" \
	"len(d['programs']) == $nmany"
"$N" sem set 50 1 > /dev/null
bad=0
for p in $pids; do
	wait "$p" || bad=$((bad + 1))
done
check "the $nmany programs end done once released" [ $bad -eq 0 ]
t 0 "top --iterations 2" "$N" top --iterations 2 --interval 50 &&
	check "two frames" sh -c "[ \$(grep -c '^ncsync top' '$out') -eq 2 ]"
usage "top --interval 1" "$N" top --interval 1
usage "dump with an argument" "$N" dump all
"$N" sem set 60 0 > /dev/null
"$N" sem set 50 0 > /dev/null
"$N" event clear 61 > /dev/null

# --- unload, load (last: they replace the module) --------------------------------------

params=
for p in "$sys"/parameters/*; do
	params="$params ${p##*/}=$(cat "$p")"
done
t 1 "load while loaded fails" "$N" load --path "$ko" &&
	check "load says it is loaded already" grep -q 'already loaded' "$err"
usage "load with an unknown option" "$N" load --frob
usage "load --path without a file" "$N" load --path
t 0 "unload" "$N" unload && check "the module is gone" [ ! -d $sys ]
t 1 "unload when not loaded" "$N" unload && check "unload says it is not loaded" grep -q 'not loaded' "$err"
t 1 "sem get without the module" "$N" sem get 0 &&
	check "the error says to load the module" grep -q 'ncsync load' "$err"
t 1 "monitor without the module" "$N" monitor --timeout 100
t 1 "load of a missing file" "$N" load --path "$tmp/none.ko"
t 1 "load with a bad parameter value" "$N" load --path "$ko" cores=0 &&
	check "a failed load leaves nothing loaded" [ ! -d $sys ]
t 0 "load with a parameter" "$N" load --path "$ko" cores=3 &&
	check "cores=3 makes /dev/ncsync2" [ -e /dev/ncsync2 ]
t 0 "info -j after load cores=3" "$N" -j -c 2 info &&
	check "info: three cores" json "$out" 'd["num_cores"] == 3 and d["core"] == 2'
t 0 "unload again" "$N" unload
# shellcheck disable=SC2086
t 0 "load with the parameters it had" "$N" load --path "$ko" $params

echo "1..$n"
[ $failed -eq 0 ]
