# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the selftests that reload the module (ncsync_faults_test.sh,
# ncsync_hostile_test.sh): the module file and its parameters, and the
# TAP those tests print; not a test of its own.  Needs $build.

# The module file the loaded module came from, built for this kernel (its
# vermagic) and, when the kernel shows the loaded module's srcversion,
# with the same one: the first of $NCSYNC_KO, build/module/ncsync.ko
# (tools/vm-run) and build/debug/src/ncsync.ko (tools/check-debug).
ncsync_module_file() {
	want=$(cat /sys/module/ncsync/srcversion 2>/dev/null)
	for f in ${NCSYNC_KO:+"$NCSYNC_KO"} "$build/module/ncsync.ko" \
		 "$build/debug/src/ncsync.ko"; do
		[ -r "$f" ] || continue
		vm=$(modinfo -F vermagic "$f" 2>/dev/null)
		[ "${vm%% *}" = "$(uname -r)" ] || continue
		[ -z "$want" ] ||
			[ "$(modinfo -F srcversion "$f" 2>/dev/null)" = "$want" ] ||
			continue
		echo "$f"
		return 0
	done
	return 1
}

# The loaded module's parameters, as " NAME=VALUE" words.
ncsync_module_params() {
	for p in /sys/module/ncsync/parameters/*; do
		[ -r "$p" ] && printf ' %s=%s' "${p##*/}" "$(cat "$p")"
	done
}

# TAP of a reload test: tap_plan N NAME prints the plan; tap_ok and
# tap_not_ok print one result each, "NAME: WHAT"; tap_skip_rest REASON
# skips what is left of the plan and exits with the result so far.
tap_plan() {
	tap_total=$1
	tap_name=$2
	tap_n=0
	tap_failed=0
	echo "TAP version 13"
	echo "1..$tap_total"
}

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n $tap_name: $*"
}

tap_not_ok() {
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n $tap_name: $*"
	tap_failed=1
}

tap_skip_rest() {
	while [ "$tap_n" -lt "$tap_total" ]; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n $tap_name # SKIP $1"
	done
	exit $tap_failed
}
