#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every ncsync selftest binary in turn (each prints TAP) and exit non-zero
# if any of them failed.  A binary that is missing, or that fails without
# reporting a failed test (crash, bail out), gets a "not ok" line of its own,
# so that every failure shows up as a TAP result.
#
# Usage: selftests/run.sh [DIR]   (default: $BUILD/selftests, or the build/
# directory next to this script).  Meant to run in the VM: tools/vm-run.
# NCSYNC_SELFTESTS="NAME ...", when set, runs only those binaries and
# scripts (e.g. ncsync_hostile_test.sh); a name that is neither fails.
set -u

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-${BUILD:-$here/../build}/selftests}
# Every built ncsync*_test binary, then every ncsync*_test.sh script here.
tests=$(cd "$dir" 2>/dev/null && ls ncsync*_test 2>/dev/null)
scripts=$(cd "$here" && ls ncsync*_test.sh 2>/dev/null)
rc=0
if [ -n "${NCSYNC_SELFTESTS:-}" ]; then
	all=" $(echo $tests $scripts) "
	for t in $NCSYNC_SELFTESTS; do
		case $all in
		*" $t "*) ;;
		*) echo "not ok 1 selftests: $t # no such selftest"; rc=1 ;;
		esac
	done
	tests=$(for t in $tests; do
		case " $NCSYNC_SELFTESTS " in *" $t "*) echo "$t" ;; esac; done)
	scripts=$(for t in $scripts; do
		case " $NCSYNC_SELFTESTS " in *" $t "*) echo "$t" ;; esac; done)
	[ -n "$tests$scripts" ] || exit 1
fi

[ -n "$tests$scripts" ] || { echo "not ok 1 selftests: no test binaries in $dir"; exit 1; }
for t in $tests $scripts; do
	bin=$dir/$t
	case $t in *.sh) bin=$here/$t ;; esac
	echo "# selftest: $bin"
	start=$(date +%s)
	if [ ! -x "$bin" ]; then
		echo "not ok 1 selftests: $t # missing $bin"
		rc=1
		continue
	fi
	# The exit status travels through the pipe as a marker line.
	{ "$bin" 2>&1; printf '\n__ncsync_rc=%d\n' $?; } |
		awk -v name="$t" '
			/__ncsync_rc=/ {
				sub(/.*__ncsync_rc=/, "")
				status = $0 + 0
				seen = 1
				next
			}
			/^not ok [0-9]/ { fails++ }
			/^ok [0-9]/ { oks++ }
			/^$/ { next }
			{ print; fflush() }
			END {
				if (!seen)
					status = 255
				if (status != 0 && fails == 0) {
					printf "not ok %d selftests: %s # exited with status %d\n", oks + 1, name, status
					fails = 1
				} else if (oks + fails == 0) {
					printf "not ok 1 selftests: %s # no results\n", name
					fails = 1
				}
				exit fails ? 1 : 0
			}' || rc=1
	echo "# selftest: $t took $(($(date +%s) - start)) s"
done
exit $rc
