// SPDX-License-Identifier: GPL-2.0-only
// This file implements loads and stores compiled as the real kernel's
// modules are (tools/build/copts.bzl KASAN_MODULE_COPTS): the code under
// test of inline_kasan_test.cc.
unsigned char sl_probe_load1(const unsigned char* p) { return *p; }
void sl_probe_store8(unsigned long* p) { *p = 1; }
