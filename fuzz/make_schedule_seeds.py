#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the schedule fuzzer's seed corpus (a zip) to argv[1].

Each seed is the 9-byte header of schedule_case.h (variant, decompressor,
workload, fault plan, device, seed) and a tail of choice bytes: none (the
non-preemptive run), a sparse tail (a preemption now and then), or a dense
random one (a preemption at most choice points, like the random strategy).
The header bytes walk every workload x fault plan and spread the variants,
decompressors, devices (half the seeds on the RAM disk) and kernels (a
third on a production kernel) over them. Deterministic: fixed PRNG and zip timestamps.
"""
import random
import struct
import sys
import zipfile


def main():
    rng = random.Random(2013)
    seeds = {}
    for workload in range(6):
        for faults in range(4):
            variant = (workload + faults) % 6
            decomp = (workload + 2 * faults) % 4
            # Device 0 (RAM disk) for half; else a profile, with device faults.
            n = workload * 4 + faults
            device = 0 if n % 2 == 0 else 1 + (n * 7) % 15
            fault_byte = faults | ((n % 8) << 2 if device else 0)
            if n % 3 == 2:
                fault_byte |= 0x80  # a production kernel
            header = bytes([variant, decomp, workload, fault_byte, device]) + struct.pack("<I", n)
            sparse = bytes(rng.randrange(1, 4) if rng.random() < 0.05 else 0 for _ in range(512))
            dense = bytes(rng.randrange(0, 4) for _ in range(512))
            name = "w%d_f%d" % (workload, faults)
            seeds[name + "_none"] = header
            seeds[name + "_sparse"] = header + sparse
            seeds[name + "_dense"] = header + dense
    with zipfile.ZipFile(sys.argv[1], "w") as z:
        for name in sorted(seeds):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            z.writestr(info, seeds[name])


if __name__ == "__main__":
    main()
