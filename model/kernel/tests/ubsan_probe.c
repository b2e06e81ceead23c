// SPDX-License-Identifier: GPL-2.0-only
// This file implements a shift, an array index and a bool load compiled
// as the real kernel's 6.12 module is (tools/build/copts.bzl
// UBSAN_MODULE_COPTS): the code under test of ubsan_test.cc, with the
// line of each check.
struct sl_ubsan_probe_table {
  int slot[4];
};

const int sl_ubsan_probe_shift_line = __LINE__ + 1;
int sl_ubsan_probe_shift(int value, int by) { return value << by; }

const int sl_ubsan_probe_index_line = __LINE__ + 2;
int sl_ubsan_probe_index(struct sl_ubsan_probe_table* t, int i) {
  return t->slot[i];
}

const int sl_ubsan_probe_bool_line = __LINE__ + 1;
int sl_ubsan_probe_bool(const _Bool* b) { return *b ? 7 : 3; }
