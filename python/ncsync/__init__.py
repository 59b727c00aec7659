# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""ncsync: Python bindings of libncsync, the runtime of ncsync.

ncsync models an AWS Trainium NeuronCore's sync fabric: each core,
/dev/ncsyncN, has 256 semaphores and 256 events, and engines that run
programs of 64-byte sync records.  This package wraps libncsync (through
cffi, over <ncsync.h>; Documentation/ncsync/python.rst):

Programs (no device needed):
    Program, Stream, Events        build programs record by record
    assemble(), assemble_cores()   the text form (asm.rst) to programs
    Program.disassemble()          and back
    Program.lower(), .finalize()   pseudo-ops lowered, records validated
    check(), replay()              every schedule, on a host model

A core (the module loaded):
    Device(core)                   sems/events memoryviews over the mapping,
                                   sem_set/sem_inc/..., wait_sem/wait_event
    Device.submit(), submit_cores()  run a program; a Run
    Run.wait(), .status(), .deadlock(), .barrier_short(), .report()

Errors raise NcsyncError (an OSError with errno) or a subclass:
RecordRefused (the record refused, its engine, index and reason),
AsmError (line, column), LowerError, ReplayError, NcsyncTimeout.

Constants: ncsync.constants has every NCSYNC_* constant of the headers
and enums (Engine, WaitMode, ProgState, DefectKind, ...) built from them.

In the tree, after ``make``:
    PYTHONPATH=build/python LD_LIBRARY_PATH=build/lib python3 script.py
"""

from . import constants
from .constants import (BarrierLowering, BlockKind, CheckPart, DefectKind,
                        Engine, EngineState, Fault, Opcode, ProgState,
                        RecReason, UpdateKind, UpdateMode, Verdict, WaitMode)
from .errors import (AsmError, LowerError, NcsyncError, NcsyncTimeout,
                     RecordRefused, ReplayError)
from .program import (Events, Part, Program, Stream, assemble,
                      assemble_cores, disassemble, disassemble_cores,
                      disassemble_record)
from .check import (CheckEngine, CheckResult, CheckState, Copy, CoreState,
                    Defect, Step, check, replay)
from .deadlock import BarrierMiss, BarrierShort, Deadlock, DeadlockEngine
from .device import (Device, EngineStatus, Info, Run, Stats, Status,
                     submit_cores)

__all__ = [
    'constants', 'BarrierLowering', 'BlockKind', 'CheckPart', 'DefectKind',
    'Engine', 'EngineState', 'Fault', 'Opcode', 'ProgState', 'RecReason',
    'UpdateKind', 'UpdateMode', 'Verdict', 'WaitMode',
    'AsmError', 'LowerError', 'NcsyncError', 'NcsyncTimeout',
    'RecordRefused', 'ReplayError',
    'Events', 'Part', 'Program', 'Stream', 'assemble', 'assemble_cores',
    'disassemble', 'disassemble_cores', 'disassemble_record',
    'CheckEngine', 'CheckResult', 'CheckState', 'Copy', 'CoreState',
    'Defect', 'Step', 'check', 'replay', 'BarrierMiss', 'BarrierShort',
    'Deadlock', 'DeadlockEngine',
    'Device', 'EngineStatus', 'Info', 'Run', 'Stats', 'Status',
    'submit_cores',
]
