#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the sample outputs of README.md and the manual pages
# that need the device (those marked "sample vm", ncsync_samples.py, which
# says how they are marked and compared) are what the tool prints now.
# They run as a new user's would, on a freshly loaded module: the module
# is loaded again, from the file it came from, with the parameters it had
# (ncsync_module.sh), so that no semaphore another test left set shows in
# a sample.  The samples that need no device ("sample host") are compared
# by make check on the host (tools/check, step "samples").
# selftests/run.sh runs it in the test VM.  Prints TAP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
sys=/sys/module/ncsync
# ncsync_load_fresh
# shellcheck source=selftests/ncsync_module.sh
. "$here/ncsync_module.sh"
# The TAP header, or a skip outside the VM; $build, $N (the tool), $py.
# shellcheck source=selftests/ncsync_tool.sh
. "$here/ncsync_tool.sh"
tool=$N
ncsync_load_fresh samples
$py "$here/ncsync_samples.py" --tier vm
