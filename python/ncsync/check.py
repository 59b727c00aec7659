# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""The model checker: every schedule of a program, on a host model.

``check()`` runs ncsync_check() (or ncsync_check_cores() for the parts of a
program across cores) and returns a ``CheckResult`` whose defects are
Python objects, copied out of the library's result: its kind, the schedule
that reaches it (``Step``s, each with the text line of its record), the
state reached and, for a deadlock, who waits on whom.  ``replay()``
follows a schedule step by step and returns every state along it
(Documentation/ncsync/check.rst).
"""

import errno
from dataclasses import dataclass
from typing import (Iterable, List, Mapping, Optional, Sequence, Union)

from ._lib import ffi, lib, check as _ok, text, engine_name
from .constants import CheckPart, DefectKind, EngineState, Verdict
from .deadlock import BarrierShort, Deadlock
from .errors import ReplayError
from .program import Part, Program, c_parts

__all__ = ['check', 'replay', 'CheckResult', 'Defect', 'Step', 'CheckState',
           'CheckEngine', 'Copy', 'CoreState']

Checked = Union[Program, Sequence[Part]]


@dataclass(frozen=True)
class Step:
    """One step of a schedule.

    Attributes:
        engine: the engine that steps (for a landing: the copy's issuer).
        part: what of its record it executes (a CheckPart).
        core: the position of its core (0 for a program of one core).
        record: the record executed (or the copy's DMA record).
        copy: a landing: the issuer's copy number.
        line: the text line the record was assembled from, 0 for none.
    """

    engine: int
    part: CheckPart
    core: int = 0
    record: int = 0
    copy: int = 0
    line: int = 0

    def __str__(self) -> str:
        where = '%s%s' % ('%u:' % self.core if self.core else '',
                          engine_name(self.engine))
        if self.part == CheckPart.LAND:
            return '%s copy %u lands (record %u)' % (where, self.copy,
                                                    self.record)
        return '%s record %u %s%s' % (where, self.record,
                                      self.part.name.lower(),
                                      ' (line %u)' % self.line
                                      if self.line else '')


@dataclass(frozen=True)
class Copy:
    """A copy in flight: its issuer (engine, core), DMA record and number."""

    engine: int
    core: int
    record: int
    copy: int


@dataclass
class CheckEngine:
    """An engine of a checked state: its state (an EngineState), its next
    step's part, its copies in flight, its pc and its registers."""

    engine: int
    state: EngineState
    part: CheckPart
    inflight: int
    pc: int
    regs: List[int]


@dataclass
class CheckState:
    """A core as the checker sees it: engines, copies in flight, banks
    (``sems``: 256 values; ``events``: 256 values, 0 or 1)."""

    engines: List[CheckEngine]
    copies: List[Copy]
    sems: List[int]
    events: List[int]

    def engine(self, engine) -> CheckEngine:
        """The entry of @engine (a number)."""
        for e in self.engines:
            if e.engine == engine:
                return e
        raise KeyError(engine)


@dataclass
class CoreState:
    """One core of a checked state: its position and its CheckState."""

    core: int
    state: CheckState


def _copy(c) -> Copy:
    return Copy(c.engine, c.core, c.record, c.copy)


def _state(st) -> CheckState:
    engines = [CheckEngine(e.engine, EngineState(e.state), CheckPart(e.part),
                           e.inflight, e.pc, list(e.regs))
               for e in st.engines[0:st.nengines]]
    return CheckState(engines, [_copy(c) for c in st.copies[0:st.ncopies]],
                      list(st.sems), list(st.events))


def _cores(cores, n) -> List[CoreState]:
    return [CoreState(cores[i].core, _state(cores[i].state))
            for i in range(n)]


@dataclass
class Defect:
    """A defect and the shortest schedule found that reaches it.

    Attributes:
        kind: a DefectKind; ``name`` its name ("deadlock", "dma-race", ...).
        engine, core, record: the engine at fault, its core's position and
            its record (check.rst, "Defects").
        steps: the schedule from the initial state.
        state: the state of the engine's core after the last step.
        cores: the state of every core (the parts', then their peers').
        deadlock: for a deadlock or a barrier imbalance, who waits on whom.
        other: for a dma-race, the copy in flight the later one overlaps.
        barrier: for a deadlock or a barrier imbalance where engines wait
            in a lowered barrier another engine will not reach, that
            barrier (its line) and who misses it (a BarrierShort: the
            branch that skips it, with its line); None otherwise.
    """

    kind: DefectKind
    name: str
    engine: int
    core: int
    record: int
    steps: List[Step]
    state: CheckState
    cores: List[CoreState]
    deadlock: Optional[Deadlock]
    other: Optional[Copy]
    barrier: Optional[BarrierShort] = None

    @property
    def lines(self) -> List[int]:
        """The source lines the schedule runs through, in order, each once."""
        seen = []
        for s in self.steps:
            if s.line and s.line not in seen:
                seen.append(s.line)
        return seen

    @property
    def line(self) -> Optional[int]:
        """The text line of the record at fault, when a step ran it."""
        for s in reversed(self.steps):
            if (s.core, s.engine, s.record) == \
                    (self.core, self.engine, self.record) and s.line:
                return s.line
        return None

    def __str__(self) -> str:
        out = ['%s: %s%s record %u after %u steps' % (
            self.name, '%u:' % self.core if len(self.cores) > 1 else '',
            engine_name(self.engine), self.record, len(self.steps))]
        if self.deadlock is not None and self.deadlock:
            out.append(str(self.deadlock))
        if self.barrier is not None:
            out.append(str(self.barrier))
        return '\n'.join(out)

    @classmethod
    def _from_c(cls, d) -> 'Defect':
        kind = DefectKind(d.kind)
        steps = [Step(s.engine, CheckPart(s.part), s.core, s.record, s.copy,
                      s.line) for s in d.steps[0:d.nsteps]]
        dl = None
        if kind in (DefectKind.DEADLOCK, DefectKind.BARRIER_IMBALANCE):
            dl = Deadlock.from_c_cores(d.deadlock_cores) \
                if d.deadlock_cores != ffi.NULL \
                else Deadlock.from_c(d.deadlock, d.core)
        other = _copy(d.other) if kind == DefectKind.DMA_RACE else None
        barrier = BarrierShort.from_c(d.barrier) \
            if d.barrier != ffi.NULL else None
        return cls(kind, text(lib.ncsync_defect_name(d.kind)), d.engine,
                   d.core, d.record, steps, _state(d.state),
                   _cores(d.cores, d.ncores), dl, other, barrier)


@dataclass
class CheckResult:
    """What check() found: ``verdict`` (a Verdict), ``states`` explored,
    ``complete`` (every schedule explored), ``defects``, and
    ``class_states``: the states the search on a loop's classes explored
    before it fell back to the search pass by pass (not in ``states``;
    0 when it did not fall back)."""

    verdict: Verdict
    states: int
    complete: bool
    defects: List[Defect]
    class_states: int = 0

    @property
    def safe(self) -> bool:
        """Every schedule explored and no defect."""
        return self.verdict == Verdict.SAFE

    def __str__(self) -> str:
        head = '%s: %u states%s' % (self.verdict.name.lower(), self.states,
                                    '' if self.complete else ' (incomplete)')
        return '\n'.join([head] + [str(d) for d in self.defects])


def _opts(max_states: Optional[int], timeout_ms: int, dma_fifo: bool,
          sems: Union[Mapping[int, int], Sequence[int], None],
          events: Optional[Iterable[int]]):
    o = ffi.new('struct ncsync_check_opts *')
    lib.ncsync_check_opts_init(o)
    if max_states is not None:
        o.max_states = max_states
    o.timeout_ms = timeout_ms
    o.flags = lib.NCSYNC_CHECK_F_DMA_FIFO if dma_fifo else 0
    if sems:
        items = sems.items() if isinstance(sems, Mapping) \
            else enumerate(sems)
        for i, v in items:
            o.sems[i] = v
    for i in events or ():
        o.events[i] = 1
    return o


def _is_parts(what: Checked) -> bool:
    """@what is a program across cores; finalize its programs."""
    for p in what if not isinstance(what, Program) else [what]:
        (p.program if isinstance(p, Part) else p).finalize()
    return not isinstance(what, Program)


def check(what: Checked, *, max_states: Optional[int] = None,
          timeout_ms: int = 0, dma_fifo: bool = False,
          sems: Union[Mapping[int, int], Sequence[int], None] = None,
          events: Optional[Iterable[int]] = None) -> CheckResult:
    """Check @what on every schedule (ncsync_check()).

    Args:
        what: a Program, or the Parts of a program across cores
            (assemble_cores()), checked as one.
        max_states: distinct states to explore at most (None: the
            library's default, NCSYNC_CHECK_MAX_STATES; 0: no limit).
        timeout_ms: milliseconds to search at most (0: no limit).
        dma_fifo: copies land in issue order (``--dma-fifo``).
        sems: initial semaphores, {index: value} or a sequence.
        events: indices of the events set initially.

    The program is lowered and finalized first if it was not.
    """
    o = _opts(max_states, timeout_ms, dma_fifo, sems, events)
    resp = ffi.new('struct ncsync_check_result **')
    cores = _is_parts(what)
    if cores:
        cp = c_parts(what)
        _ok(lib.ncsync_check_cores(cp, len(what), o, resp),
            'ncsync_check_cores')
    else:
        _ok(lib.ncsync_check(what.ptr, o, resp), 'ncsync_check')
    res = resp[0]
    try:
        defects = [Defect._from_c(lib.ncsync_check_defect(res, i))
                   for i in range(lib.ncsync_check_ndefects(res))]
        return CheckResult(Verdict(lib.ncsync_check_verdict(res)),
                           lib.ncsync_check_states(res),
                           bool(lib.ncsync_check_complete(res)), defects,
                           lib.ncsync_check_class_states(res))
    finally:
        lib.ncsync_check_free(res)


def _c_steps(steps: Iterable[Step]):
    steps = list(steps)
    cs = ffi.new('struct ncsync_check_step[]', max(len(steps), 1))
    for i, s in enumerate(steps):
        cs[i].engine = s.engine
        cs[i].part = s.part
        cs[i].core = s.core
        cs[i].record = s.record
        cs[i].copy = s.copy
        cs[i].line = s.line
    return cs, len(steps)


def replay(what: Checked, steps: Union[Defect, Iterable[Step]], *,
           dma_fifo: bool = False,
           sems: Union[Mapping[int, int], Sequence[int], None] = None,
           events: Optional[Iterable[int]] = None) -> list:
    """Follow @steps (or a Defect's schedule) from the initial state.

    Returns the states along it, the initial one first: for a Program a
    list of CheckState, for the Parts of a program across cores a list of
    lists of CoreState.  Raises ReplayError when a step cannot run.
    """
    if isinstance(steps, Defect):
        steps = steps.steps
    cs, n = _c_steps(steps)
    o = _opts(None, 0, dma_fifo, sems, events)
    done = ffi.new('size_t *')
    states: list = []
    if _is_parts(what):
        @ffi.callback('int(void *, size_t, const struct ncsync_check_core *,'
                      ' unsigned int)')
        def fn_cores(arg, i, cores, ncores):
            states.append(_cores(cores, ncores))
            return 0
        ret = lib.ncsync_check_replay_cores(c_parts(what), len(what), o, cs,
                                            n, fn_cores, ffi.NULL, done)
        name = 'ncsync_check_replay_cores'
    else:
        @ffi.callback('int(void *, size_t, const struct ncsync_check_state *)')
        def fn(arg, i, st):
            states.append(_state(st))
            return 0
        ret = lib.ncsync_check_replay(what.ptr, o, cs, n, fn, ffi.NULL, done)
        name = 'ncsync_check_replay'
    if ret == -errno.EPERM:
        raise ReplayError(-ret, name, done[0], states)
    _ok(ret, name)
    return states
