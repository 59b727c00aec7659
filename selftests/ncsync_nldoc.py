#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: every sample session of a document (by default
# Documentation/ncsync/netlink.rst) prints what the document shows.
#
# A sample is a literal block (lines indented by a tab after a paragraph
# ending in "::") whose first line is a command: a line "# CMD" (as root)
# or "$ CMD"; a command line ending in a backslash goes on over the next
# line.  The other lines of the block are the output of the command before
# them.  Every command of every sample of the document runs, in the
# document's order, in one bash session (variables and functions carry
# over), as root, in the top directory of the tree, with PATH
# $BUILD/tools (ncsync) and the system directories (/usr/bin/python3).
# Its standard output and error, together, are compared with the lines the
# document shows after it, by the rules netlink.rst states under "How the
# samples are checked" (NORMALISE and ELLIPSIS below):
#
# - trailing white space, and blank lines at the start and the end of an
#   output, do not count; tabs compare as the spaces they expand to;
# - a line "..." alone stands for any number of lines (none included);
# - the numbers NORMALISE lists (ids assigned at registration, the change
#   sequence, the drop count, process ids) compare equal to any number.
#
# After a command put in the background ("&") that subscribes
# ("--subscribe"), the session waits until that job has joined a netlink
# multicast group before the next command (a user types slower).
#
# Usage: ncsync_nldoc.py DOC.  Run by ncsync_nldoc_test.sh in the test VM
# on a freshly loaded module.  Prints TAP, one result per command.
#        ncsync_nldoc.py --wait-subscribed PID: that wait (used by the
#        session itself).
import difflib
import functools
import os
import re
import subprocess
import sys
import time

from ncsync_tap import Tap

# (pattern, replacement) applied to the document's lines and the output's.
NORMALISE = [
    (re.compile(r'^0x[0-9a-f]+ ncsync '), '0x# ncsync '),    # genl-ctrl-list
    (re.compile(r'(grp \S+ \(0x)[0-9a-f]+\)'), r'\1#)'),
    (re.compile(r'^(\s*ID: 0x)[0-9a-f]+'), r'\1#'),           # genl
    (re.compile(r'(ID-0x)[0-9a-f]+(\s+name: )'), r'\1#\2'),
    (re.compile(r"('(?:seq|drops|prog-pid)': )\d+"), r'\1#'),  # cli.py
]
ELLIPSIS = '...'
MARK = '@@ncsync-nldoc@@'
# The whole session's limit, in seconds: a sample that hangs fails, the
# test does not hang.
SESSION_TIMEOUT = 900


def samples(path):
    """[(line number, command, [document's output lines])] of @path."""
    out = []
    lines = open(path).read().split('\n')
    i = 0
    while i < len(lines):
        if not lines[i].rstrip().endswith('::'):
            i += 1
            continue
        i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        block = []
        while i < len(lines) and (lines[i].startswith('\t') or
                                  not lines[i].strip()):
            block.append((i + 1, lines[i][1:]))
            i += 1
        if block and block[0][1][:2] in ('# ', '$ '):
            out += commands(block)
    return out


def commands(block):
    cmds = []
    cont = False
    for num, line in block:
        if cont:
            cmds[-1][1] += '\n' + line
        elif line[:2] in ('# ', '$ '):
            cmds.append([num, line[2:], []])
        else:
            cmds[-1][2].append(line)
        cont = (cont or line[:2] in ('# ', '$ ')) and line.endswith('\\')
    return [tuple(c) for c in cmds]


def normal(lines, rules=NORMALISE):
    """
    @lines as compared: tabs expanded, trailing white space and blank
    lines at both ends dropped, each (pattern, replacement) of @rules
    applied.
    """
    out = []
    for line in lines:
        line = line.expandtabs().rstrip()
        for pat, rep in rules:
            line = pat.sub(rep, line)
        out.append(line)
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return out


