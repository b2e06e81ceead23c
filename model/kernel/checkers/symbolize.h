// SPDX-License-Identifier: GPL-2.0-only
// This file implements FunctionAt, the name of the function containing a
// code address of this process (executable or loaded module), for reports.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_SYMBOLIZE_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_SYMBOLIZE_H_

#include <cstdint>
#include <string>

namespace squashlab {

// The function's name without namespaces or parameters, "" when unknown.
// Thread-safe; slow the first time per object (reads its symbol table).
std::string FunctionAt(uintptr_t pc);

// Whether pc is the first instruction of a function of this process: a
// call through a function pointer read from reused memory (a production
// slab object another user now holds) would jump anywhere. Remembers the
// answers.
bool IsFunctionStart(uintptr_t pc);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_SYMBOLIZE_H_
