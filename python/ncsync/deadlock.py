# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""Who waits on whom: ncsync_program_deadlock() and its cores form; and
the barrier some engines wait in while another misses it,
ncsync_program_barrier_short().

Both the device's status reports (``Run.deadlock()``,
``Run.barrier_short()``) and the checker's defects (``Defect.deadlock``,
``Defect.barrier``) carry a ``Deadlock`` and a ``BarrierShort``.  Engines are named
by (core, engine) pairs: the core is the position of the engine's core
in its logical core (0 for a program of one core).
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ._lib import lib, engine_name

CoreEngine = Tuple[int, int]


def label(ce: CoreEngine, cores: bool) -> str:
    """"pool", or "1:pool" for a program across cores."""
    name = engine_name(ce[1])
    return '%u:%s' % (ce[0], name) if cores else name


@dataclass
class DeadlockEngine:
    """One engine of a deadlock analysis.

    Attributes:
        core: its core's position.
        engine: the engine (NCSYNC_ENGINE_*).
        stuck: it waits on what only stuck engines could post.
        posters: {(core, engine): record} of the engines that could still
            post what it waits for, each with the first such record.
    """

    core: int
    engine: int
    stuck: bool
    posters: Dict[CoreEngine, int] = field(default_factory=dict)


@dataclass
class Deadlock:
    """The analysis: ``engines`` in status order, ``cycle`` a cycle of stuck
    engines (each waits for what only the next could post), or []."""

    engines: List[DeadlockEngine]
    cycle: List[CoreEngine]
    across_cores: bool = False

    @property
    def stuck(self) -> List[DeadlockEngine]:
        """The engines that are stuck."""
        return [e for e in self.engines if e.stuck]

    def __bool__(self) -> bool:
        return any(e.stuck for e in self.engines)

    def __str__(self) -> str:
        c = self.across_cores
        out = []
        if self.cycle:
            names = [label(e, c) for e in self.cycle]
            out.append('deadlock: ' + ' -> '.join(names + names[:1]))
        for e in self.stuck:
            posters = ', '.join('%s (record %u)' % (label(p, c), r)
                                for p, r in e.posters.items())
            out.append('%s is stuck: %s' % (
                label((e.core, e.engine), c),
                'only %s would post what it waits for' % posters
                if posters else 'nothing would post what it waits for'))
        return '\n'.join(out) if out else 'no engine is stuck'

    @classmethod
    def from_c(cls, dl, core: int = 0) -> 'Deadlock':
        """From a struct ncsync_deadlock of the part on core @core."""
        n = dl.nengines
        ids = [dl.engines[i].engine for i in range(n)]
        engines = []
        for i in range(n):
            e = dl.engines[i]
            posters = {(core, ids[j]): e.poster[j] for j in range(n)
                       if e.poster[j] != lib.NCSYNC_NO_POSTER}
            engines.append(DeadlockEngine(core, e.engine, bool(e.stuck),
                                          posters))
        cycle = [(core, dl.cycle[i]) for i in range(dl.ncycle)]
        return cls(engines, cycle)

    @classmethod
    def from_c_cores(cls, dl) -> 'Deadlock':
        """From a struct ncsync_deadlock_cores."""
        n = dl.nengines
        ids = [(dl.engines[i].core, dl.engines[i].engine) for i in range(n)]
        engines = []
        for i in range(n):
            e = dl.engines[i]
            posters = {ids[j]: e.poster[j] for j in range(n)
                       if e.poster[j] != lib.NCSYNC_NO_POSTER}
            engines.append(DeadlockEngine(e.core, e.engine, bool(e.stuck),
                                          posters))
        cycle = [ids[dl.cycle[i]] for i in range(dl.ncycle)]
        return cls(engines, cycle, across_cores=True)


@dataclass(frozen=True)
class BarrierMiss:
    """An engine that will not arrive at the barrier others wait in.

    Attributes:
        engine: the engine (NCSYNC_ENGINE_*).
        ended: it ended (done or halted); False: it waits elsewhere.
        line: the text line of ``branch``, 0 for none.
        branch: the record of its stream that makes it miss the barrier
            (the branch that jumps over one of the barrier's arrivals, or
            the Exit before them), None when none does.
    """

    engine: int
    ended: bool
    line: int
    branch: Optional[int]

    def __str__(self) -> str:
        out = '%s %s' % (engine_name(self.engine),
                         'ended' if self.ended else 'waits elsewhere')
        if self.branch is None:
            return out
        return '%s: line %u (%s@%u) skips it' % (
            out, self.line, engine_name(self.engine), self.branch)


@dataclass(frozen=True)
class BarrierShort:
    """A lowered barrier some engines of a part wait in and others miss.

    Attributes:
        line: the barrier's text line, 0 for none (a program not assembled
            from text, or the start rendezvous).
        core: the position of the part's core.
        waiting: the engines (NCSYNC_ENGINE_*) that wait in it.
        missing: the part's other engines, each a BarrierMiss.
    """

    line: int
    core: int
    waiting: List[int]
    missing: List[BarrierMiss]

    def __str__(self) -> str:
        """"barrier (line 36): pool, act wait; dve ended: line 35
        (dve@17) skips it", in the words of ``ncsync check``."""
        where = 'barrier (line %u)' % self.line if self.line else 'barrier'
        return '%s: %s wait%s; %s' % (
            where, ', '.join(engine_name(e) for e in self.waiting),
            's' if len(self.waiting) == 1 else '',
            '; '.join(str(m) for m in self.missing))

    @classmethod
    def from_c(cls, b) -> Optional['BarrierShort']:
        """From a struct ncsync_barrier_short; None when no engine waits
        in a barrier another misses."""
        if not b.nwaiting:
            return None
        missing = [BarrierMiss(m.engine, bool(m.ended), m.line,
                               m.branch if m.branch >= 0 else None)
                   for m in b.missing[0:b.nmissing]]
        return cls(b.line, b.core, list(b.waiting[0:b.nwaiting]), missing)
