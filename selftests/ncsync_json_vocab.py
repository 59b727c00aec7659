#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: one JSON vocabulary.  Reads the table of section "JSON
# vocabulary" of Documentation/ncsync/tool.rst (each name and its type)
# and the -j outputs of ncsync(1) given as files (one JSON document, or
# one per line), and checks that each file is JSON, that every name of
# every object in them is in the table with the table's type (the same
# in every command), and that every name of the table was printed.
#
# Usage: ncsync_json_vocab.py TOOL.RST NAME=FILE...  Prints TAP results
# and the plan; NAME says which command printed FILE.
import json
import re
import sys

from ncsync_tap import Tap

ROW = re.compile(r'^``([a-z_]+)``\s+(string|integer|boolean|object|'
                 r'array of objects|array of integers)\s')

tap = Tap()


def vocabulary(path):
    text = open(path).read()
    start = text.index('JSON vocabulary\n')
    names = {}
    for line in text[start:].splitlines()[3:]:
        m = ROW.match(line)
        if m:
            names[m.group(1)] = m.group(2)
        elif line and not line[0].isspace() and not line.startswith('='):
            if names:
                break
    return names


def documents(path):
    text = open(path).read()
    try:
        return [json.loads(text)]
    except ValueError:
        return [json.loads(line) for line in text.splitlines()
                if line.strip()]


def jtype(v):
    if isinstance(v, bool):
        return 'boolean'
    if isinstance(v, int):
        return 'integer'
    if isinstance(v, str):
        return 'string'
    if isinstance(v, dict):
        return 'object'
    if isinstance(v, list):
        if all(isinstance(e, dict) for e in v):
            return 'array of objects'
        if all(isinstance(e, int) and not isinstance(e, bool) for e in v):
            return 'array of integers'
        return 'array of ' + '/'.join(sorted({jtype(e) for e in v}))
    return 'null'


def walk(v, where, seen):
    """Record (type, where) of every member of every object in @v."""
    if isinstance(v, list):
        for e in v:
            walk(e, where, seen)
    elif isinstance(v, dict):
        for k, e in v.items():
            seen.setdefault(k, {}).setdefault(jtype(e), set()).add(where)
            walk(e, where, seen)


def main():
    names = vocabulary(sys.argv[1])
    tap(len(names) > 0, 'tool.rst has the JSON vocabulary table')
    seen = {}
    for arg in sys.argv[2:]:
        cmd, path = arg.split('=', 1)
        try:
            docs = documents(path)
            ok = len(docs) > 0
            why = 'no document'
        except ValueError as e:
            docs, ok, why = [], False, e
        tap(ok, '%s: JSON' % cmd, why)
        walk(docs, cmd, seen)
    for name in sorted(seen):
        types = seen[name]
        where = '; '.join('%s in %s' % (t, ', '.join(sorted(c)))
                          for t, c in sorted(types.items()))
        if name not in names:
            tap(False, '%s is in the vocabulary' % name, where)
            continue
        tap(set(types) == {names[name]},
            '%s is %s everywhere' % (name, names[name]), where)
    for name in sorted(set(names) - set(seen)):
        tap(False, '%s (documented) was printed by a command' % name,
            'no -j output has it')
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
