# SPDX-License-Identifier: GPL-2.0-only
"""Compiler flags for squashlab's own code, in one place."""

SQUASHLAB_COPTS = [
    "-std=c++20",
    "-Wall",
    "-Wextra",
    "-Werror",
]
