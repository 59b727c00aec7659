#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""Generate ncsync/_ffi.py, the cffi description of libncsync, from <ncsync.h>.

The header stays the one source of truth: nothing here repeats a
declaration of it.  The C preprocessor expands the header (and
<linux/ncsync.h>) as the C compiler sees it; the declarations of those two
files are kept (system headers are not: cffi's parser cannot read them),
the bodies of the inline readers dropped (the library exports them too),
and every object-like NCSYNC_* macro is evaluated by the C compiler itself
(a small program built against the header prints each value).  cffi then
writes an out-of-line ABI-mode module: pure Python, loaded with only
python3-cffi-backend, that dlopen()s libncsync.so.1 at import
(Documentation/ncsync/python.rst, "How the bindings are built").

The few names the kept declarations take from the system headers are
declared by PRELUDE below; python/tests/host/test_layout.py compiles every
struct's size and field offsets against the real header and compares them
with cffi's, so a wrong one cannot pass unnoticed.

usage: gen_ffi.py [--cc CC] [-I DIR]... HEADER OUT.py
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

# The fixed-width kernel types of <linux/types.h> and POSIX's struct
# timespec (Linux, 64-bit time), in the types cffi knows.
PRELUDE = """
typedef uint8_t __u8; typedef int8_t __s8;
typedef uint16_t __u16; typedef int16_t __s16;
typedef uint32_t __u32; typedef int32_t __s32;
typedef uint64_t __u64; typedef int64_t __s64;
typedef uint16_t __le16; typedef uint32_t __le32; typedef uint64_t __le64;
typedef uint16_t __be16; typedef uint32_t __be32; typedef uint64_t __be64;
struct timespec { long tv_sec; long tv_nsec; };
"""

LINEMARK = re.compile(r'^# (\d+) "([^"]*)"')
DEFINE = re.compile(r'^#define (NCSYNC_[A-Za-z0-9_]*) (.+)$')


def run(cmd, **kw):
    """Run @cmd; its standard output, or exit with its error."""
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode:
        sys.exit('gen_ffi: %s failed:\n%s' % (shlex.join(cmd), p.stderr))
    return p.stdout


def own_lines(text, ours):
    """The lines of preprocessed @text that come from the files @ours."""
    keep = False
    out = []
    for line in text.splitlines():
        m = LINEMARK.match(line)
        if m:
            keep = os.path.realpath(m.group(2)) in ours
            continue
        if keep and not line.startswith('#'):
            out.append(line)
    return '\n'.join(out)


def drop_bodies(text):
    """Replace each function body, a top-level { } after a ), by ;."""
    out = []
    depth = 0
    body = False
    last = ''
    for ch in text:
        if depth == 0 and ch == '{' and last == ')':
            body = True
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
            if body and depth == 0:
                body = False
                out.append(';')
                last = ';'
                continue
        if not body:
            out.append(ch)
            if not ch.isspace():
                last = ch
    text = ''.join(out).replace('static inline ', '')
    return re.sub(r'\b__extension__\b', '', text)


BITFIELD = re.compile(r'(\b\w+\s*:)([^;:]*[^\s\d;:][^;]*);')


def bitfield_widths(text):
    """@text, and {key: expression} of each bit-field width that is not a
    number (a static assertion), its place marked by the key."""
    exprs = {}

    def mark(m):
        key = 'NCSYNC_PY_WIDTH_%d' % len(exprs)
        exprs[key] = '(%s)' % m.group(2).strip()
        return '%s %s;' % (m.group(1), key)
    return BITFIELD.sub(mark, text), exprs


VALUES_C = r"""
#include <stdio.h>
#include "%s"
static void pi(const char *n, long long v) { printf("i %%s %%lld\n", n, v); }
static void pu(const char *n, unsigned long long v)
{
	printf("i %%s %%llu\n", n, v);
}
static void ps(const char *n, const char *v)
{
	printf("s %%s ", n);
	for (; *v; v++)
		printf("%%02x", (unsigned char)*v);
	printf("\n");
}
#define P2(n, e) _Generic((e), char *: ps, const char *: ps, \
	unsigned long long: pu, unsigned long: pu, unsigned int: pu, \
	default: pi)(n, (e))
int main(void)
{
%s
	return 0;
}
"""


def macro_values(cc, cflags, header, exprs):
    """{name: int or str} of the C expressions @exprs ({name: expression}),
    as the C compiler sees them; those that are not values left out."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'v.c')
        exe = os.path.join(tmp, 'v')

        def build(which):
            with open(src, 'w') as f:
                f.write(VALUES_C % (os.path.abspath(header),
                                    '\n'.join('\tP2("%s", %s);' % (n, exprs[n])
                                              for n in which)))
            return subprocess.run(cc + cflags + ['-o', exe, src],
                                  capture_output=True).returncode == 0

        names = sorted(exprs)
        if not build(names):
            # Some macro is not a value (an attribute, a type): keep those
            # that are, one by one.
            names = [n for n in names if build([n])]
            build(names)
        out = {}
        for line in run([exe]).splitlines():
            kind, name, val = line.split(' ', 2) + [''] * (3 - len(
                line.split(' ', 2)))
            out[name] = int(val) if kind == 'i' else \
                bytes.fromhex(val).decode()
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cc', default=os.environ.get('CC', 'cc'))
    ap.add_argument('-I', dest='incs', action='append', default=[])
    ap.add_argument('--module', default='ncsync._ffi')
    ap.add_argument('header')
    ap.add_argument('out')
    a = ap.parse_args()

    cc = shlex.split(a.cc)
    cflags = ['-I' + d for d in a.incs] + ['-DNCSYNC_INLINE=']
    ours = {os.path.realpath(a.header)}
    for d in a.incs:
        ours.add(os.path.realpath(os.path.join(d, 'linux', 'ncsync.h')))
    decls = drop_bodies(own_lines(run(cc + cflags + ['-E', a.header]), ours))
    decls, exprs = bitfield_widths(decls)

    for line in run(cc + cflags + ['-E', '-dM', a.header]).splitlines():
        m = DEFINE.match(line)
        if m and m.group(2).strip():
            exprs[m.group(1)] = m.group(1)
    values = macro_values(cc, cflags, a.header, exprs)
    for key in [k for k in values if k.startswith('NCSYNC_PY_WIDTH_')]:
        decls = re.sub(r'\b%s\b' % key, str(values.pop(key)), decls)
    defines = ''.join('#define %s %d\n' % (n, v)
                      for n, v in sorted(values.items())
                      if isinstance(v, int))
    strings = {n: v for n, v in values.items() if isinstance(v, str)}

    import cffi
    ffi = cffi.FFI()
    ffi.cdef(PRELUDE + decls + '\n' + defines)
    ffi.set_source(a.module, None)
    tmp = a.out + '.tmp'
    ffi.emit_python_code(tmp)
    with open(tmp, 'a') as f:
        f.write('\n# Generated by python/gen_ffi.py from %s.\n'
                % os.path.basename(a.header))
        f.write('STRINGS = %r\n' % strings)
        f.write('CDEF = %r\n' % (PRELUDE + decls))
    os.replace(tmp, a.out)


if __name__ == '__main__':
    main()
