#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks that no #include crosses squashlab's layers the wrong way.

Bazel's visibility decides which targets may depend on which; this check
adds what visibility cannot see: a header reached through a dependency's
dependencies. Each source file belongs to the first layer whose prefix its
path starts with; the layer lists the include prefixes it may use. Test
files (*_test.cc, *_proptest.cc, tests/, testing/) may include anything a
test needs, except the kernel layer's internals (only model/kernel/ and its
own tests see those). The top floor (cli/, bench/, proptests/, fuzz/)
has no such exemption: its tests and programs see the harness and the
reader only, as its libraries do; where one needs a model type, a
harness header gives it.

Usage: tools/check_layers.py [ROOT]   (exit 1 and one line per violation)
"""
import os
import re
import sys

SCHED_API = [
    "model/sched/executor.h", "model/sched/fault_operand.h", "model/sched/run_hooks.h",
    "model/sched/run_spec.h",
    "model/sched/step_footprint.h", "model/sched/strategy.h", "model/sched/task.h",
    "model/sched/task_fault.h", "model/sched/wait_list.h",
]
KERNEL_INTERNAL = "model/kernel/kernel_internal.h"

# (layer path prefix, allowed include prefixes). First match wins.
LAYERS = [
    ("reader/", ["reader/"]),
    ("model/base/", ["model/base/"]),
    ("model/sched/", ["model/sched/", "model/base/", "reader/status.h"]),
    ("model/kernel/", ["model/kernel/", "model/base/"] + SCHED_API),
    ("model/mm/", ["model/mm/", "model/kernel/", "model/base/"]),
    ("model/variants/", ["model/variants/", "model/kernel/", "model/base/", "reader/"]),
    ("model/linux/", ["model/linux/", "model/kernel/", "model/base/", "reader/"]),
    ("hw_emul/", ["hw_emul/", "model/kernel/", "model/base/", "reader/"]),
    ("harness/", ["harness/", "model/", "hw_emul/", "reader/"]),
    # The top floor sees the harness and the reader only (and its own
    # neighbours: the command line runs the benchmarks, the fuzzers reuse
    # the command line's reports).
    ("cli/", ["cli/", "harness/", "bench/", "reader/", "third_party/"]),
    ("bench/", ["bench/", "harness/", "reader/", "third_party/", "testdata/"]),
    ("proptests/", ["proptests/", "harness/", "reader/", "testdata/"]),
    ("fuzz/", ["fuzz/", "harness/", "reader/", "cli/"]),
    ("tests/", None),
]
TOP_FLOOR = ("cli/", "bench/", "proptests/", "fuzz/")
# What a test of the top floor may include besides its layer's prefixes.
TOP_FLOOR_TEST_EXTRAS = ["gtest/", "testdata/"]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def is_test(path):
    base = os.path.basename(path)
    return (base.endswith("_test.cc") or base.endswith("_proptest.cc") or "/tests/" in path or
            "/testing/" in path or base.endswith("_main.cc") or base.endswith("_bench.cc"))


def violations(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "bazel-"))]
        for name in filenames:
            if not name.endswith((".cc", ".h")):
                continue
            path = os.path.relpath(os.path.join(dirpath, name), root)
            layer = next(((p, a) for p, a in LAYERS if path.startswith(p)), None)
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    if inc == KERNEL_INTERNAL and not path.startswith("model/kernel/"):
                        out.append(f"{path}:{lineno}: {inc}: the kernel layer's internals")
                        continue
                    if layer is None or layer[1] is None:
                        continue
                    if is_test(path) and not path.startswith(TOP_FLOOR):
                        continue
                    allowed = layer[1] + (TOP_FLOOR_TEST_EXTRAS if is_test(path) else [])
                    if not any(inc.startswith(a) for a in allowed):
                        out.append(f"{path}:{lineno}: {inc}: not allowed in {layer[0]}")
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    found = violations(root)
    for v in found:
        print(v)
    print(f"check_layers: {len(found)} forbidden include(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