def matches(doc, got):
    """Whether @got matches @doc, where a "..." line is any lines."""
    @functools.lru_cache(maxsize=None)
    def m(i, j):
        if i == len(doc):
            return j == len(got)
        if doc[i].strip() == ELLIPSIS:
            return any(m(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and doc[i] == got[j] and m(i + 1, j + 1)
    return m(0, 0)


def script(cmds):
    sync = '"%s" "%s" --wait-subscribed $!' % (sys.executable,
                                                os.path.abspath(__file__))
    text = ''
    for n, (_, cmd, _) in enumerate(cmds):
        text += "printf '\\n%s %d %%s\\n' $EPOCHREALTIME\n%s\n" % (MARK, n,
                                                               cmd)
        if cmd.rstrip().endswith('&') and '--subscribe' in cmd:
            text += sync + '\n'
    return text + "printf '\\n%s end %%s\\n' $EPOCHREALTIME\n" % MARK


def session_env(top):
    """The environment of the samples' commands (also ncsync_samples.py)."""
    return {'PATH': '%s:/usr/sbin:/usr/bin:/sbin:/bin' %
            os.path.join(os.environ.get('BUILD', os.path.join(top, 'build')),
                         'tools'),
            'HOME': os.environ.get('HOME', '/root'), 'LANG': 'C.UTF-8'}


def run(cmds, top):
    try:
        stdout = subprocess.run(['bash', '-c', script(cmds)], cwd=top,
                                env=session_env(top), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True,
                                timeout=SESSION_TIMEOUT).stdout
    except subprocess.TimeoutExpired as e:
        # The commands that did not finish fail: their output is cut.
        stdout = (e.stdout or b'').decode(errors='replace')
    outs = {}
    start = {}
    took = {}           # of the commands that finished
    cur = None
    for line in stdout.split('\n'):
        if line.startswith(MARK + ' '):
            key, when = line.split()[1:3]
            if cur is not None:
                took[cur] = float(when) - start[cur]
            cur = None if key == 'end' else int(key)
            outs[cur] = []
            start[cur] = float(when)
        elif cur is not None:
            outs[cur].append(line)
    return outs, took


def in_group(pids, group=None):
    """
    Whether a generic netlink socket of a process of @pids is a member of
    multicast group @group (1 to 32: /proc/net/netlink shows those), or of
    any group when @group is None.
    """
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir('/proc/%d/fd' % pid):
                link = os.readlink('/proc/%d/fd/%s' % (pid, fd))
                if link.startswith('socket:['):
                    inodes.add(int(link[8:-1]))
        except OSError:
            pass
    with open('/proc/net/netlink') as f:
        for line in f.readlines()[1:]:
            col = line.split()
            groups = int(col[3], 16)
            if int(col[1]) == 16 and int(col[9]) in inodes and \
                    (groups >> (group - 1) & 1 if group else groups):
                return True
    return False


def wait_subscribed(pid):
    """Until a process of the job @pid is in a netlink group (60 s)."""
    for _ in range(1200):
        if in_group([pid] + children(pid)):
            return 0
        time.sleep(0.05)
    return 1


def children(pid):
    out = []
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            for c in f.read().split():
                out += [int(c)] + children(int(c))
    except OSError:
        pass
    return out


def main():
    if sys.argv[1] == '--wait-subscribed':
        return wait_subscribed(int(sys.argv[2]))
    doc = sys.argv[1]
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cmds = samples(doc)
    tap = Tap()
    if not cmds:
        tap(False, '%s has samples' % doc)
        return tap.done()
    outs, times = run(cmds, top)
    for n, (num, cmd, want) in enumerate(cmds):
        got = outs.get(n, [])
        ok = n in times and matches(tuple(normal(want)), tuple(normal(got)))
        if not ok:
            for line in difflib.unified_diff(want, got, 'document', 'output',
                                             lineterm=''):
                print('# ' + line)
        tap(ok, '%s:%d: %s' % (os.path.basename(doc), num,
                               cmd.split('\n')[0]),
            '' if n in times else 'did not finish within %d s' %
            SESSION_TIMEOUT)
        if n in times:
            print('# took %.1f s' % times[n])
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
