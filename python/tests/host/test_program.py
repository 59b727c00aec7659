# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""Programs from Python: the builders, the text form, labels, lowering,
finalization and the errors that carry what the library refused."""

import errno
import os
import re

import pytest

import ncsync
from ncsync import (BarrierLowering, Engine, Events, Program, RecReason,
                    UpdateMode, WaitMode)
from ncsync._lib import lib


def single(text):
    return not re.search(r'^\s*core\s+\d', text, re.M)


def records(prog):
    return {e: list(prog.find_stream(e)) for e in prog.engines}


def opcodes(prog):
    return {r[0] for s in prog.streams() for r in s}


@pytest.mark.parametrize('name', sorted(
    f for f in os.listdir(os.path.join(os.path.dirname(__file__), '..', '..',
                                       '..', 'examples'))
    if f.endswith('.s')))
def test_every_example_survives_disassembly(name, example_text):
    text = example_text(name)
    if single(text):
        p = ncsync.assemble(text)
        p.finalize()
        again = ncsync.assemble(p.disassemble())
        again.finalize()
        assert records(again) == records(p)
        assert p.engines
    else:
        parts = ncsync.assemble_cores(text)
        assert len(parts) >= 2
        again = ncsync.assemble_cores(ncsync.disassemble_cores(parts))
        assert [q.core for q in again] == [q.core for q in parts]
        for a, b in zip(parts, again):
            assert records(a.program) == records(b.program)


def test_builders_match_the_text_form():
    p = Program()
    s = p.stream('pool')
    assert s.engine == Engine.POOL
    assert s.add_semaphore_wait_eq_and_inc(5, 3) == 0
    assert s.add_semaphore_wait_ge(6, -2) == 1
    assert s.add_semaphore_set(7, 9) == 2
    assert s.add_event_set(4) == 3
    ev = Events(wait_mode=WaitMode.SEM_GT, wait_idx=1,
                upd_mode=UpdateMode.SEM_DEC | UpdateMode.COMPLETE, upd_idx=1)
    assert s.add_nop(ev) == 4
    s.add_exit()
    assert len(s) == 6
    text = p.disassemble()
    q = ncsync.assemble(text)
    assert records(q) == records(p)
    assert s.disassemble(2) == ncsync.disassemble_record(s[2])
    assert 'sem[7] = 9' in s.disassemble(2)
    assert s.disassemble(4) == 'nop wait sem[1] > 0 then sem[1]--'
    assert s[4][:12] == ncsync.assemble(
        'engine pool\n\tnop wait sem[1] > 0 then sem[1]--\n'
    ).find_stream('pool')[0][:12]


def test_sync_barrier_spans_every_engine():
    p = Program()
    for e in ('pool', 'act', 'pe'):
        p.stream(e).add_semaphore_inc(1)
    before = {e: len(p.find_stream(e)) for e in p.engines}
    p.add_sync_barrier()
    for e in p.engines:
        assert len(p.find_stream(e)) > before[e]
    p.finalize()
    assert ncsync.check(p).safe


def test_labels_and_branches():
    p = Program()
    s = p.stream(Engine.ACT)
    s.add_mov32_imm(1, 0)
    top = p.label()
    s.bind(top)
    s.add_mov32(lib.NCSYNC_ALU_ADD_IMM, 1, 1, 1)
    s.add_branch_imm(lib.NCSYNC_BR_LT, lib.NCSYNC_DTYPE_U32, 1, 4, top)
    s.add_semaphore_inc(9)
    p.finalize()
    assert 'br.lt.u32 r1, 4' in p.disassemble()
    r = ncsync.check(p)
    assert r.safe
    final = ncsync.replay(p, [])[0]
    assert final.engines[0].pc == 0


def test_branch_hint():
    """SYNC: add_br_hint_rel_imm is among the builders that carry a
    predicate; the hint's offset follows its label as a branch's target."""
    p = Program()
    s = p.stream('pool')
    top = p.label()
    s.bind(top)
    s.add_nop()
    s.add_br_hint_rel_imm(top, Events(wait_mode=lib.NCSYNC_WAIT_SEM_GE,
                                      wait_idx=2, value=1))
    s.add_branch(top)
    with pytest.raises(ncsync.NcsyncError) as e:
        s.add_br_hint_rel_imm(99)
    assert e.value.errno == errno.EINVAL
    p.finalize()
    rec = s[1]
    assert rec[0] == 0xE1 and rec[4:6] == bytes([0x05, 2])
    assert int.from_bytes(rec[0x10:0x14], 'little', signed=True) == -1
    assert 'br_hint L0 wait sem[2] >= 1' in p.disassemble()


def test_unbound_label_is_enoent():
    p = Program()
    s = p.stream('pool')
    s.add_branch(p.label())
    with pytest.raises(ncsync.NcsyncError) as e:
        p.finalize()
    assert e.value.errno == errno.ENOENT
    assert e.value.function == 'ncsync_program_finalize'


def test_bad_record_is_refused_with_the_record():
    p = Program()
    s = p.stream('pool')
    s.add_nop()
    bad = bytearray(s[0])
    bad[0x30] = 1           # a reserved byte of a NoOp
    s.add_raw(bytes(bad))
    with pytest.raises(ncsync.RecordRefused) as e:
        p.finalize()
    err = e.value
    assert err.errno == errno.EINVAL
    assert (err.engine, err.index) == (Engine.POOL, 1)
    assert err.reason == RecReason.RESERVED_BYTE
    assert err.record == bytes(bad)
    assert 'pool record 1' in str(err)
    # Mended through the writable record, the program finalizes.
    s[1] = s[0]
    p.finalize()


def test_builder_errors_carry_errno():
    p = Program()
    with pytest.raises(ncsync.NcsyncError) as e:
        p.stream(200)
    assert e.value.errno == errno.EINVAL
    with pytest.raises(ValueError):
        p.stream('nosuchengine')
    with pytest.raises(ValueError):
        p.stream('pool').add_raw(b'\0' * 10)


def test_asm_error_names_line_and_column():
    with pytest.raises(ncsync.AsmError) as e:
        ncsync.assemble('engine pool\n\tnop\n\tfrobnicate 3\n')
    assert e.value.line == 3
    assert e.value.col >= 1
    assert e.value.msg
    assert e.value.errno == errno.EINVAL
    assert '3:' in str(e.value)


@pytest.mark.parametrize('how', list(BarrierLowering))
def test_lowering_leaves_no_pseudo_op(how):
    p = Program()
    for e in ('pool', 'act'):
        p.stream(e).add_semaphore_inc(2)
    p.add_all_engine_barrier()
    assert lib.NCSYNC_OPC_ALL_ENGINE_BARRIER in opcodes(p)
    p.lower(how)
    first, last = lib.NCSYNC_OPC_PSEUDO_FIRST, lib.NCSYNC_OPC_PSEUDO_LAST
    assert not any(first <= o <= last and o != lib.NCSYNC_OPC_EXIT
                   for o in opcodes(p))
    p.finalize()
    assert ncsync.check(p).safe


def test_the_two_lowerings_differ():
    out = []
    for how in BarrierLowering:
        p = Program()
        for e in ('pool', 'act'):
            p.stream(e).add_nop()
        p.add_all_engine_barrier()
        p.lower(how)
        out.append(records(p))
    assert out[0] != out[1]


def test_calls_are_inlined():
    p = Program()
    body = p.function('pool', 'post')
    body.add_semaphore_inc(1)
    body.add_return()
    s = p.stream('pool')
    s.add_call('post')
    s.add_call('post')
    p.finalize()
    assert lib.NCSYNC_OPC_CALL not in opcodes(p)
    assert lib.NCSYNC_OPC_RETURN not in opcodes(p)
    incs = [r for r in p.find_stream('pool')
            if ncsync.disassemble_record(r).endswith('then sem[1]++')]
    assert len(incs) == 2
    assert ncsync.check(p).safe


def test_lower_error_says_why():
    p = Program()
    p.stream('pool').add_call('missing')
    with pytest.raises(ncsync.LowerError) as e:
        p.lower()
    assert 'missing' in e.value.why
    assert e.value.errno


def test_conformance_profile():
    p = ncsync.assemble('engine pool\n\tnop\n')
    p.finalize()
    assert p.conform() is None
    q = Program()
    q.stream('pool').add_evsem(WaitMode.SEM_EQ, 1, 0, 0, 0, 0)
    q.finalize()
    refused = q.conform()
    assert isinstance(refused, ncsync.RecordRefused)
    assert refused.reason >= lib.NCSYNC_REC_CONF_FIRST
    assert refused.record == q.find_stream('pool')[refused.index]
    with pytest.raises(ncsync.NcsyncError):
        Program().conform()


def test_allocation():
    p = Program()
    a = p.sem_alloc(4)
    b = p.sem_alloc(1)
    assert b not in range(a, a + 4)
    p.sem_free(a, 4)
    assert p.event_alloc(2) >= 0


def test_close_frees_and_forbids_use():
    with Program() as p:
        s = p.stream('pool')
        s.add_nop()
    with pytest.raises(ValueError):
        p.stream('pool')
    with pytest.raises(ValueError):
        s.add_nop()
    with pytest.raises(ValueError):
        len(s)
