// SPDX-License-Identifier: GPL-2.0-only
// This file implements BUG, WARN, panic and printk for real kernel code:
// BUG and panic end the task's run with a kernel-style report naming the
// real source line; WARN is recorded and execution goes on, as the kernel
// does; printk lines go to the run's kernel log. Also the call-site hook.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/kernel/kernel.h"
#include "model/linux/bridge/run_state.h"

using squashlab::Kernel;
using squashlab::ReportKind;
using squashlab::linux_bridge::Run;

namespace {

std::string Base(const char* file) {
  std::string f = file;
  size_t slash = f.rfind('/');
  return slash == std::string::npos ? f : f.substr(slash + 1);
}

std::string VFormat(const char* fmt, va_list ap) {
  char buf[512];
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  return buf;
}

}  // namespace

extern "C" {

void sl_set_site(const char* file, int line, const char* func) {
  if (Kernel::CurrentOrNull() == nullptr) return;  // module init: no run
  Run().SetSite(file, line, func);
}

void sl_bug(const char* file, int line, const char* func, const char* cond) {
  std::string at = "fs/squashfs/" + Base(file) + ":" + std::to_string(line);
  Kernel::Current().Bug(ReportKind::kAssertion, "kernel BUG at " + at + "!",
                        "kernel BUG at " + at +
                            "!\ninvalid opcode: 0000 [#1] SMP\nRIP: " + func +
                            "\nBUG_ON(" + cond + ")");
}

int sl_warn(const char* file, int line, const char* func, const char* cond,
            int once) {
  (void)once;  // every schedule is a fresh boot: the first warning is it
  std::string at = "fs/squashfs/" + Base(file) + ":" + std::to_string(line);
  Kernel::Current().Warn(ReportKind::kAssertion,
                         std::string("WARNING: at ") + at + " " + func,
                         std::string("WARNING: CPU: 0 at ") + at + " " + func +
                             "\nWARN_ON(" + cond + ")");
  return 1;
}

void panic(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string msg = VFormat(fmt, ap);
  va_end(ap);
  Kernel::Current().Bug(ReportKind::kAssertion, "Kernel panic - not syncing",
                        "Kernel panic - not syncing: " + msg);
  std::abort();  // not reached: Bug ends the task
}

int printk(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string line = VFormat(fmt, ap);
  va_end(ap);
  // "<3>" and friends are the level; the log keeps the text.
  if (line.size() >= 3 && line[0] == '<' && line[2] == '>')
    line = line.substr(3);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  if (Kernel::CurrentOrNull() != nullptr) Run().Log(line);  // else: load time
  return static_cast<int>(line.size());
}

int kstrtoul(const char* s, unsigned int base, unsigned long* res) {
  if (s == nullptr || *s == '\0' || *s == '-') return -EINVAL;
  char* end = nullptr;
  unsigned long v = std::strtoul(s, &end, static_cast<int>(base));
  if (*end == '\n') end++;
  if (*end != '\0') return -EINVAL;
  *res = v;
  return 0;
}

int kstrtouint(const char* s, unsigned int base, unsigned int* res) {
  unsigned long v = 0;
  int err = kstrtoul(s, base, &v);
  if (err) return err;
  if (v > 0xffffffffUL) return -ERANGE;
  *res = static_cast<unsigned int>(v);
  return 0;
}

int kstrtoint(const char* s, unsigned int base, int* res) {
  char* end = nullptr;
  long v = std::strtol(s, &end, static_cast<int>(base));
  if (end == s || (*end != '\0' && *end != '\n')) return -EINVAL;
  *res = static_cast<int>(v);
  return 0;
}

}  // extern "C"
