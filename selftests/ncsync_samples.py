#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# Every sample output of README.md and the manual pages (tools/ncsync.1,
# lib/man/*.3) is what the tool prints now.
#
# A sample is marked in its source by a comment that names its tier and
# its command, right before the block that shows the output (only blank
# lines, and in a manual page .RS, .PP or .IP lines, in between):
#
#   README.md           <!-- sample TIER: CMD -->   then a ``` block
#   a manual page       .\" sample TIER: CMD        then a .nf/.fi block
#
# TIER is "host" (the command needs no device: asm, disasm, check,
# replay) or "vm" (it needs the module: run in the test VM by
# ncsync_samples_test.sh on a freshly loaded module, one sample after the
# other in the order of the files, so that a sample sees what those
# before it left on the core).  A manual page's block starts with the
# line "$ CMD", the marker's command; its other lines are the output,
# with the roff escapes \-, \e, \(dq, \(aq and \& read as the characters
# they print (any other escape fails the sample).
# Output blocks are found without the markers too, so that none is
# skipped: in README.md every ``` block without a language (the commands
# are in ```sh blocks), in a manual page every .nf block that starts with
# "$ ".  A marker without its block, a block without its marker, a
# manual page's "$ " line that is not the marker's command, and a file
# whose count of samples is not the one EXPECTED gives, fail.
#
# Each command runs with bash in the top directory of the tree, PATH
# $BUILD/tools (ncsync) and the system directories; its standard output
# and error, together, are compared with the block, after these
# normalisations (and only these):
#
# - trailing white space, and blank lines at the start and the end, do not
#   count; tabs compare as the spaces they expand to;
# - a line "..." alone (indented or not) stands for any number of lines,
#   none included; a line that ends in " ..." stands for a line that
#   starts with what comes before it (an abridged line);
# - TIMES: the milliseconds of "after N.N ms" (a program's run time) compare
#   equal to any number.
#
# A sample that differs prints a unified diff of the document's block and
# the output, both normalised, an output line that an abridged line
# abridges shown as that line.
#
# Usage: ncsync_samples.py --tier host|vm|none [FILE...] (default:
# README.md, tools/ncsync.1 and the pages of lib/man/*.3 that are not
# links); "none" only extracts and counts.  Prints TAP: one result for
# the extraction (every sample marked and found, as many in each file as
# EXPECTED says) and one per sample of the tier.
import argparse
import difflib
import glob
import os
import re
import subprocess
import sys

from ncsync_nldoc import matches, normal, session_env
from ncsync_tap import Tap

TIERS = ('host', 'vm')
TIMES = [(re.compile(r'(\bafter )\d+(\.\d+)?( ms\b)'), r'\1#\3')]
ELLIPSIS = '...'
ROFF = [('\\-', '-'), ('\\(dq', '"'), ('\\(aq', "'"), ('\\&', ''),
        ('\\e', '\\')]
# Seconds a sample may take: one that hangs fails, the test does not hang.
SAMPLE_TIMEOUT = 600
# The files with samples, each with the number it has: a sample lost
# from a file (a marker deleted with its block) fails, and so does one
# added without counting it here.
EXPECTED = {'README.md': 2, 'tools/ncsync.1': 2}


class Sample:
    """One sample: where it is, its tier and command, the lines shown."""

    def __init__(self, where, tier, cmd, want):
        self.where, self.tier, self.cmd, self.want = where, tier, cmd, want


class Markdown:
    """README.md: a ``` block without a language is an output."""
    MARK = re.compile(r'^<!-- sample (\S+): (.+?) -->$')
    BETWEEN = ('',)

    @staticmethod
    def block(path, lines, i, errors):
        """The block that opens at @i, and the index of its end; or None."""
        if not lines[i].startswith('```'):
            return None
        j = i + 1
        while j < len(lines) and not lines[j].startswith('```'):
            j += 1
        return [lines[i][3:].strip()] + lines[i + 1:j], j

    @staticmethod
    def take(where, mark, block):
        """The sample of @block, or what is wrong with it (or neither)."""
        lang = block[0]
        if lang and mark:
            return None, 'marker before a ```%s block' % lang
        if not lang and not mark:
            return None, 'an output block without a marker'
        if mark:
            return Sample(where, mark[1], mark[2], block[1:]), None
        return None, None


