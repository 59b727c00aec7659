# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""The constants of <ncsync.h> and <linux/ncsync.h>, as Python enums.

Every ``NCSYNC_*`` constant of the headers (macros and enumerators alike)
is an attribute of this module under its C name (``NCSYNC_WAIT_SEM_GE``).
The families a caller passes or reads back are also ``IntEnum`` classes,
built from those same constants (nothing is repeated here): a new value in
the header is a new member, with no change to this file.
"""

from enum import IntEnum
from typing import Dict

from ._ffi import STRINGS
from ._lib import ffi, lib

_ALL: Dict[str, int] = {n: getattr(lib, n) for n in dir(lib)
                        if n.startswith('NCSYNC_')}
globals().update(_ALL)
globals().update(STRINGS)


def _family(cls: str, prefix: str, doc: str, skip=()) -> IntEnum:
    members = {n[len(prefix):]: v for n, v in sorted(_ALL.items(),
                                                     key=lambda kv: kv[1])
               if n.startswith(prefix) and n[len(prefix):] not in skip}
    return _make(cls, members, doc)


def _make(cls: str, members: Dict[str, int], doc: str) -> IntEnum:
    e = IntEnum(cls, members, module=__name__)
    e.__doc__ = doc
    return e


def _enum(cls: str, ctype: str, prefix: str, doc: str) -> IntEnum:
    """The enumerators of the C enum @ctype but its count, a last
    enumerator named *_COUNT or *_KINDS (one past the others)."""
    elements = ffi.typeof(ctype).elements
    last = max(elements)
    members = {n[len(prefix):]: v for v, n in sorted(elements.items())
               if not (v == last and n.endswith(('_COUNT', '_KINDS')))}
    return _make(cls, members, doc)


Engine = _family('Engine', 'NCSYNC_ENGINE_',
                 'Engines (NCSYNC_ENGINE_*): the BIR EngineType ordinals.',
                 skip=('MASK',))
WaitMode = _family('WaitMode', 'NCSYNC_WAIT_',
                   'Wait modes (NCSYNC_WAIT_*), the record wire values.',
                   skip=('F_NO_DEADLINE', 'F_ALL'))
UpdateMode = _family('UpdateMode', 'NCSYNC_UPD_',
                     'Update modes of a record (NCSYNC_UPD_*).')
ProgState = _family('ProgState', 'NCSYNC_PROG_',
                    'Program states (NCSYNC_PROG_*).')
EngineState = _family('EngineState', 'NCSYNC_ENG_',
                      'Engine states within a program (NCSYNC_ENG_*).')
Fault = _family('Fault', 'NCSYNC_FAULT_',
                'Engine fault reasons (NCSYNC_FAULT_*).')
BlockKind = _family('BlockKind', 'NCSYNC_BLOCK_',
                    'What a blocked engine waits on (NCSYNC_BLOCK_*).')
RecReason = _enum('RecReason', 'enum ncsync_rec_reason', 'NCSYNC_REC_',
                  'Why a record is refused (enum ncsync_rec_reason).')
Opcode = _family('Opcode', 'NCSYNC_OPC_', 'Record opcodes (NCSYNC_OPC_*).',
                 skip=('PSEUDO_FIRST', 'PSEUDO_LAST'))
Verdict = _enum('Verdict', 'enum ncsync_check_verdict', 'NCSYNC_CHECK_',
                'What check() concluded (enum ncsync_check_verdict).')
DefectKind = _enum('DefectKind', 'enum ncsync_defect_kind', 'NCSYNC_DEFECT_',
                   'Defect kinds (enum ncsync_defect_kind).')
CheckPart = _enum('CheckPart', 'enum ncsync_check_part', 'NCSYNC_PART_',
                  'The part of a record a schedule step executes.')
BarrierLowering = _enum('BarrierLowering', 'enum ncsync_barrier_lowering',
                        'NCSYNC_LOWER_',
                        'How Program.lower() rewrites AllEngineBarrier.')
UpdateKind = _enum('UpdateKind', 'enum ncsync_update_kind', 'NCSYNC_UPDATE_',
                   'What an update of a decoded record does.')
