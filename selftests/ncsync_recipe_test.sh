#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: a C program of one's own, as the documentation says to
# build one.  The program is the EXAMPLES of ncsync_program_submit(3)
# (open core 0, build, submit, wait, read the semaphore through the
# mapping); the compiler lines are those of Documentation/ncsync/
# building.rst, "A program of your own" (static, then shared with
# LD_LIBRARY_PATH=build/lib), run from the top of the tree.  Each must
# build, and its program print "done: sem[30] = 1" and exit 0.
# selftests/run.sh runs it in the test VM.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# The TAP header, or a skip outside the VM; $build, $N, $tmp.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"
cd "$top" || exit 1
n=0
failed=0

result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		sed 's/^/#   /' "$tmp/log" | head -n 20
	fi
}

# The example: the .nf block after ".SH EXAMPLES", its escapes undone.
sed -n '/^\.SH EXAMPLES/,/^\.SH/p' lib/man/ncsync_program_submit.3 |
	sed -n '/^\.nf$/,/^\.fi$/p' | sed '1d;$d' |
	sed -e 's/\\-/-/g' -e 's/\\e/\\/g' > "$tmp/prog.c"
echo "no example in ncsync_program_submit(3)" > "$tmp/log"
grep -q 'ncsync_sem_read' "$tmp/prog.c" && grep -q '^int main' "$tmp/prog.c"
result $? "ncsync_program_submit(3) has a whole program"

# The recipe's compiler lines, in the order written: static, shared.
sed -n '/^A program of your own$/,/^The library.s exported symbols$/p' \
	Documentation/ncsync/building.rst |
	sed -n 's/^	\(cc -I.*\)$/\1/p' > "$tmp/cc"
echo "not two cc lines in building.rst: $(cat "$tmp/cc")" > "$tmp/log"
[ "$(wc -l < "$tmp/cc")" = 2 ]
result $? "building.rst has a static and a shared recipe"

k=0
while read -r line; do
	k=$((k + 1))
	how=static
	[ $k = 2 ] && how=shared
	cmd=$(echo "$line" | sed -e "s# -o prog prog.c # -o $tmp/prog-$how $tmp/prog.c #")
	# shellcheck disable=SC2086 # the recipe's words
	$cmd > "$tmp/log" 2>&1
	result $? "the $how recipe builds the example: $line"
	LD_LIBRARY_PATH=$build/lib "$tmp/prog-$how" > "$tmp/out" 2> "$tmp/log"
	rc=$?
	cat "$tmp/out" >> "$tmp/log"
	[ $rc = 0 ] && [ "$(cat "$tmp/out")" = "done: sem[30] = 1" ]
	result $? "the $how example runs: done, sem[30] read as 1"
done < "$tmp/cc"
[ $k = 2 ] || result 1 "two recipes run"
# The static one needs no library at run time.
env -u LD_LIBRARY_PATH "$tmp/prog-static" > "$tmp/log" 2>&1
result $? "the static example runs without LD_LIBRARY_PATH"
! env -u LD_LIBRARY_PATH "$tmp/prog-shared" > "$tmp/log" 2>&1 &&
	grep -q 'libncsync.so' "$tmp/log"
result $? "the shared example needs LD_LIBRARY_PATH (the loader names the library)"

echo "1..$n"
[ $failed = 0 ]
