# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""The exceptions of the ncsync package.

Every failure of a libncsync call raises ``NcsyncError`` (an ``OSError``:
``errno`` is the library's negated return value), or one of its
subclasses when the library says more: the record it refused, the text
line it could not assemble, why a lowering failed.
"""

from typing import Optional

from ._lib import NcsyncError, NcsyncTimeout, lib, text, engine_name
from .constants import RecReason

__all__ = ['NcsyncError', 'NcsyncTimeout', 'RecordRefused', 'AsmError',
           'LowerError', 'ReplayError']


class RecordRefused(NcsyncError):
    """A record the validator (finalization) or the kernel refused.

    Attributes:
        engine: the record's engine (NCSYNC_ENGINE_*).
        index: its index in the engine's stream, as finalized (lowered).
        reason: why (a RecReason).
        core: for a program across cores, the position of the part's core
            in the logical core; else 0.
        record: the 64 bytes of the refused record, or None when the
            index is outside the stream.
    """

    def __init__(self, err: int, function: str, engine: int, index: int,
                 reason: int, core: int = 0,
                 record: Optional[bytes] = None):
        try:
            self.reason = RecReason(reason)
        except ValueError:
            self.reason = reason
        self.engine = engine
        self.index = index
        self.core = core
        self.record = record
        where = 'engine %s record %u: %s' % (
            engine_name(engine), index, text(lib.ncsync_reason_name(reason)))
        if core:
            where = 'core %u: %s' % (core, where)
        super().__init__(err, function, where)


class AsmError(NcsyncError):
    """The text form was refused: ``line`` and ``col`` (1-based), ``msg``."""

    def __init__(self, err: int, function: str, line: int, col: int,
                 msg: str):
        self.line = line
        self.col = col
        self.msg = msg
        super().__init__(err, function, '%u:%u: %s' % (line, col, msg))


class LowerError(NcsyncError):
    """The lowering of the pseudo-ops failed; ``why`` says why (or None)."""

    def __init__(self, err: int, function: str, why: Optional[str]):
        self.why = why
        super().__init__(err, function, why or '')


class ReplayError(NcsyncError):
    """A schedule could not be followed: step ``done`` (0-based) cannot
    run in the state reached (EPERM).  ``states`` holds the states up to
    there, as replay() would have returned them."""

    def __init__(self, err: int, function: str, done: int, states: list):
        self.done = done
        self.states = states
        super().__init__(err, function, 'step %u cannot run' % done)
