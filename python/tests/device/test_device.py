# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""The package on a device: the module loaded, /dev/ncsync0 and up (the test
VM: selftests/ncsync_python_test.sh).  The banks through the mapping, the
updates and waits, programs submitted, waited for, their status, their
deadlock report, and programs across the cores of a logical core."""

import errno
import os
import select
import subprocess
import sys

import pytest

import ncsync
from ncsync import (BlockKind, Engine, EngineState, ProgState, WaitMode)
from ncsync.constants import (NCSYNC_BANK_SEM, NCSYNC_CSR_SEM_READ,
                              NCSYNC_CSR_SEM_SET, NCSYNC_OP_INC,
                              NCSYNC_OP_READ)

from conftest import TOP

pytestmark = pytest.mark.skipif(not os.path.exists('/dev/ncsync0'),
                                reason='no /dev/ncsync0 (the module)')


@pytest.fixture
def dev():
    """Core 0, reset."""
    with ncsync.Device(0) as d:
        d.reset()
        yield d


@pytest.fixture
def pair():
    """The first two cores of logical core 0, reset; skipped when the
    module has no logical core of two (lnc=2)."""
    with ncsync.Device(0) as d0:
        if d0.info.lnc < 2:
            pytest.skip('lnc %u: no program across cores' % d0.info.lnc)
        with ncsync.Device(1) as d1:
            d0.reset()
            d1.reset()
            yield d0, d1


def test_open_reads_the_info(dev):
    assert dev.core == 0
    assert dev.info.num_sems == 256 and dev.info.num_events == 256
    assert dev.info.api_version == ncsync.constants.NCSYNC_API_VERSION
    assert dev.fileno() >= 0
    assert 'core 0' in repr(dev)


def test_no_such_core_is_enodev_or_enoent():
    with pytest.raises(ncsync.NcsyncError) as e:
        ncsync.Device(4096)
    assert e.value.errno in (errno.ENODEV, errno.ENOENT, errno.EINVAL)


def test_sems_view_reads_the_mapping(dev):
    view = dev.sems
    assert len(view) == 256 and view.format == 'i' and view.readonly
    assert dev.sem_set(3, -7) == -7
    assert view[3] == -7 and dev.sem(3) == -7
    assert dev.sem_inc(3, 10) == 3
    assert view[3] == 3
    assert dev.sem_dec(3) == 2
    assert view[3] == 2
    with pytest.raises(TypeError):
        view[3] = 1
    assert dev.csr_read(NCSYNC_CSR_SEM_READ + 4 * 3) == [2]


def test_sem_wraps_modulo_2_32(dev):
    dev.sem_set(4, 2**31 - 1)
    assert dev.sem_inc(4) == -2**31
    assert dev.sems[4] == -2**31


def test_events_view(dev):
    view = dev.events
    dev.event_set(9)
    assert view[9] == 1 and dev.event(9)
    dev.event_clear(9)
    assert view[9] == 0 and not dev.event(9)


def test_views_are_released_at_close():
    d = ncsync.Device(0)
    view = d.sems
    d.close()
    with pytest.raises(ValueError):
        view[0]
    with pytest.raises(ValueError):
        d.sem(0)


def test_read_only_descriptor_refuses_updates():
    with ncsync.Device(0, writable=False) as d:
        assert len(d.sems) == 256
        with pytest.raises(ncsync.NcsyncError) as e:
            d.sem_set(1, 1)
        assert e.value.errno == errno.EBADF


def test_bad_index_is_einval(dev):
    with pytest.raises(ncsync.NcsyncError) as e:
        dev.sem_set(256, 1)
    assert e.value.errno == errno.EINVAL
    with pytest.raises(IndexError):
        dev.sem(256)


def test_csr_write_and_batch(dev):
    dev.csr_write(NCSYNC_CSR_SEM_SET + 4 * 5, [41])
    assert dev.sems[5] == 41
    res = dev.batch([(NCSYNC_BANK_SEM, NCSYNC_OP_INC, 5, 1),
                     (NCSYNC_BANK_SEM, NCSYNC_OP_READ, 5, 0)])
    assert res == [(41, 42), (42, 42)]


def test_wait_sem(dev):
    dev.sem_set(6, 5)
    assert dev.wait_sem(6, WaitMode.SEM_GE, 5, timeout=1) == 5
    with pytest.raises(ncsync.NcsyncTimeout) as e:
        dev.wait_sem(6, WaitMode.SEM_GT, 5, timeout=0.05)
    assert e.value.errno == errno.ETIMEDOUT
    assert isinstance(e.value, TimeoutError)
    with pytest.raises(ncsync.NcsyncError) as e:
        dev.wait_sem(6, 0x55, 5, timeout=0)
    assert e.value.errno == errno.EINVAL


def test_wait_event(dev):
    dev.event_set(2)
    dev.wait_event(2, WaitMode.EVT_SET_THEN_CLEAR, timeout=1)
    assert not dev.event(2)
    with pytest.raises(ncsync.NcsyncTimeout):
        dev.wait_event(2, WaitMode.EVT_SET, timeout=0.05)


def test_poll_and_ack(dev):
    dev.ack()
    assert select.select([dev], [], [], 0)[0] == []
    dev.sem_inc(7)
    assert select.select([dev], [], [], 1)[0] == [dev]
    seq = dev.ack()
    assert seq == dev.stats().seq
    assert select.select([dev], [], [], 0)[0] == []


def test_reset_clears_the_banks(dev):
    dev.sem_set(8, 3)
    dev.event_set(8)
    resets = dev.stats().resets
    dev.reset()
    assert dev.sems[8] == 0 and dev.events[8] == 0
    assert dev.stats().resets == resets + 1


def test_submit_wait_status(dev):
    p = ncsync.assemble('engine pool\n\tnop then sem[10] = 5\n'
                        'engine act\n\tnop wait sem[10] >= 5 then sem[11]++\n')
    r = dev.submit(p)
    assert r.wait(timeout=10) == ProgState.DONE
    st = r.status()
    assert st.state == ProgState.DONE and st.finished
    assert [e.engine for e in st.engines] == [Engine.POOL, Engine.ACT]
    assert all(e.state == EngineState.DONE for e in st.engines)
    assert st.sems == {10: 5, 11: 1}
    assert dev.sems[11] == 1
    assert 'done' in r.report() and 'deadlock' not in r.report()
    r.status(release=True)
    with pytest.raises(ncsync.NcsyncError) as e:
        r.status()
    assert e.value.errno == errno.ENOENT


def test_submit_built_program(dev):
    p = ncsync.Program()
    for e in ('pool', 'act', 'pe'):
        p.stream(e).add_semaphore_inc(12)
    p.add_sync_barrier()
    p.stream('pool').add_semaphore_add(12, 10)
    r = dev.submit(p, strict=True)
    assert r.wait(timeout=10) == ProgState.DONE
    assert dev.sems[12] == 13


def test_refused_record_names_it(dev):
    p = ncsync.assemble('engine pool\n\tnop\n\tnop\n')
    rec = bytearray(p.find_stream('pool')[1])
    rec[0x3F] = 1
    p.find_stream('pool')[1] = bytes(rec)
    with pytest.raises(ncsync.RecordRefused) as e:
        dev.submit(p)
    assert e.value.errno == errno.EINVAL
    assert (e.value.engine, e.value.index) == (Engine.POOL, 1)
    assert e.value.record == bytes(rec)


def test_conformance_refusal(dev):
    p = ncsync.Program()
    p.stream('pool').add_evsem(WaitMode.SEM_EQ, 1, 0, 0, 0, 0)
    with pytest.raises(ncsync.RecordRefused) as e:
        dev.submit(p, conform=True)
    assert e.value.reason >= ncsync.constants.NCSYNC_REC_CONF_FIRST
    assert e.value.record is not None


def test_wait_timeout_and_cancel(dev):
    r = dev.submit(ncsync.assemble('engine pool\n\tnop wait sem[13] >= 1\n'),
                   watchdog_ms=60000)
    with pytest.raises(ncsync.NcsyncTimeout):
        r.wait(timeout=0.1)
    st = r.status()
    assert st.state == ProgState.RUNNING
    e, = st.engines
    assert e.state == EngineState.BLOCKED and e.wait_kind == BlockKind.SEM
    assert (e.wait_index, e.wait_threshold) == (13, 1)
    assert e.waits_for() == 'sem[13] >= 1'
    r.cancel()
    assert r.wait(timeout=10) == ProgState.CANCELLED


def test_deadlock_report(dev, example_text):
    p = ncsync.assemble(example_text('deadlock.s'))
    r = dev.submit(p, watchdog_ms=300)
    assert r.wait(timeout=30) == ProgState.TIMED_OUT
    dl = r.deadlock()
    assert dl
    assert {e for _, e in dl.cycle} == {Engine.POOL, Engine.PE}
    for e in dl.stuck:
        assert e.posters
    text = r.report()
    assert 'timed_out' in text
    assert 'deadlock: ' in text
    for e in r.status().engines:
        assert str(e) in text and 'waits for sem[' in str(e)
        rec = p.find_stream(e.engine).disassemble(e.pc)
        assert '%u: %s' % (e.pc, rec) in text


def test_barrier_short(dev, example_text):
    """barrier-skip.s: pool and act wait in the barrier of line 36 that
    dve's branch of line 35 jumps over; deadlock.s waits in none."""
    p = ncsync.assemble(example_text('barrier-skip.s'))
    r = dev.submit(p, watchdog_ms=300)
    assert r.wait(timeout=30) == ProgState.TIMED_OUT
    b = r.barrier_short()
    assert b is not None and b.line == 36 and b.core == dev.position
    assert b.waiting == [Engine.POOL, Engine.ACT]
    m, = b.missing
    assert (m.engine, m.ended, m.line) == (Engine.DVE, True, 35)
    assert p.find_stream(Engine.DVE).disassemble(m.branch).startswith('br.')
    assert str(b) in r.report()
    p = ncsync.assemble(example_text('deadlock.s'))
    r = dev.submit(p, watchdog_ms=300)
    assert r.wait(timeout=30) == ProgState.TIMED_OUT
    assert r.barrier_short() is None and 'barrier (' not in r.report()


