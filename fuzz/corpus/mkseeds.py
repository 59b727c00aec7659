#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Write the seed records of fuzz_record, fuzz/corpus/record/*.bin: valid
# 64-byte records of every opcode and of the main field forms, written byte
# by byte from the offsets of uapi/linux/ncsync.h, and a few refused ones.
# A file may end with fuzz_record's parameters: a u32 queue length and a
# u64 device memory size (see fuzz/fuzz_record.c).  The files are kept in
# the repository; run this again after changing the list.
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "record")


def rec(op, **f):
    r = bytearray(64)
    r[0] = op
    r[1] = 0x10
    for off, val in f.get("b", {}).items():
        r[off] = val
    for off, val in f.get("u32", {}).items():
        r[off:off + 4] = struct.pack("<I", val & 0xFFFFFFFF)
    for off, val in f.get("u64", {}).items():
        r[off:off + 8] = struct.pack("<Q", val)
    return bytes(r)


def ev(wm=0, wi=0, um=0, ui=0, v=0):
    return {4: wm, 5: wi, 6: um, 7: ui}, {8: v}


def lane0(op, wm=0, wi=0, um=0, ui=0, v=0, b=None, u32=None, u64=None):
    bb, uu = ev(wm, wi, um, ui, v)
    bb.update(b or {})
    uu.update(u32 or {})
    return rec(op, b=bb, u32=uu, u64=u64 or {})


def params(nrecords, devmem=None):
    p = struct.pack("<I", nrecords)
    if devmem is not None:
        p += struct.pack("<Q", devmem)
    return p


SEEDS = {
    # EventSemaphore (0xA0): lane 0 and lane 1
    "evsem_empty": rec(0xA0),
    "evsem_wait_ge": lane0(0xA0, 0x05, 3, 0, 0, 1),
    "evsem_then_inc": lane0(0xA0, 0, 0, 0x13, 3),
    "evsem_p_op": lane0(0xA0, 0x04, 3, 0x14, 3, 0),
    "evsem_wait_reg_add_reg": lane0(0xA0, 0x85, 1, 0x95, 2, 7),
    "evsem_lane1": rec(0xA0, b={0x20: 0x06, 0x21: 4, 0x22: 0x13, 0x23: 5},
                       u32={0x28: 1}),
    "evsem_both_lanes": lane0(0xA0, 0x0F, 2, 0x11, 9, 0,
                              b={0x20: 0x01, 0x21: 3, 0x22: 0x19, 0x23: 3},
                              u32={0x24: 5, 0x28: 0xFFFFFFFF}),
    # Halt, Drain, NoOp, Exit
    "halt": rec(0xA1),
    "drain": rec(0xA2, b={0x28: 1}),
    "drain_wait_event": lane0(0xA2, 0x07, 1, b={0x28: 1}),
    "nop": rec(0xA4),
    "nop_read_form": lane0(0xA4, 0, 0, 0x05, 3, 1),
    "nop_unused_value": lane0(0xA4, 0x06, 4, 0x13, 2, 9),
    "exit": rec(0xDF),
    "exit_then_set": lane0(0xDF, 0, 0, 0x11, 7),
    # Mov32: one of each shape
    "movi": rec(0xA7, b={0x0C: 0, 0x0D: 1}, u32={0x10: 0x12345678}),
    "mov": rec(0xA7, b={0x0C: 1, 0x0D: 2, 0x0E: 31}),
    "addi": rec(0xA7, b={0x0C: 2, 0x0D: 1, 0x0E: 1}, u32={0x10: 1}),
    "shri": rec(0xA7, b={0x0C: 10, 0x0D: 3, 0x0E: 4}, u32={0x10: 33}),
    # Branch
    "br_always": rec(0xA9, u64={0x30: 0}),
    "br_lt_u32_imm": rec(0xA9, b={0x0C: 1, 0x0D: 1, 0x0E: 3, 0x20: 1},
                         u32={0x10: 10}, u64={0x30: 0}),
    "br_ge_s32_reg": rec(0xA9, b={0x0C: 0x0D, 0x0D: 2, 0x0E: 3, 0x20: 4,
                                  0x21: 5}, u64={0x30: 0}),
    # GroupResetSemaphores
    "sema_clear_range": rec(0xB0, b={0x0C: 1, 0x0D: 3, 0x0E: 7}),
    "sema_clear_mask": rec(0xB0, b={0x0C: 2, 0x20: 0x0F, 0x3F: 0x80}),
    # PollSem
    "poll_min": rec(0xB3, b={0x0C: 0, 0x0D: 1, 0x0E: 0, 0x0F: 16}),
    "poll_sum_one": rec(0xB3, b={0x0C: 1, 0x0D: 31, 0x0E: 255, 0x0F: 1}),
    "poll_min_writeback": rec(0xB3, b={0x0C: 0, 0x0D: 2, 0x0E: 8, 0x0F: 4,
                                       0x10: 1}),
    # DMA (model-defined)
    "dma": rec(0xE0, u64={0x10: 0, 0x18: 0x1000}, u32={0x20: 256}),
    "dma_on_land_inc": lane0(0xE0, 0x05, 1, 0x13, 2, 1,
                             u64={0x10: 0x100, 0x18: 0x2000},
                             u32={0x20: 64, 0x24: 10}),
    "dma_on_land_set": lane0(0xE0, 0, 0, 0x01, 4,
                             u64={0x10: 0xFF000, 0x18: 0},
                             u32={0x20: 0x1000, 0x24: 1000000}),
    # BranchHint (0xE1): its offset from itself, with a wait
    "br_hint_self": rec(0xE1),
    "br_hint_wait": lane0(0xE1, 0x05, 2, 0, 0, 1),
    # Refused: a pseudo-op, an unknown opcode, a reserved byte
    "barrier_pseudo": rec(0xD5),
    "bad_opcode": rec(0xA3),
    "reserved_byte": rec(0xA4, b={0x3F: 1}),
}

# With parameters: a longer queue, a small device memory, two records.
SEEDS_PARAMS = {
    "br_target_5_of_10": SEEDS["br_always"][:0x30] +
    struct.pack("<Q", 5) + SEEDS["br_always"][0x38:] + params(10),
    "dma_devmem_8k": SEEDS["dma"] + params(1, 8192),
    "br_hint_back_3_of_8": rec(0xE1, u32={0x10: -3}) * 4 + params(8),
    "two_records": SEEDS["evsem_then_inc"] + SEEDS["exit"],
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in list(SEEDS.items()) + list(SEEDS_PARAMS.items()):
        with open(os.path.join(OUT, name + ".bin"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
