#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the Python package's device tests (python/tests/device,
# pytest through python/run-tests, one TAP line per test), with the module
# reloaded as cores=4 lnc=2 so that the programs across cores run too (none
# may be skipped), then loaded again with the parameters it had.
#
# selftests/run.sh runs this inside the test VM with the module loaded.
# Outside the VM (NCSYNC_IN_VM unset) nothing is done.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
tool=$build/tools/ncsync
sys=/sys/module/ncsync
# shellcheck source=selftests/ncsync_module.sh
. "$here/ncsync_module.sh"

echo "TAP version 13"
skip() {
	echo "ok 1 python # SKIP $1"
	echo "1..1"
	exit 0
}
[ "${NCSYNC_IN_VM:-}" = 1 ] || skip "not in the test VM (tools/vm-run)"
[ "$(id -u)" = 0 ] || skip "needs root"
[ -d $sys ] || skip "ncsync is not loaded"
[ -x "$tool" ] || skip "no $tool (make tools)"
if [ ! -r "$build/python/ncsync/_ffi.py" ]; then
	echo "not ok 1 python: no $build/python/ncsync (make python)"
	echo "1..1"
	exit 1
fi
# shellcheck disable=SC2034 # $ko: ncsync_load's
ko=$(ncsync_module_file) ||
	skip "no module file for $(uname -r) like the loaded one (set NCSYNC_KO)"
saved=$(ncsync_module_params)

tmp=$(mktemp)
failed=0
# shellcheck disable=SC2046 # one word per parameter
if out=$(ncsync_load $(ncsync_params_with cores=4 lnc=2)); then
	"$top/python/run-tests" device > "$tmp" 2>&1
	rc=$?
	grep -v -e '^1\.\.' -e '^TAP version' "$tmp"
	n=$(grep -cE '^(not )?ok [0-9]' "$tmp")
	grep -qE '^not ok [0-9]' "$tmp" && failed=1
	if [ $rc != 0 ] && [ $failed = 0 ]; then
		n=$((n + 1))
		echo "not ok $n python: run-tests exited with $rc"
		failed=1
	fi
	if grep -qE '^ok [0-9].*# SKIP' "$tmp"; then
		n=$((n + 1))
		echo "not ok $n python: a device test skipped with cores=4 lnc=2"
		failed=1
	fi
else
	n=1
	echo "not ok 1 python: load with cores=4 lnc=2: $out"
	failed=1
fi
rm -f "$tmp"

# shellcheck disable=SC2086 # one word per parameter
if out=$(ncsync_load $saved) && [ "$(ncsync_module_params)" = "$saved" ]; then
	echo "ok $((n + 1)) python: load_again"
else
	echo "not ok $((n + 1)) python: load_again # $out; have '$(ncsync_module_params)', want '$saved'"
	failed=1
fi
echo "1..$((n + 1))"
exit $failed
