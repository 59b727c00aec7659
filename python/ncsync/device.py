# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""A core (/dev/ncsyncN): its banks, its waits and the programs it runs.

``Device(core)`` opens a core (``with Device(0) as dev:``).  ``dev.sems``
and ``dev.events`` are read-only ``memoryview``s over the core's CSR
mapping: reading one is a load from the shared mapping, no system call.
Updates (``sem_set()``, ``sem_inc()``, ...) and waits go through the
ioctls.  ``dev.submit(program)`` (or ``submit_cores()`` for a program
across the cores of a logical core) returns a ``Run``: wait for it, read
its status, and when it went wrong, its deadlock analysis.
"""

from dataclasses import dataclass, field, fields, make_dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ._lib import Handle, ffi, lib, check, error, text, engine_name
from .constants import (BlockKind, EngineState, Fault, ProgState)
from .deadlock import BarrierShort, Deadlock
from .errors import RecordRefused
from .program import Part, Program, c_parts

__all__ = ['Device', 'Run', 'Status', 'EngineStatus', 'Info', 'Stats',
           'submit_cores']


def _struct_class(name: str, ctype: str, doc: str):
    """A dataclass with the fields of the C struct @ctype (kept in step
    with the header: the fields are read from the header's declaration)."""
    cls = make_dataclass(name, [f for f, _ in ffi.typeof(ctype).fields])
    cls.__doc__ = doc
    cls.__module__ = __name__
    return cls


def _from_c(cls, c):
    return cls(**{f.name: getattr(c, f.name) for f in fields(cls)})


Info = _struct_class('Info', 'struct ncsync_info',
                     'A core\'s NCSYNC_IOC_INFO: the fields of struct '
                     'ncsync_info (uapi.rst).')
Stats = _struct_class('Stats', 'struct ncsync_stats',
                      'A core\'s counters: the fields of struct ncsync_stats.')


def _deadline(timeout: Optional[float]):
    """An absolute CLOCK_MONOTONIC deadline @timeout seconds from now."""
    if timeout is None:
        return ffi.NULL
    ts = ffi.new('struct timespec *')
    lib.ncsync_deadline_after(ts, int(timeout * 1e9))
    return ts


@dataclass
class EngineStatus:
    """One engine of a program's status (struct ncsync_engine_status)."""

    engine: int
    state: EngineState
    fault: Fault
    wait_kind: BlockKind
    wait_mode: int
    wait_index: int
    wait_lane: int
    pc: int
    wait_threshold: int
    wait_current: int
    dma_outstanding: int
    executed: int

    @property
    def name(self) -> str:
        """The engine's name ("pool", ...)."""
        return engine_name(self.engine)

    def waits_for(self) -> Optional[str]:
        """What a blocked engine waits for, as "sem[2] > 0", else None."""
        if self.state != EngineState.BLOCKED:
            return None
        if self.wait_kind == BlockKind.SEM:
            return 'sem[%u] %s %d' % (
                self.wait_index, text(lib.ncsync_wait_mode_name(
                    self.wait_mode)), self.wait_threshold)
        if self.wait_kind == BlockKind.EVENT:
            return 'event[%u] %s' % (self.wait_index, text(
                lib.ncsync_wait_mode_name(self.wait_mode)))
        return self.wait_kind.name.lower()

    def __str__(self) -> str:
        s = 'engine %u %s %s record %u, %u executed' % (
            self.engine, self.name, self.state.name.lower(), self.pc,
            self.executed)
        w = self.waits_for()
        if w:
            s += ': waits for %s, now %d' % (w, self.wait_current)
        if self.fault:
            s += ' (fault: %s)' % self.fault.name.lower()
        return s


@dataclass
class Status:
    """A program's status on one core: ``state`` (a ProgState), ``engines``
    (EngineStatus, in submission order), ``sems`` ({index: value} of the
    non-zero semaphores) and ``core`` (the core's position)."""

    state: ProgState
    engines: List[EngineStatus]
    sems: Dict[int, int]
    core: int
    _c: object = field(default=None, repr=False, compare=False)

    @property
    def finished(self) -> bool:
        """The program has ended (not queued nor running)."""
        return self.state not in (ProgState.QUEUED, ProgState.RUNNING)

    def lines(self, program: Optional[Program] = None) -> List[str]:
        """The report's lines: each engine (with the record it stopped at,
        from @program when given) and the non-zero semaphores."""
        out = []
        for e in self.engines:
            out.append(str(e))
            s = program.find_stream(e.engine) if program else None
            if s is not None and e.state != EngineState.DONE and \
                    e.pc < len(s):
                out.append('    %u: %s' % (e.pc, s.disassemble(e.pc)))
        out.append('non-zero semaphores: %s' % (' '.join(
            '[%u]=%d' % kv for kv in sorted(self.sems.items())) or 'none'))
        return out

    def __str__(self) -> str:
        return '\n'.join([self.state.name.lower()] +
                         ['  ' + line for line in self.lines()])


def _status(c, sems, core: int) -> Status:
    engines = [EngineStatus(e.engine, EngineState(e.state), Fault(e.fault),
                            BlockKind(e.wait_kind), e.wait_mode,
                            e.wait_index, e.wait_lane, e.pc,
                            e.wait_threshold, e.wait_current,
                            e.dma_outstanding, e.executed)
               for e in c.engines[0:c.nengines]]
    values = {sems[i].index: sems[i].value for i in range(c.nsems)}
    # Kept for the deadlock analysis, without the address of @sems, which
    # is freed with it.
    c.sems = 0
    return Status(ProgState(c.state), engines, values, core, c)


class Device(Handle):
    """An open core, /dev/ncsync@core, with its read-only CSR mapping.

    Args:
        core: the core's index N.
        writable: open for writing (updates, submissions); a read-only
            descriptor can read and wait.
    """

    def __init__(self, core: int = 0, writable: bool = True):
        pp = ffi.new('struct ncsync_dev **')
        check(lib.ncsync_open(core, writable, pp), 'ncsync_open')
        super().__init__(pp[0], lib.ncsync_close)
        self.info: Info = _from_c(Info, lib.ncsync_get_info(self.ptr))
        # Made once: reading dev.sems[i] in a loop makes no new view.
        self._sems = self._window(lib.NCSYNC_CSR_SEM_READ, 'i')
        self._events = self._window(lib.NCSYNC_CSR_EVENTS, 'I')

    _what = 'device'

    def __enter__(self) -> 'Device':
        return self

    def __repr__(self) -> str:
        return '<ncsync.Device core %u%s>' % (
            self.info.core, ' (closed)' if self.closed else '')

    def close(self) -> None:
        """Close the descriptor and unmap the banks; the views handed out
        are released (reading one afterwards raises ValueError)."""
        for v in (self._sems, self._events):
            try:
                v.release()
            except BufferError:
                pass
        super().close()

    def fileno(self) -> int:
        """The descriptor (for select/poll: readable when the banks
        changed since the last ack())."""
        return lib.ncsync_fd(self.ptr)

    @property
    def core(self) -> int:
        """The core's index N."""
        return self.info.core

    @property
    def position(self) -> int:
        """The core's position in its logical core."""
        return self.info.core % self.info.lnc if self.info.lnc else 0

    def _window(self, offset: int, fmt: str) -> memoryview:
        m = ffi.cast('struct ncsync_dev_map *', self.ptr)
        buf = ffi.buffer(ffi.cast('char *', m.csr) + offset,
                         lib.NCSYNC_CSR_WINDOW_SIZE)
        return memoryview(buf).cast(fmt).toreadonly()

    @property
    def sems(self) -> memoryview:
        """The 256 semaphores, a read-only memoryview of int32 over the
        mapping: ``dev.sems[3]`` reads semaphore 3 as it is now."""
        return self._sems

    @property
    def events(self) -> memoryview:
        """The 256 events, a read-only memoryview of uint32 (0 or 1)."""
        return self._events

    def sem(self, index: int) -> int:
        """Semaphore @index, read from the mapping (ncsync_sem_read())."""
        if not 0 <= index < lib.NCSYNC_NUM_SEMS:
            raise IndexError(index)
        return lib.ncsync_sem_read(self.ptr, index)

    def event(self, index: int) -> bool:
        """Event @index, read from the mapping."""
        if not 0 <= index < lib.NCSYNC_NUM_EVENTS:
            raise IndexError(index)
        return bool(lib.ncsync_event_read(self.ptr, index))

    def _update(self, fn, name: str, index: int, value: int) -> int:
        after = ffi.new('int32_t *')
        check(fn(self.ptr, index, value, after), name)
        return after[0]

    def sem_set(self, index: int, value: int) -> int:
        """Semaphore @index = @value; the new value."""
        return self._update(lib.ncsync_sem_set, 'ncsync_sem_set', index,
                            value)

    def sem_inc(self, index: int, n: int = 1) -> int:
        """Semaphore @index += @n (mod 2^32); the new value."""
        return self._update(lib.ncsync_sem_inc, 'ncsync_sem_inc', index,
                            n & 0xffffffff)

    def sem_dec(self, index: int, n: int = 1) -> int:
        """Semaphore @index -= @n (mod 2^32); the new value."""
        return self._update(lib.ncsync_sem_dec, 'ncsync_sem_dec', index,
                            n & 0xffffffff)

    def event_set(self, index: int) -> None:
        """Set event @index."""
        check(lib.ncsync_event_set(self.ptr, index), 'ncsync_event_set')

    def event_clear(self, index: int) -> None:
        """Clear event @index."""
        check(lib.ncsync_event_clear(self.ptr, index), 'ncsync_event_clear')

    def batch(self, ops: Sequence[Tuple[int, int, int, int]]
              ) -> List[Tuple[int, int]]:
        """Apply (bank, op, index, value) operations atomically, in order
        (NCSYNC_BANK_*, NCSYNC_OP_*); each one's (before, after)."""
        c = ffi.new('struct ncsync_op[]', len(ops))
        for i, (bank, op, index, value) in enumerate(ops):
            c[i].bank, c[i].op, c[i].index = bank, op, index
            c[i].value = value & 0xffffffff
        check(lib.ncsync_batch(self.ptr, c, len(ops)), 'ncsync_batch')
        return [(c[i].before, c[i].after) for i in range(len(ops))]

    def csr_read(self, addr: int, n: int = 1) -> List[int]:
        """@n registers from CSR address @addr (pread)."""
        vals = ffi.new('uint32_t[]', n)
        check(lib.ncsync_csr_read(self.ptr, addr, vals, n),
              'ncsync_csr_read')
        return list(vals)

    def csr_write(self, addr: int, values: Sequence[int]) -> None:
        """Write @values to CSR address @addr on (pwrite)."""
        vals = ffi.new('uint32_t[]', [v & 0xffffffff for v in values])
        check(lib.ncsync_csr_write(self.ptr, addr, vals, len(values)),
              'ncsync_csr_write')

    def wait_sem(self, index: int, mode: int, threshold: int,
                 timeout: Optional[float] = None) -> int:
        """Block until semaphore @index compares with @threshold by @mode
        (WaitMode.SEM_*); the value that satisfied it.  @timeout in
        seconds (None: none); NcsyncTimeout at the deadline."""
        seen = ffi.new('int32_t *')
        check(lib.ncsync_wait_sem(self.ptr, index, mode, threshold,
                                  _deadline(timeout), seen),
              'ncsync_wait_sem')
        return seen[0]

    def wait_event(self, index: int, mode: int,
                   timeout: Optional[float] = None) -> None:
        """Block until event @index is as @mode (WaitMode.EVT_*) says."""
        check(lib.ncsync_wait_event(self.ptr, index, mode,
                                    _deadline(timeout)), 'ncsync_wait_event')

    def reset(self) -> None:
        """Clear every semaphore and event; waits end with ECANCELED."""
        check(lib.ncsync_reset(self.ptr), 'ncsync_reset')

    def ack(self) -> int:
        """Acknowledge the change sequence (poll); the sequence."""
        seq = ffi.new('uint64_t *')
        check(lib.ncsync_ack(self.ptr, seq), 'ncsync_ack')
        return seq[0]

    def stats(self) -> Stats:
        """The core's counters."""
        st = ffi.new('struct ncsync_stats *')
        check(lib.ncsync_stats(self.ptr, st), 'ncsync_stats')
        return _from_c(Stats, st)

    def submit(self, program: Program, *, strict: bool = False,
               conform: bool = False, watchdog_ms: int = 0,
               flags: int = 0) -> 'Run':
        """Submit @program (finalized first if it is not); its Run.

        @strict and @conform add NCSYNC_SUBMIT_F_STRICT and _CONFORM to
        @flags; @watchdog_ms 0 takes the module's default.  A record the
        library or the kernel refuses raises RecordRefused."""
        flags |= (lib.NCSYNC_SUBMIT_F_STRICT if strict else 0) | \
            (lib.NCSYNC_SUBMIT_F_CONFORM if conform else 0)
        pid = ffi.new('uint32_t *')
        err = ffi.new('struct ncsync_submit_error *')
        ret = lib.ncsync_program_submit(self.ptr, program.ptr, flags,
                                        watchdog_ms, pid, err)
        if ret < 0:
            raise program._refused(ret, 'ncsync_program_submit', err)
        return Run(pid[0], [self], [Part(self.position, program)], False)


def submit_cores(devices: Sequence[Device],
                 programs: Sequence[Union[Program, Part]], *,
                 strict: bool = False, conform: bool = False,
                 watchdog_ms: int = 0, flags: int = 0) -> 'Run':
    """Submit @programs[i] on @devices[i]'s core: one program across the
    cores of a logical core (ncsync_program_submit_cores()), submitted
    through @devices[0].  Parts from assemble_cores() may be given: their
    programs are used, in order.  Raises RecordRefused (with its ``core``)
    for a refused record."""
    progs = [p.program if isinstance(p, Part) else p for p in programs]
    flags |= (lib.NCSYNC_SUBMIT_F_STRICT if strict else 0) | \
        (lib.NCSYNC_SUBMIT_F_CONFORM if conform else 0)
    n = len(devices)
    cd = ffi.new('struct ncsync_dev *[]', [d.ptr for d in devices])
    cp = ffi.new('struct ncsync_program *[]', [p.ptr for p in progs])
    pid = ffi.new('uint32_t *')
    err = ffi.new('struct ncsync_submit_error *')
    part = ffi.new('unsigned int *')
    ret = lib.ncsync_program_submit_cores(cd, cp, n, flags, watchdog_ms, pid,
                                          err, part)
    if ret < 0:
        if err.reason and part[0] < n:
            e = progs[part[0]]._refused(ret, 'ncsync_program_submit_cores',
                                        err, devices[part[0]].position)
            if isinstance(e, RecordRefused):
                raise e
        raise error(ret, 'ncsync_program_submit_cores')
    return Run(pid[0], list(devices),
               [Part(d.position, p) for d, p in zip(devices, progs)], True)


class Run:
    """A submitted program: ``id``, the ``devices`` it runs on (the first
    submitted it) and its ``parts`` (one per core)."""

    def __init__(self, pid: int, devices: List[Device], parts: List[Part],
                 across_cores: bool):
        self.id = pid
        self.devices = devices
        self.parts = parts
        self.across_cores = across_cores

    def __repr__(self) -> str:
        return '<ncsync.Run program %u on core %u>' % (
            self.id, self.devices[0].core)

    def wait(self, timeout: Optional[float] = None) -> ProgState:
        """Block until the program ends; its final state.  @timeout in
        seconds (None: none); NcsyncTimeout when it passes first."""
        state = ffi.new('uint32_t *')
        check(lib.ncsync_program_wait(self.devices[0].ptr, self.id,
                                      _deadline(timeout), state),
              'ncsync_program_wait')
        return ProgState(state[0])

    def status(self, core: Optional[int] = None,
               release: bool = False) -> Status:
        """The status on the core at position @core (None: the submitter's);
        @release forgets a finished program (submitter's core only)."""
        c = ffi.new('struct ncsync_prog_status *')
        sems = ffi.new('struct ncsync_sem_value[]', lib.NCSYNC_NUM_SEMS)
        dev = self.devices[0]
        if core is None or (core == dev.position and not self.across_cores):
            check(lib.ncsync_program_status(dev.ptr, self.id, release, c,
                                            sems), 'ncsync_program_status')
            return _status(c, sems, dev.position)
        if release:
            raise ValueError('release reports the submitter\'s core')
        check(lib.ncsync_program_status_core(dev.ptr, self.id, core, c, sems),
              'ncsync_program_status_core')
        return _status(c, sems, core)

    def statuses(self) -> List[Status]:
        """The status of every part, in the order of ``parts``."""
        return [self.status(p.core) for p in self.parts]

    def cancel(self) -> None:
        """Cancel the program."""
        check(lib.ncsync_program_cancel(self.devices[0].ptr, self.id),
              'ncsync_program_cancel')

    def deadlock(self, statuses: Optional[List[Status]] = None) -> Deadlock:
        """Which engines are stuck and why (ncsync_program_deadlock(), or
        its cores form), from @statuses (default: statuses())."""
        statuses = statuses or self.statuses()
        if not self.across_cores:
            dl = ffi.new('struct ncsync_deadlock *')
            check(lib.ncsync_program_deadlock(self.parts[0].program.ptr,
                                              statuses[0]._c, dl),
                  'ncsync_program_deadlock')
            return Deadlock.from_c(dl, self.parts[0].core)
        st = ffi.new('struct ncsync_prog_status[]', len(statuses))
        for i, s in enumerate(statuses):
            st[i] = s._c[0]
        dl = ffi.new('struct ncsync_deadlock_cores *')
        check(lib.ncsync_program_deadlock_cores(c_parts(self.parts), st,
                                                len(self.parts), dl),
              'ncsync_program_deadlock_cores')
        return Deadlock.from_c_cores(dl)

    def barrier_short(self, statuses: Optional[List[Status]] = None
                      ) -> Optional[BarrierShort]:
        """The lowered barrier engines wait in that another engine of
        their part will not reach (ncsync_program_barrier_short()), from
        @statuses (default: statuses()); None when there is none."""
        statuses = statuses or self.statuses()
        st = ffi.new('struct ncsync_prog_status[]', len(statuses))
        for i, s in enumerate(statuses):
            st[i] = s._c[0]
        out = ffi.new('struct ncsync_barrier_short *')
        check(lib.ncsync_program_barrier_short(c_parts(self.parts), st,
                                               len(self.parts), out),
              'ncsync_program_barrier_short')
        return BarrierShort.from_c(out)

    def report(self) -> str:
        """The status of every part and, unless the program completed or
        halted, the deadlock analysis: the text ``ncsync run`` prints."""
        statuses = self.statuses()
        out = ['program %u on core %u: %s' % (
            self.id, self.devices[0].core, statuses[0].state.name.lower())]
        for s, part in zip(statuses, self.parts):
            ind = '  '
            if self.across_cores:
                out.append('  core %u' % s.core)
                ind = '    '
            out += [ind + line for line in s.lines(part.program)]
        if statuses[0].state not in (ProgState.DONE, ProgState.HALTED):
            dl = self.deadlock(statuses)
            if dl:
                out += ['  ' + line for line in str(dl).splitlines()]
                barrier = self.barrier_short(statuses)
                if barrier is not None:
                    out.append('  ' + str(barrier))
        return '\n'.join(out)
