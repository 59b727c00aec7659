#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the generic netlink family driven by the kernel's own
# YNL client, tools/net/ynl/cli.py (Debian's linux-source-6.12, extracted
# by tools/ynl-src), with the spec Documentation/netlink/ncsync.yaml.
# Every run of cli.py runs its code in this interpreter (see Ynl), the
# subscriber in a thread of its own.  On core 1:
#
# - every do and dump operation of the spec: get-core (values written by
#   the ncsync tool come back; the change sequence grows with a write),
#   set-notify 1 and 0 (get-core then reports the switch), get-programs (one
#   message per program blocked on the core, each with its submitter's
#   pid, its engines blocked on the semaphore they wait on);
# - the multicast group "notify", subscribed while programs run: an event
#   write, the blocked programs' end and a program the watchdog stops
#   arrive as event-ntf, prog-ntf and fault-ntf with their values;
# - the errors: notify above 1 (ERANGE, extack "integer out of range" on
#   .notify), a core that does not exist (ENODEV, extack "no such core"),
#   a missing core (EINVAL, extack naming the missing attribute);
# - every run uses --process-unknown: no reply or notification holds an
#   attribute the spec does not declare.
#
# Usage: ncsync_ynl.py YNL_SRC SPEC TOOL.  Run by ncsync_ynl_test.sh in the
# test VM with the module loaded (two cores at least), as root.  Prints TAP.
import contextlib
import functools
import io
import json
import os
import runpy
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import yaml

from ncsync_nldoc import in_group
from ncsync_nlspec import get_family
from ncsync_tap import Tap

tap = Tap()
# The core the values, dumps and notifications use; core 0 is left to the
# others.
CORE = 1
SEM = 60          # the blocked programs wait for it to reach 1
SEM_VAL = 7       # get-core must report it at SEM + 1
EVENT = 9         # set by the tool; bit 1 of byte 1 of the events
# The programs blocked on SEM during the dump and the subscription, one
# per engine, so that each is running (blocked), none queued behind another.
BLOCK_ENGINES = ('pool', 'act', 'pe')
BLOCK = 'engine %%s\n\tnop wait sem[%d] >= 1\n\texit\n' % SEM
STUCK = 'engine act\n\tnop wait sem[%d] >= 1\n\texit\n' % (SEM + 2)


class Ynl:
    """
    cli.py with the spec, --process-unknown and JSON output.  Each run
    executes cli.py as `python3 cli.py ARGS` would, but in this interpreter
    (runpy): under the VM's emulation a fresh Python takes seconds to
    import the YNL library.  The spec's validation against the schema is
    left to tools/ynl-gen --check (host) and to the commands of
    Documentation/ncsync/netlink.rst (ncsync_nldoc_test.sh): --no-schema.
    """

    def __init__(self, src, spec):
        self.ynl = os.path.join(src, 'tools', 'net', 'ynl')
        self.base = ['--spec', spec, '--no-schema', '--process-unknown',
                     '--output-json']
        self.unknown = []       # (where, key) of every undeclared attribute
        self.ran = set()        # (op, 'do'|'dump') run with success
        if self.ynl not in sys.path:
            sys.path.insert(0, self.ynl)
        # nlspec.py reads the spec with yaml.safe_load(), PyYAML's loader
        # in Python, which takes seconds on the VM's emulated CPU at every
        # run; PyYAML's libyaml loader builds the same objects (checked
        # here) ten times faster.  Only this process's runs use it: the
        # commands of netlink.rst (ncsync_nldoc_test.sh) run cli.py as it
        # is.
        text = open(spec).read()
        fast = getattr(yaml, 'CSafeLoader', None)
        if fast and yaml.load(text, Loader=fast) == yaml.safe_load(text):
            yaml.safe_load = functools.partial(yaml.load, Loader=fast)

    def cli(self, *args):
        """(exit status, output) of cli.py ARGS, run in this process."""
        out = io.StringIO()
        argv, sys.argv = sys.argv, ['cli.py'] + self.base + list(args)
        rc = 0
        try:
            with contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(out):
                runpy.run_path(os.path.join(self.ynl, 'cli.py'),
                               run_name='__main__')
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 1
        except Exception:  # pylint: disable=broad-except
            out.write(traceback.format_exc())
            rc = 1
        finally:
            sys.argv = argv
        return rc, out.getvalue()

    def run(self, kind, op, req):
        """(exit status, decoded output or None, raw output)."""
        rc, text = self.cli('--' + kind, op, '--json', json.dumps(req))
        out = None
        if rc == 0:
            out = json.loads(text)
            self.ran.add((op, kind))
            self.note_unknown('%s %s' % (kind, op), out)
        return rc, out, text

    def note_unknown(self, where, value):
        """Record every UnknownAttr(N) key (--process-unknown) in @value."""
        if isinstance(value, dict):
            for k, v in value.items():
                if str(k).startswith('UnknownAttr'):
                    self.unknown.append((where, k))
                self.note_unknown(where, v)
        elif isinstance(value, list):
            for v in value:
                self.note_unknown(where, v)


