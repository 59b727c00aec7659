#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""Build a barrier loop with the builders, check it, and run it.

The program of examples/barrier-loop.s, built record by record from
Python: every engine counts its arrival in a semaphore, meets the others at
a barrier (ncsync_add_sync_barrier(): records, no pseudo-op), and checks
at once that every engine has arrived (sem >= N * pass) and that none ran
a pass ahead (sem <= N * pass + N - 1): a broken barrier leaves an engine
blocked in that check, which check() reports as a deadlock and the
watchdog ends on the device.

The checker explores every schedule (a few passes keep it small: the
passes are a loop, so the states repeat); the device, when there is one,
runs as many passes as asked and the counter must end at engines x passes.

In the tree, after make:
    PYTHONPATH=build/python LD_LIBRARY_PATH=build/lib \\
        python3 python/examples/barrier_loop.py --check-passes 2 --passes 20
In the test VM (the module loaded):
    tools/vm-run env PYTHONPATH=build/python LD_LIBRARY_PATH=build/lib \\
        python3 python/examples/barrier_loop.py

Exit status: 0 when the check finds no defect and the run (if any) ends
done with the expected count; 1 otherwise.
"""

import argparse
import os
import sys

import ncsync
from ncsync import Engine, Events, ProgState, WaitMode


def build(engines, passes: int, sem: int,
          broken: bool = False) -> ncsync.Program:
    """The barrier loop of @engines, @passes times, counting in sem[@sem];
    @broken leaves out the first barrier: the count may be zeroed after an
    engine counted its arrival."""
    p = ncsync.Program()
    n = len(engines)
    streams = [p.stream(e) for e in engines]
    streams[0].add_sema_clear(sem, sem)       # one engine zeroes the count
    for s in streams:
        s.add_mov32_imm(1, 0)                 # r1: passes
        s.add_mov32_imm(2, 0)                 # r2: n * passes
        s.add_mov32_imm(3, n - 1)             # r3: n * passes + n - 1
    if not broken:
        p.add_sync_barrier()                  # ... before anyone counts
    loops = {}
    for s in streams:
        loops[s.engine] = p.label()
        s.bind(loops[s.engine])
        s.add_mov32(ncsync.constants.NCSYNC_ALU_ADD_IMM, 1, 1, 1)
        s.add_mov32(ncsync.constants.NCSYNC_ALU_ADD_IMM, 2, 2, n)
        s.add_mov32(ncsync.constants.NCSYNC_ALU_ADD_IMM, 3, 3, n)
        s.add_semaphore_inc(sem)              # arrive
    p.add_sync_barrier()
    reg = WaitMode.REG
    for s in streams:
        # sem >= r2, and (lane 1) sem <= r3: both must hold at once.
        s.add_evsem(WaitMode.SEM_LE | reg, sem, 3, 0, 0, 0,
                    Events(wait_mode=WaitMode.SEM_GE | reg, wait_idx=sem,
                           value=2))
        s.add_branch_imm(ncsync.constants.NCSYNC_BR_LT,
                         ncsync.constants.NCSYNC_DTYPE_U32, 1, passes,
                         loops[s.engine])
        s.add_exit()
    p.finalize()
    return p


def check(engines, passes: int, sem: int, broken: bool) -> bool:
    """Check the loop of @passes passes; print what was found."""
    with build(engines, passes, sem, broken) as p:
        res = ncsync.check(p)
    print('check, %u passes: %s, %u states' % (
        passes, res.verdict.name.lower(), res.states))
    for d in res.defects:
        print(d)
        print('  schedule:', ', '.join(str(s) for s in d.steps[-5:]))
    return res.safe


def run(engines, passes: int, sem: int, core: int, watchdog: int,
        broken: bool) -> bool:
    """Run the loop on core @core; print its report."""
    with build(engines, passes, sem, broken) as p, \
            ncsync.Device(core) as dev:
        r = dev.submit(p, watchdog_ms=watchdog)
        state = r.wait()
        print(r.report())
        count = dev.sems[sem]
        want = len(engines) * passes
        print('run, %u passes: %s, sem[%u] = %d (want %d)' % (
            passes, state.name.lower(), sem, count, want))
        r.status(release=True)
        return state == ProgState.DONE and count == want


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--engines', default='pool,act,pe,dve,sp',
                    help='the engines, by name (default: all five)')
    ap.add_argument('--passes', type=int, default=20,
                    help='passes of the run (default 20)')
    ap.add_argument('--check-passes', type=int, default=2,
                    help='passes of the check (default 2)')
    ap.add_argument('--check-engines', default='pool,act,pe',
                    help='engines of the check (default pool,act,pe)')
    ap.add_argument('--sem', type=int, default=0,
                    help='the counting semaphore (default 0)')
    ap.add_argument('--core', type=int, default=0)
    ap.add_argument('--watchdog', type=int, default=5000,
                    help='the run\'s watchdog in ms (default 5000)')
    ap.add_argument('--no-run', action='store_true',
                    help='check only, even with a device')
    ap.add_argument('--broken', action='store_true',
                    help='leave out the barrier before the loop (a lost '
                    'arrival), and run even when the check finds the defect')
    a = ap.parse_args()
    engines = [Engine[e.upper()] for e in a.engines.split(',')]
    ok = check([Engine[e.upper()] for e in a.check_engines.split(',')],
               a.check_passes, a.sem, a.broken)
    if not ok and not a.broken:
        return 1
    if a.no_run or not os.path.exists('/dev/ncsync%u' % a.core):
        print('no run: %s' % ('--no-run' if a.no_run else
                              'no /dev/ncsync%u' % a.core))
        return 0 if ok else 1
    ran = run(engines, a.passes, a.sem, a.core, a.watchdog, a.broken)
    return 0 if ok and ran else 1


if __name__ == '__main__':
    sys.exit(main())
