# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""Programs: one record stream per engine, built, assembled and lowered.

A ``Program`` owns its C ``struct ncsync_program`` and frees it when closed
(``with Program() as p:``, ``p.close()``) or collected.  ``Program.stream()``
returns the ``Stream`` of an engine; its ``add_*`` methods are the
library's builders (``ncsync_add_*``: the runtime's names), each appending
a record (or a few) and returning the index of the first.  The text form
(Documentation/ncsync/asm.rst) goes through ``assemble()``,
``assemble_cores()`` and ``Program.disassemble()``.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, List, Optional, Sequence, Union

from ._lib import (Handle, ffi, lib, check, capture, text, engine_id,
                   error)
from .constants import BarrierLowering
from .errors import AsmError, LowerError, RecordRefused

if TYPE_CHECKING:
    from .check import CheckResult

EngineLike = Union[int, str]

__all__ = ['Events', 'Program', 'Stream', 'Part', 'assemble',
           'assemble_cores', 'disassemble', 'disassemble_cores',
           'disassemble_record']


@dataclass
class Events:
    """The 8-byte events block (lane 0) a builder can add to its record.

    ``wait_mode`` is a WaitMode (or 0), ``upd_mode`` an UpdateMode (or 0);
    ``value`` is both the wait's threshold and the update's operand.
    """

    wait_mode: int = 0
    wait_idx: int = 0
    upd_mode: int = 0
    upd_idx: int = 0
    value: int = 0

    def _c(self):
        ev = ffi.new('struct ncsync_events *')
        ev.wait_mode = self.wait_mode
        ev.wait_idx = self.wait_idx
        ev.upd_mode = self.upd_mode
        ev.upd_idx = self.upd_idx
        ev.value = self.value & 0xffffffff
        return ev


def _ev(events: Optional[Events]):
    return ffi.NULL if events is None else events._c()


def disassemble_record(record: bytes) -> str:
    """One 64-byte record in the text form (ncsync_disasm())."""
    if len(record) != lib.NCSYNC_RECORD_SIZE:
        raise ValueError('a record is %d bytes' % lib.NCSYNC_RECORD_SIZE)
    buf = ffi.new('char[]', lib.NCSYNC_DISASM_LINE_MAX)
    check(lib.ncsync_disasm(record, buf, len(buf)), 'ncsync_disasm')
    return ffi.string(buf).decode()


