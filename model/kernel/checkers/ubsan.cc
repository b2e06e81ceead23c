// SPDX-License-Identifier: GPL-2.0-only
// This file implements the entry points a UBSAN-instrumented compilation
// calls (the real kernel's modules, tools/build/copts.bzl
// UBSAN_MODULE_COPTS: bounds, shift, bool and enum checks, recoverable):
// each failed check is the report lib/ubsan.c prints, "UBSAN:
// shift-out-of-bounds in fs/squashfs/FILE.c:LINE:COL", the line that says
// what was wrong, and the call trace, as a warning: the code goes on, as
// the kernel's does (without panic_on_warn). The kernel reports a place
// once (suppress_report); here once a run, so that each walk of a fuzzer,
// a fresh boot, sees it again.
//
// The arguments follow the compilers' UBSan calling convention (gcc's and
// clang's are the same): a static record per check site (the source
// location, then type descriptors: a kind, 0 for integers, an info word,
// bit 0 signed and the log2 of the bit width above it, then the quoted
// type name) and the operands, passed in the pointer when they fit in it.
//
// Under a userspace sanitizer the executable's UBSan runtime owns these
// names (and the modules are compiled without these flags): none here.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "model/kernel/kernel.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer)
#define SL_USERSPACE_UBSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SL_USERSPACE_UBSAN 1
#endif

#if !defined(SL_USERSPACE_UBSAN)
namespace squashlab {
namespace {

struct SourceLocation {
  const char* file;
  uint32_t line;
  uint32_t column;
};

struct TypeDescriptor {
  uint16_t kind;  // 0: integer
  uint16_t info;  // integer: bit 0 signed, log2(bit width) above it
  char name[1];   // "'int'", NUL-terminated
};

struct OutOfBoundsData {
  SourceLocation loc;
  const TypeDescriptor* array_type;
  const TypeDescriptor* index_type;
};

struct ShiftData {
  SourceLocation loc;
  const TypeDescriptor* lhs_type;
  const TypeDescriptor* rhs_type;
};

struct InvalidValueData {
  SourceLocation loc;
  const TypeDescriptor* type;
};

bool IsInt(const TypeDescriptor* t) { return t->kind == 0; }
bool IsSigned(const TypeDescriptor* t) { return IsInt(t) && (t->info & 1); }
unsigned Bits(const TypeDescriptor* t) { return 1u << (t->info >> 1); }

// The operand's value, sign-extended from its width when signed; wider
// than a pointer it is passed by address.
__int128 Value(const TypeDescriptor* t, void* v) {
  const unsigned bits = Bits(t);
  if (bits > 64) return *static_cast<const __int128*>(v);
  uint64_t u = reinterpret_cast<uintptr_t>(v);
  if (bits < 64) u &= (uint64_t{1} << bits) - 1;
  if (!IsSigned(t)) return static_cast<__int128>(u);
  if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~uint64_t{0} << bits;
  return static_cast<int64_t>(u);
}

std::string ValueString(const TypeDescriptor* t, void* v) {
  if (!IsInt(t)) return "<unknown>";
  __int128 x = Value(t, v);
  if (Bits(t) > 64) {
    const unsigned __int128 u = static_cast<unsigned __int128>(x);
    char buf[40];
    std::snprintf(buf, sizeof buf, "0x%016llx%016llx",
                  static_cast<unsigned long long>(u >> 64),
                  static_cast<unsigned long long>(u));
    return buf;
  }
  return IsSigned(t) ? std::to_string(static_cast<long long>(x))
                     : std::to_string(static_cast<unsigned long long>(x));
}

// The kernel prints the path its build passed the compiler, relative to
// the tree's top: "fs/squashfs/block.c", never the lab's build directory.
std::string KernelPath(const char* file) {
  std::string f = file ? file : "<unknown>";
  for (const char* top : {"fs/", "lib/"}) {
    size_t at = f.rfind(std::string("/") + top);
    if (at != std::string::npos) return f.substr(at + 1);
    if (f.rfind(top, 0) == 0) return f;
  }
  return f;
}

// ubsan_prologue's line, then the detail; once per place and run.
void ReportUb(Check check, const char* reason, const SourceLocation& loc,
              const std::string& detail) {
  Kernel* k = Kernel::CurrentOrNull();
  if (k == nullptr || k->fatal()) return;  // outside a run
  const std::string title = std::string("UBSAN: ") + reason + " in " +
                            KernelPath(loc.file) + ":" +
                            std::to_string(loc.line & 0x7fffffff) + ":" +
                            std::to_string(loc.column & 0x7fffffff);
  for (const Report& r : k->reports())
    if (r.title == title) return;
  k->Warn(check, title, title + "\n" + detail);
}

}  // namespace
}  // namespace squashlab

using squashlab::Check;

extern "C" {

// lib/ubsan.c __ubsan_handle_out_of_bounds (UBSAN_BOUNDS).
void __ubsan_handle_out_of_bounds(void* data, void* index) {
  auto* d = static_cast<squashlab::OutOfBoundsData*>(data);
  squashlab::ReportUb(Check::kUbsanArrayIndex, "array-index-out-of-bounds",
                      d->loc,
                      "index " + squashlab::ValueString(d->index_type, index) +
                          " is out of range for type " + d->array_type->name);
}

// lib/ubsan.c __ubsan_handle_shift_out_of_bounds (UBSAN_SHIFT): the
// exponent negative, at least the width, or a left shift of a negative
// value or one whose bits do not fit.
void __ubsan_handle_shift_out_of_bounds(void* data, void* lhs, void* rhs) {
  using namespace squashlab;
  auto* d = static_cast<ShiftData*>(data);
  const std::string r = ValueString(d->rhs_type, rhs);
  const std::string l = ValueString(d->lhs_type, lhs);
  std::string detail;
  if (IsSigned(d->rhs_type) && Value(d->rhs_type, rhs) < 0)
    detail = "shift exponent " + r + " is negative";
  else if (static_cast<unsigned __int128>(Value(d->rhs_type, rhs)) >=
           Bits(d->lhs_type))
    detail = "shift exponent " + r + " is too large for " +
             std::to_string(Bits(d->lhs_type)) + "-bit type " +
             d->lhs_type->name;
  else if (IsSigned(d->lhs_type) && Value(d->lhs_type, lhs) < 0)
    detail = "left shift of negative value " + l;
  else
    detail = "left shift of " + l + " by " + r +
             " places cannot be represented in type " + d->lhs_type->name;
  ReportUb(Check::kUbsanShift, "shift-out-of-bounds", d->loc, detail);
}

// lib/ubsan.c __ubsan_handle_load_invalid_value (UBSAN_BOOL, UBSAN_ENUM).
void __ubsan_handle_load_invalid_value(void* data, void* val) {
  auto* d = static_cast<squashlab::InvalidValueData*>(data);
  squashlab::ReportUb(Check::kUbsanInvalidLoad, "invalid-load", d->loc,
                      "load of value " + squashlab::ValueString(d->type, val) +
                          " is not a valid value for type " + d->type->name);
}

}  // extern "C"
#endif  // !SL_USERSPACE_UBSAN
