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
# layer answers from the slab arena's shadow (model/kernel/checkers/kasan.cc), with
# the checks outlined and neither stack nor globals instrumented.
# clang names its callbacks with a prefix of ours, so they never meet a
# userspace ASan runtime's own __asan_* symbols. Under --config=asan the
# whole binary carries userspace ASan, which one object cannot mix with
# kernel-address: the code under test trades it for kernel-address (the
# rest of the binary keeps it). Under --config=tsan the code under test
# keeps ThreadSanitizer (its races are what that build is for) and has no
# compiler-inserted KASAN checks.

# The shadow offset of the real kernel's modules' inline checks (below).
# Not a power of two: clang would form the shadow address with an OR,
# which past 2^47 no longer names the address it stands for.
KASAN_SHADOW_OFFSET = "0xf0000000000"

def _kasan_gcc(inline):
    if inline:
        checks = [
            "--param=asan-instrumentation-with-call-threshold=100000",
            "-fasan-shadow-offset=" + KASAN_SHADOW_OFFSET,
        ]
    else:
        checks = ["--param=asan-instrumentation-with-call-threshold=0"]
    return ["-fsanitize=kernel-address"] + checks + [
        "--param=asan-stack=0",
        "--param=asan-globals=0",
        "-DSQUASHLAB_KASAN=1",
    ]

def _kasan_clang(inline):
    if inline:
        checks = [
            "-mllvm",
            "-asan-instrumentation-with-call-threshold=100000",
            "-mllvm",
            "-asan-mapping-offset=" + KASAN_SHADOW_OFFSET,
        ]
    else:
        checks = ["-mllvm", "-asan-instrumentation-with-call-threshold=0"]
    return ["-fsanitize=kernel-address"] + checks + [
        "-mllvm",
        "-asan-stack=0",
        "-mllvm",
        "-asan-globals=0",
        "-mllvm",
        "-asan-memory-access-callback-prefix=__sl_kasan_",
        "-DSQUASHLAB_KASAN=1",
    ]

_KASAN_GCC = _kasan_gcc(inline = False)

_KASAN_CLANG = _kasan_clang(inline = False)

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

# The real kernel's modules (model/linux): checked inline, as a kernel
# built with CONFIG_KASAN_INLINE is (scripts/Makefile.kasan): each access
# reads its shadow byte at a fixed offset in the instruction stream and
# calls the runtime (kasan.cc's __asan_report_*) only on a bad one; the
# shadow is model/kernel/checkers/kasan_shadow.h's (KASAN_SHADOW_OFFSET above is
# its kKasanShadowOffset). A call per access, as the ports make, costs the
# kernel's own decompressors about twice the time. Under a userspace
# sanitizer, whose shadow owns that range, they keep the outlined calls.
_KASAN_INLINE_GCC = _kasan_gcc(inline = True)

_KASAN_INLINE_CLANG = _kasan_clang(inline = True)

KASAN_MODULE_COPTS = select({
    "//tools/build:san_tsan": [],
    "//tools/build:san_asan_clang": _NOT_USERSPACE + _KASAN_CLANG,
    "//tools/build:san_asan": _NOT_USERSPACE + _KASAN_GCC,
    "//tools/build:cc_clang": _KASAN_INLINE_CLANG,
    "//conditions:default": _KASAN_INLINE_GCC,
})

# UBSAN as the kernel compiles a tree with CONFIG_UBSAN=y, UBSAN_BOUNDS=y
# and UBSAN_SHIFT=y, and the checks UBSAN turns on by default with them,
# UBSAN_BOOL and UBSAN_ENUM (lib/Kconfig.ubsan, scripts/Makefile.ubsan of
# 6.1 and 6.12): recoverable, each failed check a call the executable
# answers with the kernel's report (model/kernel/checkers/ubsan.cc), no trap.
# Neither tree checks signed overflow (6.1 has no such option; 6.12's
# UBSAN_SIGNED_WRAP depends on BROKEN), nor divisions by zero, nor
# unreachable code by default. The bounds check is the one each tree
# picks for the compiler: 6.1 takes clang's array-bounds, or gcc's bounds
# (UBSAN_ONLY_BOUNDS: gcc has no array-bounds); 6.12 takes clang's
# array-bounds, or gcc's bounds-strict (UBSAN_BOUNDS_STRICT). Under a
# userspace sanitizer, whose runtime owns the __ubsan_handle_* names (and
# whose -fsanitize=undefined already covers these checks), none.
def _ubsan(bounds):
    return ["-fsanitize=%s,shift,bool,enum" % bounds]

def _ubsan_for(gcc_bounds):
    return select({
        "//tools/build:san_tsan": [],
        "//tools/build:san_asan_clang": [],
        "//tools/build:san_asan": [],
        "//tools/build:cc_clang": _ubsan("array-bounds"),
        "//conditions:default": _ubsan(gcc_bounds),
    })

# By the package a module is built from (model/linux/kernel_module.bzl).
UBSAN_MODULE_COPTS = {
    "@linux_6_1": _ubsan_for("bounds"),
    "@linux_6_12": _ubsan_for("bounds-strict"),
}
