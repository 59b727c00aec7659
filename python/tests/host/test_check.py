# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""check() and replay() from Python, against `ncsync check -j` (the tool
prints the library's result its own way: an independent reading)."""

import json
import os
import subprocess

import pytest

import ncsync
from ncsync import CheckPart, DefectKind, EngineState, Verdict

from conftest import BUILD

TOOL = os.path.join(BUILD, 'tools', 'ncsync')
# The examples small enough to check in a test (barrier-loop.s has
# millions of states; core-barrier-loop.s is inconclusive by design).
QUICK = ['abba.s', 'call-return.s', 'deadlock.s', 'dma-drain.s',
         'pingpong-cores.s', 'producer-consumer.s', 'publish-race.s',
         'token-ring.s']


def load(text):
    if any(line.split()[:1] == ['core'] for line in text.splitlines()):
        return ncsync.assemble_cores(text)
    return ncsync.assemble(text)


@pytest.mark.parametrize('name', QUICK)
def test_check_agrees_with_the_tool(name, examples, example_text):
    res = ncsync.check(load(example_text(name)))
    tool = json.loads(subprocess.run(
        [TOOL, 'check', '-j', os.path.join(examples, name)],
        capture_output=True, text=True).stdout)
    assert res.verdict.name.lower() == tool['verdict']
    assert res.states == tool['states']
    assert res.complete == tool['complete']
    assert res.class_states == tool['accel'].get('class_states', 0)
    assert len(res.defects) == len(tool['defects'])
    for d, t in zip(res.defects, tool['defects']):
        assert d.name == t['kind']
        assert d.record == t['record']
        assert t['engine'].endswith(ncsync._lib.engine_name(d.engine))
        assert [(s.record, s.line) for s in d.steps] == \
            [(s['record'], s['line']) for s in t['schedule']]


def test_class_states_of_a_fall_back(example_text):
    # abba.s: the deadlock is found on the classes of pe's loop first,
    # then searched pass by pass, as without the acceleration.
    res = ncsync.check(ncsync.assemble(example_text('abba.s')))
    assert res.class_states > 0
    small = ncsync.check(ncsync.assemble(example_text('abba.s')),
                         max_states=20)
    assert (small.class_states, small.states) == (20, 20)
    safe = ncsync.check(ncsync.assemble(example_text('producer-consumer.s')))
    assert safe.safe and safe.class_states == 0


def test_deadlock_defect_as_objects(example_text):
    p = ncsync.assemble(example_text('abba.s'))
    res = ncsync.check(p)
    assert res.verdict == Verdict.DEFECT and not res.safe
    d, = res.defects
    assert d.kind == DefectKind.DEADLOCK and d.name == 'deadlock'
    assert d.steps and all(isinstance(s, ncsync.Step) for s in d.steps)
    assert d.lines and all(s.line in d.lines for s in d.steps if s.line)
    # Both engines blocked, each waiting on what the other would post.
    assert {e.state for e in d.state.engines} == {EngineState.BLOCKED}
    assert d.deadlock is not None and d.deadlock
    assert {e for _, e in d.deadlock.cycle} == {1, 3}
    for e in d.deadlock.stuck:
        other = [o for o in d.deadlock.engines if o.engine != e.engine][0]
        assert (0, other.engine) in e.posters
    assert 'deadlock: ' in str(d.deadlock)
    assert len(d.cores) == 1 and d.cores[0].state == d.state


def test_barrier_defect_names_the_skipping_branch(examples, example_text):
    """barrier-skip.s: both defects name the barrier of line 36, the
    engines waiting in it and dve's branch of line 35 that skips it, as
    the tool's -j does; abba.s's deadlock is in no barrier."""
    p = ncsync.assemble(example_text('barrier-skip.s'))
    res = ncsync.check(p)
    tool = json.loads(subprocess.run(
        [TOOL, 'check', '-j', os.path.join(examples, 'barrier-skip.s')],
        capture_output=True, text=True).stdout)
    assert [d.kind for d in res.defects] == \
        [DefectKind.DEADLOCK, DefectKind.BARRIER_IMBALANCE]
    for d, t in zip(res.defects, tool['defects']):
        b, tb = d.barrier, t['barrier']
        assert isinstance(b, ncsync.BarrierShort)
        assert b.line == tb['line'] == 36 and b.core == 0
        assert [ncsync._lib.engine_name(e) for e in b.waiting] == \
            [w['engine'] for w in tb['waiting']] == ['pool', 'act']
        m, = b.missing
        tm, = tb['missing']
        assert (m.engine, m.ended, m.line, m.branch) == \
            (ncsync.Engine.DVE, True, 35, tm['record'])
        assert p.find_stream(m.engine).disassemble(m.branch) \
            .startswith('br.eq.u32 r1, 1')
        assert str(b) == 'barrier (line 36): pool, act wait; dve ended: ' \
            'line 35 (dve@%u) skips it' % m.branch
        assert str(b) in str(d)
    d, = ncsync.check(ncsync.assemble(example_text('abba.s'))).defects
    assert d.deadlock and d.barrier is None