def test_program_across_cores(pair, example_text):
    d0, d1 = pair
    parts = ncsync.assemble_cores(example_text('pingpong-cores.s'))
    r = ncsync.submit_cores([d0, d1], parts)
    assert r.across_cores
    assert r.wait(timeout=60) == ProgState.DONE
    s0, s1 = r.statuses()
    assert (s0.core, s1.core) == (0, 1)
    assert s0.sems.get(12) == 50 and s1.sems.get(13) == 50
    assert d0.sems[12] == 50 and d1.sems[13] == 50
    assert 'core 1' in r.report()


def test_deadlock_across_cores(pair):
    d0, d1 = pair
    parts = ncsync.assemble_cores(
        'core 0\nengine pool\n\tnop wait sem[4] >= 1\n'
        '\tdma 0x0, 0x40, 64, peer=1 on_land sem[3]++\n'
        'core 1\nengine act\n\tnop wait sem[3] >= 1\n'
        '\tdma 0x0, 0x40, 64, peer=0 on_land sem[4]++\n')
    r = ncsync.submit_cores([d0, d1], parts, watchdog_ms=300)
    assert r.wait(timeout=30) == ProgState.TIMED_OUT
    dl = r.deadlock()
    assert dl.across_cores
    assert set(dl.cycle) == {(0, Engine.POOL), (1, Engine.ACT)}
    stuck = {(e.core, e.engine): e.posters for e in dl.stuck}
    assert stuck == {(0, Engine.POOL): {(1, Engine.ACT): 1},
                     (1, Engine.ACT): {(0, Engine.POOL): 1}}
    assert 'deadlock: 0:pool -> 1:act -> 0:pool' in r.report() or \
        'deadlock: 1:act -> 0:pool -> 1:act' in r.report()


def test_refused_record_across_cores_names_its_core(pair):
    d0, d1 = pair
    parts = ncsync.assemble_cores(
        'core 0\nengine pool\n\tnop\n'
        'core 1\nengine act\n\tnop\n'
        '\tdma 0x0, 0x40, 64, peer=3 on_land sem[1]++\n')
    with pytest.raises(ncsync.RecordRefused) as e:
        ncsync.submit_cores([d0, d1], parts)
    assert e.value.core == 1
    assert (e.value.engine, e.value.index) == (Engine.ACT, 1)
    assert e.value.record == parts[1].program.find_stream('act')[1]


def test_the_example_runs():
    env = dict(os.environ)
    r = subprocess.run([sys.executable, os.path.join(
        TOP, 'python', 'examples', 'barrier_loop.py'), '--passes', '20'],
        capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'check, 2 passes: safe' in r.stdout
    assert 'run, 20 passes: done, sem[0] = 100 (want 100)' in r.stdout
