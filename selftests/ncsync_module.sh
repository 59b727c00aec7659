# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the selftests that reload the module (ncsync_faults_test.sh,
# ncsync_hostile_test.sh, ncsync_lnc_test.sh, ncsync_nldoc_test.sh,
# ncsync_samples_test.sh): the module file, its parameters, loading it
# with others (needs $tool, $ko, $sys, $saved), and the TAP those tests
# print; not a test of its own.  Needs $build.

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

# The saved parameters ($saved) with NAME=VALUE arguments replacing
# their namesakes.
ncsync_params_with() {
	for kv in $saved; do
		keep=1
		for o in "$@"; do
			[ "${kv%%=*}" = "${o%%=*}" ] && keep=0
		done
		[ $keep = 0 ] || printf ' %s' "$kv"
	done
	printf ' %s' "$@"
}

ncsync_unload() {
	[ -d $sys ] || return 0
	"$tool" unload >/dev/null 2>&1
	[ ! -d $sys ]
}

# Load the module file $ko with NAME=VALUE arguments ($tool load); the
# tool's output.
ncsync_load() {
	ncsync_unload || { echo "cannot unload (refcnt $(cat $sys/refcnt))"; return 1; }
	"$tool" load --path "$ko" "$@" 2>&1 && [ -c /dev/ncsync0 ]
}

# ncsync_load_fresh NAME: for a test that prints its own results after
# it, load the module again, from the file it came from, with the
# parameters it had ($ko, $saved), so that the test starts on a freshly
# loaded module.  Skips the test when the module is not loaded or its file
# is not found; one failed result "NAME: load the module again" when the
# load fails.
ncsync_load_fresh() {
	if [ ! -d "$sys" ]; then
		echo "1..0 # SKIP ncsync is not loaded"
		exit 0
	fi
	if ! ko=$(ncsync_module_file); then
		echo "1..0 # SKIP no module file for $(uname -r) like the loaded one (set NCSYNC_KO)"
		exit 0
	fi
	saved=$(ncsync_module_params)
	# shellcheck disable=SC2086 # one word per parameter
	if ! out=$(ncsync_load $saved); then
		echo "not ok 1 $1: load the module again # $out"
		echo "1..1"
		exit 1
	fi
}

# The checks before a reload test touches the module: in the test VM, as
# root, the module loaded, $tool and the test's binary @1 built, the module
# file found ($ko); otherwise every result is skipped.  Sets $ko and
# $saved (the loaded module's parameters).
ncsync_reload_begin() {
	[ "${NCSYNC_IN_VM:-}" = 1 ] ||
		tap_skip_rest "not in the test VM (tools/vm-run)"
	[ "$(id -u)" = 0 ] || tap_skip_rest "needs root"
	[ -d $sys ] || tap_skip_rest "ncsync is not loaded"
	[ -x "$tool" ] || tap_skip_rest "no $tool (make tools)"
	[ -x "$1" ] || tap_skip_rest "no $1 (make selftests)"
	ko=$(ncsync_module_file) ||
		tap_skip_rest "no module file for $(uname -r) like the loaded one (set NCSYNC_KO)"
	saved=$(ncsync_module_params)
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

# Indent command output as TAP diagnostics.
tap_diag() {
	sed 's/^/#   /'
}

# tap_run NAME WHY CMD...: one result for a test binary run as CMD, under
# the parameters WHY names: not ok if it fails or skips anything.
tap_run() {
	name=$1
	params=$2
	shift 2
	res=$("$@" 2>&1)
	rc=$?
	echo "$res" | tap_diag
	if [ $rc != 0 ]; then
		tap_not_ok "$name # $(basename "$1") exited with $rc"
	elif echo "$res" | grep -q '# SKIP'; then
		tap_not_ok "$name # skipped with $params"
	else
		tap_ok "$name"
	fi
}

# One result: the module loads again with the parameters it had ($saved).
tap_load_again() {
	# shellcheck disable=SC2086 # one word per parameter
	if out=$(ncsync_load $saved) &&
	   [ "$(ncsync_module_params)" = "$saved" ]; then
		tap_ok "load_again"
	else
		tap_not_ok "load_again # $out; have '$(ncsync_module_params)', want '$saved'"
	fi
}