class Roff:
    """A manual page: a .nf block that starts with "$ " is a sample."""
    MARK = re.compile(r'^\.\\" sample (\S+): (.+)$')
    BETWEEN = ('', '.RS', '.PP', '.IP')

    @staticmethod
    def block(path, lines, i, errors):
        """The lines of the .nf block at @i, read; and the index of .fi."""
        if not lines[i].startswith(('.nf', '.EX')):
            return None
        block = []
        j = i + 1
        while j < len(lines) and not lines[j].startswith(('.fi', '.EE')):
            block.append(unroff(path, j + 1, lines[j], errors))
            j += 1
        return block, j

    @staticmethod
    def take(where, mark, block):
        """The sample of @block, or what is wrong with it (or neither)."""
        first = block[0] if block else ''
        if mark and first != '$ ' + mark[2]:
            return None, 'the block starts "%s", not "$ %s"' % (first,
                                                                mark[2])
        if mark:
            return Sample(where, mark[1], mark[2], block[1:]), None
        if first.startswith('$ '):
            return None, 'a sample without a marker: %s' % first
        return None, None


def unroff(path, num, line, errors):
    """@line of a .nf block as it prints."""
    text = line
    for esc, char in ROFF:
        text = text.replace(esc, '\0' if char == '\\' else char)
    if '\\' in text:
        errors.append('%s:%d: an escape the check does not read: %s' %
                      (path, num, line))
    return text.replace('\0', '\\')


def scan(path, lines, fmt, errors):
    """The samples of @lines, of format @fmt; what is wrong to @errors."""
    out = []
    mark = None
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        m = fmt.MARK.match(line)
        found = None if m else fmt.block(path, lines, i, errors)
        if mark and not found and (m or line not in fmt.BETWEEN):
            errors.append('%s:%d: marker without its block' %
                          (path, mark[0]))
            mark = None
        if m:
            mark = (i + 1, m.group(1), m.group(2))
        elif found:
            where = '%s:%d' % (path, mark[0] if mark else i + 1)
            sample, err = fmt.take(where, mark, found[0])
            if err:
                errors.append('%s: %s' % (where, err))
            if sample:
                out.append(sample)
            mark = None
            i = found[1]
        i += 1
    if mark:
        errors.append('%s:%d: marker without its block' % (path, mark[0]))
    return out


def extract(top, path, errors):
    """The samples of @path (relative to @top)."""
    with open(os.path.join(top, path)) as f:
        lines = f.read().split('\n')
    found = scan(path, lines, Markdown if path.endswith('.md') else Roff,
                 errors)
    for s in found:
        if s.tier not in TIERS:
            errors.append('%s: tier "%s" is not one of %s' %
                          (s.where, s.tier, ', '.join(TIERS)))
    return found


def compare(want, got):
    """
    Whether @got is what @want shows, and both as compared: normalised,
    each output line that an abridged line of @want abridges replaced
    by it.
    """
    w = normal(want, TIMES)
    g = normal(got, TIMES)
    # An abridged line matches the line it abridges: the document's line
    # takes the output's place when the output's line starts with it.
    # Every pair is tried, so that "..." lines can still move.
    cut = [x[:-len(ELLIPSIS)] if x.endswith(' ' + ELLIPSIS) and
           x.strip() != ELLIPSIS else None for x in w]
    g = [next((w[k] for k in range(len(w)) if cut[k] is not None and
               y.startswith(cut[k])), y) for y in g]
    return matches(tuple(w), tuple(g)), w, g


def run(top, cmd):
    try:
        return subprocess.run(['bash', '-c', cmd], cwd=top,
                              env=session_env(top),
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, text=True,
                              timeout=SAMPLE_TIMEOUT).stdout.split('\n'), ''
    except subprocess.TimeoutExpired:
        return [], 'did not finish within %d s' % SAMPLE_TIMEOUT


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tier', choices=TIERS + ('none',), required=True)
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = args.files or (['README.md', 'tools/ncsync.1'] +
                           sorted(os.path.relpath(p, top) for p in
                                  glob.glob(os.path.join(top, 'lib/man',
                                                         '*.3'))
                                  if not os.path.islink(p)))
    tap = Tap()
    samples = []
    errors = []
    for path in files:
        found = extract(top, path, errors)
        if len(found) != EXPECTED.get(path, 0):
            errors.append('%s: %d samples, %d expected (EXPECTED)' %
                          (path, len(found), EXPECTED.get(path, 0)))
        samples += found
    tap(not errors, '%d files, %d samples, each marked and found' %
        (len(files), len(samples)), '\n'.join(errors))
    tier = [s for s in samples if s.tier == args.tier]
    print('# %d samples of tier %s' % (len(tier), args.tier))
    for s in tier:
        got, why = run(top, s.cmd)
        ok, want, got = compare(s.want, got)
        ok = ok and not why
        if not ok:
            for line in difflib.unified_diff(want, got, 'document',
                                             'output', lineterm=''):
                print('# ' + line)
        tap(ok, '%s: %s' % (s.where, s.cmd), why)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