def test_replay_reaches_the_defect_state(example_text):
    p = ncsync.assemble(example_text('abba.s'))
    d = ncsync.check(p).defects[0]
    states = ncsync.replay(p, d)
    assert len(states) == len(d.steps) + 1
    assert states[-1] == d.state
    assert all(v == 0 for v in states[0].sems)
    assert states[0].engines[0].pc == 0


def test_replay_refuses_a_step_that_cannot_run(example_text):
    p = ncsync.assemble(example_text('abba.s'))
    d = ncsync.check(p).defects[0]
    steps = list(d.steps)
    blocked = ncsync.Step(d.engine, CheckPart.WAIT0, 0, d.record)
    with pytest.raises(ncsync.ReplayError) as e:
        ncsync.replay(p, steps + [blocked])
    assert e.value.done == len(steps)
    assert len(e.value.states) == len(steps) + 1
    assert e.value.errno == 1


def test_dma_race_names_the_other_copy(example_text):
    d, = ncsync.check(ncsync.assemble(example_text('publish-race.s'))).defects
    assert d.kind == DefectKind.DMA_RACE
    assert d.other is not None and d.other.engine == ncsync.Engine.POOL
    assert d.deadlock is None


def test_initial_values_and_limits():
    p = ncsync.assemble('engine pool\n\tnop wait sem[5] >= 1\n\texit\n')
    assert [d.kind for d in ncsync.check(p).defects] == \
        [DefectKind.DEADLOCK, DefectKind.UNPOSTED_WAIT]
    assert ncsync.check(p, sems={5: 1}).safe
    assert ncsync.check(p, sems=[0] * 5 + [1]).safe
    e = ncsync.assemble('engine pool\n\tnop wait ev[7] set\n')
    assert DefectKind.UNPOSTED_WAIT in [d.kind for d in
                                        ncsync.check(e).defects]
    assert ncsync.check(e, events=[7]).safe
    r = ncsync.check(ncsync.assemble(
        'engine pool\n\tnop then sem[1]++\n\tnop then sem[1]++\n'
        'engine act\n\tnop then sem[2]++\n\tnop then sem[2]++\n'),
        max_states=2)
    assert r.verdict == Verdict.INCONCLUSIVE and not r.complete


def test_program_across_cores():
    text = ('core 0\nengine pool\n\tnop wait sem[4] >= 1\n'
            '\tdma 0x0, 0x40, 64, peer=1 on_land sem[3]++\n'
            'core 1\nengine act\n\tnop wait sem[3] >= 1\n'
            '\tdma 0x0, 0x40, 64, peer=0 on_land sem[4]++\n')
    parts = ncsync.assemble_cores(text)
    r = ncsync.check(parts)
    # Crossed waits: a deadlock, and waits no reachable value satisfies.
    assert {x.kind for x in r.defects} == {DefectKind.DEADLOCK,
                                           DefectKind.UNPOSTED_WAIT}
    d, = [x for x in r.defects if x.kind == DefectKind.DEADLOCK]
    assert d.kind == DefectKind.DEADLOCK
    assert d.deadlock.across_cores
    assert set(d.deadlock.cycle) == {(0, ncsync.Engine.POOL),
                                     (1, ncsync.Engine.ACT)}
    assert '0:pool' in str(d.deadlock)
    assert [c.core for c in d.cores] == [0, 1]
    states = ncsync.replay(parts, d)
    assert len(states) == len(d.steps) + 1
    assert [c.core for c in states[-1]] == [0, 1]