class Stream:
    """The records of one engine of a Program (or of one of its functions).

    ``len(s)`` is its record count, ``s[i]`` the 64 bytes of record i,
    ``s.disassemble(i)`` its text.  The ``add_*`` methods append records
    and return the index of the first; those that take ``events`` add the
    events block (an ``Events``) to their record.
    """

    def __init__(self, program: 'Program', ptr):
        self._program = program
        self._ptr = ptr

    @property
    def _s(self):
        """The C stream, while its program is open."""
        if self._program.closed:
            raise ValueError('the program was closed')
        return self._ptr

    def _call(self, fn: str, *args) -> int:
        """ncsync_@fn(stream, *@args): its result, or its NcsyncError."""
        return check(getattr(lib, 'ncsync_' + fn)(self._s, *args),
                     'ncsync_' + fn)

    @property
    def engine(self) -> int:
        """The engine (NCSYNC_ENGINE_*) the stream runs on."""
        return lib.ncsync_stream_engine(self._s)

    def __len__(self) -> int:
        return lib.ncsync_stream_count(self._s)

    def __getitem__(self, index: int) -> bytes:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError('record %d of %d' % (index, len(self)))
        return bytes(ffi.buffer(lib.ncsync_stream_peek(self._s, index),
                                lib.NCSYNC_RECORD_SIZE))

    def __setitem__(self, index: int, record: bytes) -> None:
        """Overwrite record @index (the program is validated again)."""
        if len(record) != lib.NCSYNC_RECORD_SIZE or \
                not 0 <= index < len(self):
            raise ValueError('a record of %d bytes at 0 .. %d' %
                             (lib.NCSYNC_RECORD_SIZE, len(self) - 1))
        ffi.memmove(lib.ncsync_stream_record(self._s, index), record,
                    len(record))

    def __iter__(self) -> Iterator[bytes]:
        return (self[i] for i in range(len(self)))

    def disassemble(self, index: int) -> str:
        """Record @index in the text form."""
        return disassemble_record(self[index])

    def bind(self, label: int) -> None:
        """Bind @label (Program.label()) to the next record appended."""
        check(lib.ncsync_label_bind(self._s, label), 'ncsync_label_bind')

    # The builders, in the order of <ncsync.h>.
    def add_evsem(self, wait_mode: int, wait_idx: int, wait_value: int,
                  upd_mode: int, upd_idx: int, upd_value: int,
                  events: Optional[Events] = None) -> int:
        """EventSemaphore: lane 1's wait and update (lane 0: @events)."""
        return self._call('add_evsem', _ev(events), wait_mode, wait_idx,
                          wait_value & 0xffffffff, upd_mode, upd_idx,
                          upd_value & 0xffffffff)

    def add_semaphore_wait(self, sem: int) -> int:
        """Wait until sem > 0, then decrement it."""
        return self._call('add_semaphore_wait', sem)

    def add_semaphore_wait_eq_and_inc(self, sem: int, value: int) -> int:
        """Wait until sem == @value, then increment it (one atomic step)."""
        return self._call('add_semaphore_wait_eq_and_inc', sem,
                          value & 0xffffffff)

    def add_semaphore_wait_cmp(self, sem: int, mode: int, value: int) -> int:
        """Wait until sem compares with @value by @mode (a WaitMode)."""
        return self._call('add_semaphore_wait_cmp', sem, mode, value)

    def add_semaphore_wait_eq(self, sem: int, value: int) -> int:
        """Wait until sem == @value."""
        return self._call('add_semaphore_wait_eq', sem, value)

    def add_semaphore_wait_lt(self, sem: int, value: int) -> int:
        """Wait until sem < @value."""
        return self._call('add_semaphore_wait_lt', sem, value)

    def add_semaphore_wait_le(self, sem: int, value: int) -> int:
        """Wait until sem <= @value."""
        return self._call('add_semaphore_wait_le', sem, value)

    def add_semaphore_wait_gt(self, sem: int, value: int) -> int:
        """Wait until sem > @value."""
        return self._call('add_semaphore_wait_gt', sem, value)

    def add_semaphore_wait_ge(self, sem: int, value: int) -> int:
        """Wait until sem >= @value."""
        return self._call('add_semaphore_wait_ge', sem, value)

    def add_semaphore_wait_reg(self, sem: int, mode: int, reg: int) -> int:
        """Wait until sem compares by @mode with engine register @reg."""
        return self._call('add_semaphore_wait_reg', sem, mode, reg)

    def add_semaphore_inc(self, sem: int) -> int:
        """sem += 1."""
        return self._call('add_semaphore_inc', sem)

    def add_semaphore_dec(self, sem: int) -> int:
        """sem -= 1."""
        return self._call('add_semaphore_dec', sem)

    def add_semaphore_add(self, sem: int, value: int) -> int:
        """sem += @value."""
        return self._call('add_semaphore_add', sem, value & 0xffffffff)

    def add_semaphore_sub(self, sem: int, value: int) -> int:
        """sem -= @value."""
        return self._call('add_semaphore_sub', sem, value & 0xffffffff)

    def add_semaphore_set(self, sem: int, value: int) -> int:
        """sem = @value."""
        return self._call('add_semaphore_set', sem, value & 0xffffffff)

    def add_event_set(self, event: int) -> int:
        """Set @event."""
        return self._call('add_event_set', event)

    def add_event_clear(self, event: int) -> int:
        """Clear @event."""
        return self._call('add_event_clear', event)

    def add_event_wait(self, event: int, mode: int) -> int:
        """Wait on @event by @mode (a WaitMode EVT_*)."""
        return self._call('add_event_wait', event, mode)

    def add_drain(self, events: Optional[Events] = None) -> int:
        """Drain: wait until every copy the engine issued has landed."""
        return self._call('add_drain', _ev(events))

    def add_halt(self, events: Optional[Events] = None) -> int:
        """Halt the engine."""
        return self._call('add_halt', _ev(events))

    def add_nop(self, events: Optional[Events] = None) -> int:
        """NoOp (with @events: a wait and an update alone)."""
        return self._call('add_nop', _ev(events))

    def add_exit(self, events: Optional[Events] = None) -> int:
        """Exit: the engine is done."""
        return self._call('add_exit', _ev(events))

    def add_sema_clear(self, first: int, last: int,
                       events: Optional[Events] = None) -> int:
        """GroupResetSemaphores of semaphores @first .. @last."""
        return self._call('add_sema_clear', first, last, _ev(events))

    def add_sema_clear_mask(self, sems: Sequence[int],
                            events: Optional[Events] = None) -> int:
        """GroupResetSemaphores of the semaphores @sems (a mask record)."""
        mask = ffi.new('uint32_t[8]')
        for s in sems:
            mask[s // 32] |= 1 << (s % 32)
        return self._call('add_sema_clear_mask', mask, _ev(events))

    def add_poll_sem(self, op: int, dst: int, first: int, count: int,
                     events: Optional[Events] = None) -> int:
        """PollSem: register @dst = min or sum (@op) of @count semaphores."""
        return self._call('add_poll_sem', op, dst, first, count, _ev(events))

    def add_poll_sem_writeback(self, dst: int, first: int, count: int,
                               events: Optional[Events] = None) -> int:
        """PollSem min with write-back: a nonzero minimum to the range too."""
        return self._call('add_poll_sem_writeback', dst, first, count,
                          _ev(events))

    def add_mov32_imm(self, dst: int, imm: int,
                      events: Optional[Events] = None) -> int:
        """Register @dst = @imm."""
        return self._call('add_mov32_imm', dst, imm & 0xffffffff, _ev(events))

    def add_mov32(self, alu: int, dst: int, src: int, imm: int,
                  events: Optional[Events] = None) -> int:
        """Mov32: register @dst = @alu (NCSYNC_ALU_*) of @src and @imm."""
        return self._call('add_mov32', alu, dst, src, imm & 0xffffffff,
                          _ev(events))

    def add_branch(self, label: int, events: Optional[Events] = None) -> int:
        """Branch always to @label."""
        return self._call('add_branch', label, _ev(events))

    def add_br_hint_rel_imm(self, label: int,
                            events: Optional[Events] = None) -> int:
        """BranchHint (0xE1) to @label: no effect but its events block; the
        offset from the hint is written at finalization."""
        return self._call('add_br_hint_rel_imm', label, _ev(events))

    def add_branch_imm(self, comp: int, dtype: int, lhs: int, imm: int,
                       label: int, events: Optional[Events] = None) -> int:
        """Branch to @label when register @lhs @comp (NCSYNC_BR_*) @imm."""
        return self._call('add_branch_imm', comp, dtype, lhs, imm & 0xffffffff,
                          label, _ev(events))

    def add_branch_reg(self, comp: int, dtype: int, lhs: int, rhs: int,
                       label: int, events: Optional[Events] = None) -> int:
        """Branch to @label when register @lhs @comp register @rhs."""
        return self._call('add_branch_reg', comp, dtype, lhs, rhs, label,
                          _ev(events))

    def add_dma(self, src: int, dst: int, length: int, latency_us: int = 0,
                upd_mode: int = 0, upd_idx: int = 0,
                events: Optional[Events] = None) -> int:
        """A copy in device memory; its update applies when it lands."""
        return self._call('add_dma', src, dst, length, latency_us, upd_mode,
                          upd_idx, _ev(events))

    def add_dma_peer(self, peer: int, src: int, dst: int, length: int,
                     latency_us: int = 0, upd_mode: int = 0,
                     upd_idx: int = 0,
                     events: Optional[Events] = None) -> int:
        """A copy whose update lands on the core at position @peer."""
        return self._call('add_dma_peer', peer, src, dst, length, latency_us,
                          upd_mode, upd_idx, _ev(events))

    def insert_events(self, index: int, events: Events) -> int:
        """Put @events on record @index (or a NoOp before it)."""
        return self._call('insert_events', index, events._c())

    def add_raw(self, record: bytes) -> int:
        """Append 64 bytes as they are, unchecked (the text form's .raw)."""
        if len(record) != lib.NCSYNC_RECORD_SIZE:
            raise ValueError('a record is %d bytes' % lib.NCSYNC_RECORD_SIZE)
        return self._call('add_raw', record)

    def add_dma_barrier(self, events: Optional[Events] = None) -> int:
        """DMA barrier (0xC3, a pseudo-op): every copy issued so far lands."""
        return self._call('add_dma_barrier', _ev(events))

    def add_trigger_collective(self,
                               events: Optional[Events] = None) -> int:
        """TriggerCollective (0xC8, a pseudo-op): a NoOp with @events."""
        return self._call('add_trigger_collective', _ev(events))

    def add_trigger_collective2(self,
                                events: Optional[Events] = None) -> int:
        """TriggerCollective2 (0xD9, a pseudo-op): a NoOp with @events."""
        return self._call('add_trigger_collective2', _ev(events))

    def add_trigger_collective2_ext(self,
                                    events: Optional[Events] = None) -> int:
        """TriggerCollective2 Ext (0xDA, a pseudo-op): a NoOp with @events."""
        return self._call('add_trigger_collective2_ext', _ev(events))

    def add_call(self, name: str, args_id: int = 0,
                 events: Optional[Events] = None) -> int:
        """Call (0xD3) of function @name of the same engine, inlined."""
        return self._call('add_call', name.encode(), args_id, _ev(events))

    def add_return(self, events: Optional[Events] = None) -> int:
        """Return (0xD2) from the function being built."""
        return self._call('add_return', _ev(events))


class Program(Handle):
    """A sync program: one record stream per engine.

    ``Program()`` is empty; ``assemble(text)`` reads the text form.  Use it
    as a context manager (or call ``close()``) to free it deterministically.
    The builders of a stream are on ``Stream``; those over every engine
    (``add_sync_barrier()``, ...) are here.
    """

    _what = 'program'

    def __init__(self, _ptr=None):
        if _ptr is None:
            pp = ffi.new('struct ncsync_program **')
            check(lib.ncsync_program_new(pp), 'ncsync_program_new')
            _ptr = pp[0]
        super().__init__(_ptr, lib.ncsync_program_free)

    def __enter__(self) -> 'Program':
        return self

    def stream(self, engine: EngineLike) -> Stream:
        """The stream of @engine (a number or "pool", "act", ...), made
        when the program has none."""
        sp = ffi.new('struct ncsync_stream **')
        check(lib.ncsync_program_stream(self.ptr, engine_id(engine), sp),
              'ncsync_program_stream')
        return Stream(self, sp[0])

    def find_stream(self, engine: EngineLike) -> Optional[Stream]:
        """The stream of @engine, or None when it has none."""
        s = lib.ncsync_program_find_stream(self.ptr, engine_id(engine))
        return None if s == ffi.NULL else Stream(self, s)

    @property
    def engines(self) -> List[int]:
        """The engines that have a stream, in engine order."""
        mask = lib.ncsync_program_engines(self.ptr)
        return [e for e in range(32) if mask & (1 << e)]

    def streams(self) -> List[Stream]:
        """The streams, in engine order."""
        return [self.find_stream(e) for e in self.engines]

    def function(self, engine: EngineLike, name: str) -> Stream:
        """A new function @name of @engine: its body, for Stream.add_call()."""
        sp = ffi.new('struct ncsync_stream **')
        check(lib.ncsync_program_add_function(self.ptr, engine_id(engine),
                                              name.encode(), sp),
              'ncsync_program_add_function')
        return Stream(self, sp[0])

    def label(self) -> int:
        """A new label, for Stream.bind() and the branches."""
        return check(lib.ncsync_label_new(self.ptr), 'ncsync_label_new')

    def set_reserved(self, sem_first: int, nsems: int, event_first: int,
                     nevents: int) -> None:
        """The runtime's reserved slices the lowered barriers use."""
        check(lib.ncsync_program_set_reserved(self.ptr, sem_first, nsems,
                                              event_first, nevents),
              'ncsync_program_set_reserved')

    def set_lnc(self, lnc: int) -> None:
        """The lnc the core barriers and fences are built for."""
        check(lib.ncsync_program_set_lnc(self.ptr, lnc),
              'ncsync_program_set_lnc')

    def sem_alloc(self, n: int = 1) -> int:
        """Allocate @n consecutive semaphores; the first's index."""
        return check(lib.ncsync_sem_alloc(self.ptr, n), 'ncsync_sem_alloc')

    def sem_free(self, first: int, n: int = 1) -> None:
        """Free semaphores from sem_alloc()."""
        check(lib.ncsync_sem_free(self.ptr, first, n), 'ncsync_sem_free')

    def event_alloc(self, n: int = 1) -> int:
        """Allocate @n consecutive events; the first's index."""
        return check(lib.ncsync_event_alloc(self.ptr, n), 'ncsync_event_alloc')

    def event_free(self, first: int, n: int = 1) -> None:
        """Free events from event_alloc()."""
        check(lib.ncsync_event_free(self.ptr, first, n), 'ncsync_event_free')

    def add_sync_barrier(self) -> int:
        """A barrier of every engine of the program, built from records."""
        return check(lib.ncsync_add_sync_barrier(self.ptr),
                     'ncsync_add_sync_barrier')

    def add_core_barrier(self, sem: int, lnc: int) -> int:
        """CoreBarrier (0xD8) on semaphore @sem: every core of @lnc."""
        return check(lib.ncsync_add_core_barrier(self.ptr, sem, lnc),
                     'ncsync_add_core_barrier')

    def add_all_engine_barrier(self, events: Optional[Events] = None) -> int:
        """AllEngineBarrier (0xD5), a pseudo-op lower() rewrites."""
        return check(lib.ncsync_add_all_engine_barrier(self.ptr, _ev(events)),
                     'ncsync_add_all_engine_barrier')

    def add_lower_control_fence(self) -> int:
        """The runtime's lower_control fence over every engine."""
        return check(lib.ncsync_add_lower_control_fence(self.ptr),
                     'ncsync_add_lower_control_fence')

    def lower(self, how: BarrierLowering = BarrierLowering.COUNTER) -> None:
        """Lower the pseudo-ops (barriers, Call, Return, DMA barrier).

        Raises LowerError, whose ``why`` is the library's message."""
        ret = lib.ncsync_program_lower(self.ptr, how)
        if ret < 0:
            raise LowerError(-ret, 'ncsync_program_lower',
                             text(lib.ncsync_program_lower_error(self.ptr)))

    def _refused(self, ret: int, function: str, err,
                 core: int = 0) -> Exception:
        """The exception of @ret, with the record @err names if any."""
        if err.reason:
            s = self.find_stream(err.engine)
            rec = s[err.index] if s is not None and err.index < len(s) \
                else None
            return RecordRefused(-ret, function, err.engine, err.index,
                                 err.reason, core, rec)
        why = text(lib.ncsync_program_lower_error(self.ptr))
        if why:
            return LowerError(-ret, function, why)
        return error(ret, function)

    def finalize(self) -> None:
        """Lower what is left, resolve the labels and validate every record.

        Raises RecordRefused naming the first record refused."""
        ret = lib.ncsync_program_finalize(self.ptr)
        if ret < 0:
            err = ffi.new('struct ncsync_submit_error *')
            lib.ncsync_program_error(self.ptr, err)
            raise self._refused(ret, 'ncsync_program_finalize', err)

    def conform(self) -> Optional[RecordRefused]:
        """The first record the conformance profile refuses (as a
        RecordRefused, not raised), or None when it accepts them all.

        The program must be finalized (NcsyncError EINVAL otherwise)."""
        err = ffi.new('struct ncsync_submit_error *')
        ret = lib.ncsync_program_conform(self.ptr, err)
        if ret == 0:
            return None
        if not err.reason:
            raise error(ret, 'ncsync_program_conform')
        return self._refused(ret, 'ncsync_program_conform', err)

    def disassemble(self) -> str:
        """The program in the text form (ncsync_disasm_program())."""
        return capture(lambda f: lib.ncsync_disasm_program(self.ptr, f))

    def check(self, **opts) -> 'CheckResult':
        """ncsync.check(self, **opts): every schedule (ncsync_check())."""
        from .check import check as _check
        return _check(self, **opts)

    def replay(self, steps, **opts):
        """ncsync.replay(self, steps, **opts): the states along @steps."""
        from .check import replay as _replay
        return _replay(self, steps, **opts)


def assemble(source: str) -> Program:
    """A Program from the text form (ncsync_asm()); raises AsmError."""
    pp = ffi.new('struct ncsync_program **')
    err = ffi.new('struct ncsync_asm_error *')
    ret = lib.ncsync_asm(source.encode(), pp, err)
    if ret < 0:
        raise AsmError(-ret, 'ncsync_asm', err.line, err.col,
                       ffi.string(err.msg).decode())
    return Program(pp[0])


@dataclass
class Part:
    """One core's part of a program across cores: the core's position in
    its logical core and its Program."""

    core: int
    program: Program


def assemble_cores(source: str) -> List[Part]:
    """The parts of a text of "core N" statements (ncsync_asm_cores())."""
    n = lib.NCSYNC_MAX_LNC
    parts = ffi.new('struct ncsync_asm_part[]', n)
    err = ffi.new('struct ncsync_asm_error *')
    ret = lib.ncsync_asm_cores(source.encode(), parts, n, err)
    if ret < 0:
        raise AsmError(-ret, 'ncsync_asm_cores', err.line, err.col,
                       ffi.string(err.msg).decode())
    return [Part(parts[i].core, Program(parts[i].prog)) for i in range(ret)]


def c_parts(parts: Sequence[Part]):
    """A C array of struct ncsync_asm_part for @parts."""
    cp = ffi.new('struct ncsync_asm_part[]', len(parts))
    for i, p in enumerate(parts):
        cp[i].core = p.core
        cp[i].prog = p.program.ptr
    return cp


def disassemble(program: Program) -> str:
    """The text form of @program."""
    return program.disassemble()


def disassemble_cores(parts: Sequence[Part]) -> str:
    """The text form of a program across cores (ncsync_disasm_cores())."""
    cp = c_parts(parts)
    return capture(lambda f: lib.ncsync_disasm_cores(cp, len(parts), f))