def tool(n, *args, check=True):
    return subprocess.run([n, '-c', str(CORE)] + list(args),
                          stdout=subprocess.DEVNULL, check=check)


def spawn_blocked(n, tmp):
    """
    The BLOCK programs in the background, until the tool counts them all
    running (120 s at most); their processes.
    """
    tool(n, 'sem', 'set', str(SEM), '0')
    procs = []
    for engine in BLOCK_ENGINES:
        path = os.path.join(tmp, 'block-%s.s' % engine)
        with open(path, 'w') as f:
            f.write(BLOCK % engine)
        procs.append(subprocess.Popen([n, '-c', str(CORE), 'run',
                                       '--watchdog', '600000', path],
                                      stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
    want = 'programs running: %d' % len(procs)
    for _ in range(600):
        out = subprocess.run([n, '-c', str(CORE), 'dump'],
                             stdout=subprocess.PIPE, text=True).stdout
        if want in out.split('\n'):
            break
        time.sleep(0.2)
    return procs


def release(n, procs):
    tool(n, 'sem', 'set', str(SEM), '1')
    for p in procs:
        p.wait()


def check_get_core(ynl, n):
    """get-core before and after set-notify 1 and an event write."""
    tool(n, 'sem', 'set', str(SEM + 1), str(SEM_VAL))
    tool(n, 'event', 'clear', str(EVENT))
    rc, before, text = ynl.run('do', 'get-core', {'core': CORE})
    rc1, on, text1 = ynl.run('do', 'set-notify', {'core': CORE, 'notify': 1})
    tool(n, 'event', 'set', str(EVENT))
    rc2, after, text2 = ynl.run('do', 'get-core', {'core': CORE})
    tap(rc == 0 and rc2 == 0, 'get-core do: answered', text + text2)
    tap(rc1 == 0 and on is None and rc2 == 0 and after['notify'] == 1,
        'set-notify do 1: no reply, then get-core says notify 1',
        text1 + text2)
    if rc or rc2:
        return
    want = {'core', 'sems', 'events', 'notify', 'seq', 'drops', 'lnc'}
    tap(set(after) == want, 'get-core: the attributes of an idle core',
        'got %s' % sorted(after))
    sems, events = after.get('sems', []), after.get('events', '')
    tap(len(sems) == 256 and sems[SEM + 1] == SEM_VAL,
        'get-core: sems is 256 s32, sem[%d] the %d the tool set' %
        (SEM + 1, SEM_VAL), 'sems %s' % sems[:SEM + 2])
    ev = bytes.fromhex(events.replace(' ', ''))
    old = bytes.fromhex(before.get('events', '').replace(' ', ''))
    tap(len(ev) == 32 and ev[EVENT // 8] >> (EVENT % 8) & 1 and
        not old[EVENT // 8] >> (EVENT % 8) & 1,
        'get-core: events, a 32-byte bitmap, shows the event the tool set',
        'before %s\nafter  %s' % (before.get('events'), events))
    tap(after['core'] == CORE and after['seq'] > before['seq'],
        'get-core: the change sequence grows with an event write',
        'before %s, after %s' % (before['seq'], after['seq']))


def check_notify_off(ynl):
    rc, out, text = ynl.run('do', 'set-notify', {'core': CORE, 'notify': 0})
    rc2, core, text2 = ynl.run('do', 'get-core', {'core': CORE})
    tap(rc == 0 and out is None and rc2 == 0 and core['notify'] == 0,
        'set-notify do 0: no reply, then get-core says notify 0',
        text + text2)


def check_dump(ynl, procs):
    """The dump of the core while @procs' programs are blocked."""
    rc, msgs, text = ynl.run('dump', 'get-programs', {'core': CORE})
    tap(rc == 0 and len(msgs) == len(procs),
        'get-programs dump: one message per program blocked on the core '
        '(%d)' % len(procs), text)
    if rc:
        return
    pids = sorted(p.pid for p in procs)
    progs = [m['prog'][0] if isinstance(m.get('prog'), list) else
             m.get('prog', {}) for m in msgs]
    tap(all(m['core'] == CORE and set(m) == {'core', 'prog'}
            for m in msgs) and
        sorted(p.get('prog-pid') for p in progs) == pids,
        'get-programs: each message is the core and a program of one of '
        'the submitters', 'pids %s\nmessages %s' % (pids, msgs))
    engines = [e for p in progs for e in p.get('engine', [])]
    tap(sorted(e.get('eng-id') for e in engines) == sorted(BLOCK_ENGINES)
        and all(e.get('eng-state') == 'blocked' and
                e.get('eng-wait-kind') == 'sem' and
                e.get('eng-wait-index') == SEM and
                e.get('eng-wait-threshold') == 1 and
                e.get('eng-wait-current') == 0 for e in engines),
        'get-programs: each engine, one per program, blocked on '
        'sem[%d] >= 1' % SEM, 'engines %s' % engines)
    rc, core, text = ynl.run('do', 'get-core', {'core': CORE})
    tap(rc == 0 and [p['prog-id'] for p in core.get('prog', [])] ==
        [p['prog-id'] for p in progs] and 'truncated' not in core,
        'get-core lists the same programs, in the same order, untruncated',
        text)


def subscribe_once(ynl, n, group, sleep, procs, tmp):
    """
    One try: cli.py --subscribe notify --sleep @sleep, in a thread, while
    @procs' programs are blocked; once it joined the group, write an event,
    release the programs, let the watchdog stop another.  What cli.py
    printed, and whether it still listened when all of that was done (on
    a slow machine it may not: the caller tries again, longer).
    """
    box = {}
    sub = threading.Thread(target=lambda: box.update(out=ynl.cli(
        '--subscribe', 'notify', '--sleep', str(sleep))[1]))
    sub.start()
    # Until then only cli.py may use sys.stdout and sys.argv.
    while sub.is_alive() and not in_group([os.getpid()], group):
        time.sleep(0.05)
    tool(n, 'event', 'set', str(EVENT))
    release(n, procs)
    subprocess.run([n, '-c', str(CORE), 'run', '--watchdog', '200',
                    os.path.join(tmp, 'stuck.s')], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    in_time = sub.is_alive()
    sub.join()
    return in_time, box.get('out', '')


def check_subscribe(ynl, n, fam, procs, tmp):
    """With notifications on: @procs, blocked, end while subscribed."""
    with open(os.path.join(tmp, 'stuck.s'), 'w') as f:
        f.write(STUCK)
    group = fam['groups'].get('notify', 0)
    if not 0 < group <= 32:
        tap(False, 'notify: a group id /proc/net/netlink shows', group)
        release(n, procs)
        return
    tool(n, 'sem', 'set', str(SEM + 2), '0')
    for sleep in (5, 15, 45):
        in_time, out = subscribe_once(ynl, n, group, sleep, procs, tmp)
        if in_time:
            break
        procs = spawn_blocked(n, tmp)
    else:
        release(n, procs)
        tap(False, '--subscribe notify: listened until the programs ended',
            out)
        return
    try:
        ntfs = json.loads(out)
    except ValueError:
        ntfs = []
    check_ntfs(ynl, ntfs, out, sorted(p.pid for p in procs))


def check_ntfs(ynl, ntfs, out, pids):
    ynl.note_unknown('--subscribe notify', ntfs)
    mine = [m for m in ntfs if m.get('msg', {}).get('core') == CORE]
    by = {}
    for m in mine:
        by.setdefault(m['name'], []).append(m['msg'])
    ev = [m for m in by.get('event-ntf', []) if m.get('event') == EVENT]
    tap(len(ev) == 1 and ev[0].get('event-state') == 1 and
        set(ev[0]) == {'core', 'event', 'event-state', 'seq'},
        '--subscribe notify: event-ntf of the event written, state 1', out)
    progs = [m['prog'][0] for m in by.get('prog-ntf', [])]
    tap(sorted(p.get('prog-pid') for p in progs) == pids and
        all(p.get('prog-state') == 'done' for p in progs),
        '--subscribe notify: one prog-ntf, done, per program released',
        'pids %s\n%s' % (pids, out))
    faults = by.get('fault-ntf', [])
    fp = faults[0]['prog'][0] if len(faults) == 1 else {}
    eng = (fp.get('engine') or [{}])[0]
    sems = faults[0].get('sems', []) if len(faults) == 1 else []
    tap(len(faults) == 1 and fp.get('prog-state') == 'timed-out' and
        eng.get('eng-state') == 'blocked' and
        eng.get('eng-wait-index') == SEM + 2 and
        len(sems) == 256 and sems[SEM + 1] == SEM_VAL,
        '--subscribe notify: fault-ntf of the program the watchdog stopped, '
        'its engine blocked on sem[%d], its semaphores' % (SEM + 2), out)


def check_errors(ynl):
    rc, _, text = ynl.run('do', 'set-notify', {'core': CORE, 'notify': 2})
    tap(rc == 1 and 'Netlink error: Numerical result out of range' in text
        and "'msg': 'integer out of range'" in text and
        "'bad-attr': '.notify'" in text,
        'set-notify notify 2: ERANGE, extack "integer out of range" on '
        '.notify', text)
    for kind, op in (('do', 'get-core'), ('do', 'set-notify'),
                     ('dump', 'get-programs')):
        req = {'core': 999}
        if op == 'set-notify':
            req['notify'] = 0
        rc, _, text = ynl.run(kind, op, req)
        extack = kind == 'do'
        tap(rc == 1 and 'Netlink error: No such device' in text and
            (not extack or "'msg': 'no such core'" in text),
            '%s %s core 999: ENODEV%s' %
            (op, kind, ', extack "no such core"' if extack else ''), text)
    rc, _, text = ynl.run('do', 'get-core', {})
    tap(rc == 1 and 'Netlink error: Invalid argument' in text and
        "'miss-type': 'core'" in text,
        'get-core without core: EINVAL, extack missing attribute core', text)


def main():
    src, spec, n = sys.argv[1:4]
    ynl = Ynl(src, spec)
    doc = yaml.safe_load(open(spec))
    fam = get_family(doc['name'])
    check_get_core(ynl, n)
    with tempfile.TemporaryDirectory() as tmp:
        procs = spawn_blocked(n, tmp)
        try:
            check_dump(ynl, procs)
        except Exception:
            release(n, procs)
            raise
        check_subscribe(ynl, n, fam, procs, tmp)
    check_notify_off(ynl)
    check_errors(ynl)
    ops = {(op['name'], kind) for op in doc['operations']['list']
           for kind in ('do', 'dump') if kind in op}
    tap(ops <= ynl.ran, 'every do and dump operation of the spec ran',
        'not run: %s' % sorted(ops - ynl.ran))
    tap(not ynl.unknown, '--process-unknown: no attribute the spec does not '
        'declare, in any reply or notification', ynl.unknown)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
