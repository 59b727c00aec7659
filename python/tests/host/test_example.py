# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""python/examples/barrier_loop.py on the host: it checks its loop safe,
and finds the lost arrival of --broken (the run is the device tier's)."""

import os
import subprocess
import sys

from conftest import TOP

EXAMPLE = os.path.join(TOP, 'python', 'examples', 'barrier_loop.py')


def run(*args):
    return subprocess.run([sys.executable, EXAMPLE, '--no-run', *args],
                          capture_output=True, text=True)


def test_the_barrier_loop_checks_safe():
    r = run()
    assert r.returncode == 0, r.stderr
    assert 'check, 2 passes: safe' in r.stdout


def test_the_broken_loop_deadlocks():
    r = run('--broken', '--check-engines', 'pool,act')
    assert r.returncode == 1, r.stderr
    assert 'defect' in r.stdout
    assert 'deadlock: pool -> act -> pool' in r.stdout
