# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""The cffi description (_ffi.py, generated from <ncsync.h>) against the C
compiler's view of the same header: every struct's size and every field's
offset and size, and the library's exported functions."""

import os
import re
import subprocess

import pytest

import ncsync
from ncsync._lib import ffi, lib

from conftest import TOP, BUILD

CC = os.environ.get('CC', 'cc')


def structs():
    """The complete structs the cffi description declares."""
    out = []
    for name in ffi.list_types()[1]:
        t = ffi.typeof('struct ' + name)
        if t.fields is not None:
            out.append(name)
    return sorted(out)


def c_layout(tmp_path, names):
    """{(struct, field or None): (offset, size)} as the C compiler has it."""
    lines = ['#include <stddef.h>', '#include <stdio.h>',
             '#include <time.h>', '#include <ncsync.h>',
             'int main(void) {']
    for s in names:
        lines.append('printf("%s - 0 %%zu\\n", sizeof(struct %s));' % (s, s))
        for f, fld in ffi.typeof('struct ' + s).fields:
            if fld.bitsize != -1:
                continue
            lines.append('printf("%s %s %%zu %%zu\\n", offsetof(struct %s, '
                         '%s), sizeof(((struct %s *)0)->%s));'
                         % (s, f, s, f, s, f))
    lines.append('return 0; }')
    src = tmp_path / 'layout.c'
    src.write_text('\n'.join(lines) + '\n')
    exe = tmp_path / 'layout'
    subprocess.run([CC, '-D_GNU_SOURCE', '-I', os.path.join(TOP, 'uapi'),
                    '-I', os.path.join(TOP, 'lib', 'include'), '-o',
                    str(exe), str(src)], check=True)
    res = {}
    for line in subprocess.run([str(exe)], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        s, f, off, size = line.split()
        res[(s, None if f == '-' else f)] = (int(off), int(size))
    return res


def test_every_struct_has_a_layout():
    names = structs()
    for s in ('ncsync_check_defect', 'ncsync_prog_status', 'ncsync_info',
              'ncsync_record', 'ncsync_deadlock_cores', 'timespec'):
        assert s in names


def test_struct_layouts_match_the_c_compiler(tmp_path):
    names = structs()
    want = c_layout(tmp_path, names)
    bad = []
    for (s, f), (off, size) in sorted(want.items(), key=str):
        t = 'struct ' + s
        if f is None:
            have = (0, ffi.sizeof(t))
        else:
            have = (ffi.offsetof(t, f),
                    ffi.sizeof(dict(ffi.typeof(t).fields)[f].type))
        if have != (off, size):
            bad.append('%s.%s: cffi %s, cc %s' % (s, f, have, (off, size)))
    assert not bad, '\n'.join(bad)
    assert len(want) > 300


def exported():
    with open(os.path.join(TOP, 'lib', 'libncsync.map')) as f:
        return re.findall(r'^\s*(ncsync_\w+);', f.read(), re.M)


def test_every_exported_function_is_callable():
    names = exported()
    assert len(names) > 100
    missing = [n for n in names if not hasattr(lib, n)]
    assert not missing
    for n in names:
        assert ffi.typeof(getattr(lib, n)).kind == 'function', n


def test_the_library_loaded_is_the_one_built():
    path = os.path.join(BUILD, 'lib', 'libncsync.so.1')
    with open('/proc/self/maps') as f:
        maps = f.read()
    assert os.path.realpath(path) in maps


@pytest.mark.parametrize('name,value', [
    ('NCSYNC_NUM_SEMS', 256), ('NCSYNC_RECORD_SIZE', 64),
    ('NCSYNC_CHECK_MAX_STATES', 10000000), ('NCSYNC_SUBMIT_F_ALL', 7),
    ('NCSYNC_ALU_LAST', 10), ('NCSYNC_REC_CONF_FIRST',
                               lib.NCSYNC_REC_CONF_EVSEM_WAIT),
    ('NCSYNC_GENL_NAME', 'ncsync'),
])
def test_constants_evaluated_by_the_compiler(name, value):
    assert getattr(ncsync.constants, name) == value


def test_enums_follow_the_header():
    assert ncsync.Engine.POOL == lib.NCSYNC_ENGINE_POOL
    assert 'MASK' not in ncsync.Engine.__members__
    assert ncsync.WaitMode.SEM_GE == 5
    assert len(ncsync.RecReason) == lib.NCSYNC_REC_REASON_COUNT
    assert len(ncsync.DefectKind) == lib.NCSYNC_DEFECT_KINDS
    assert ncsync.Verdict.INCONCLUSIVE == lib.NCSYNC_CHECK_INCONCLUSIVE
    assert ncsync.ProgState.TIMED_OUT == lib.NCSYNC_PROG_TIMED_OUT
