# SPDX-License-Identifier: GPL-2.0-only
"""Compiler flags for squashlab's own code, in one place."""

SQUASHLAB_COPTS = [
    "-std=c++20",
    "-Wall",
    "-Wextra",
    "-Werror",
]

# The code under test (the read-path variants, the real kernel's C files):
# compiled as a KASAN kernel is, every load and store a call the kernel
# layer answers from the slab arena's shadow (model/kernel/kasan.cc), with
# the checks outlined and neither stack nor globals instrumented.
# clang names its callbacks with a prefix of ours, so they never meet a
# userspace ASan runtime's own __asan_* symbols. Under --config=asan the
# whole binary carries userspace ASan, which one object cannot mix with
# kernel-address: the code under test trades it for kernel-address (the
# rest of the binary keeps it). Under --config=tsan the code under test
# keeps ThreadSanitizer (its races are what that build is for) and has no
# compiler-inserted KASAN checks.
_KASAN_GCC = [
    "-fsanitize=kernel-address",
    "--param=asan-instrumentation-with-call-threshold=0",
    "--param=asan-stack=0",
    "--param=asan-globals=0",
    "-DSQUASHLAB_KASAN=1",
]

_KASAN_CLANG = [
    "-fsanitize=kernel-address",
    "-mllvm",
    "-asan-instrumentation-with-call-threshold=0",
    "-mllvm",
    "-asan-stack=0",
    "-mllvm",
    "-asan-globals=0",
    "-mllvm",
    "-asan-memory-access-callback-prefix=__sl_kasan_",
    "-DSQUASHLAB_KASAN=1",
]

# UBSan's null and alignment checks would fire before the model's own
# report of a NULL or poison pointer (the kernel's oops): off there.
_NOT_USERSPACE = ["-fno-sanitize=address,null,alignment"]

KASAN_COPTS = select({
    "//tools/build:san_tsan": [],
    "//tools/build:san_asan_clang": _NOT_USERSPACE + _KASAN_CLANG,
    "//tools/build:san_asan": _NOT_USERSPACE + _KASAN_GCC,
    "//tools/build:cc_clang": _KASAN_CLANG,
    "//conditions:default": _KASAN_GCC,
})
