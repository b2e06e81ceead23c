// SPDX-License-Identifier: GPL-2.0-only
// This file implements FunctionAt: the function that contains a code
// address, read from the ELF symbol table (.symtab, local functions
// included) of the executable or shared object it lies in — the way a
// kernel report names the function of a faulting instruction. Used only
// on a report's slow path; each object's table is read once.
#include "model/kernel/checkers/symbolize.h"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace squashlab {
namespace {

struct Sym {
  uintptr_t start;
  uintptr_t end;
  std::string name;
};

// The STT_FUNC symbols of one ELF file, sorted by address (file-relative).
std::vector<Sym> ReadSymbols(const std::string& path) {
  std::vector<Sym> out;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  struct stat st;
  if (fstat(fd, &st) != 0 ||
      st.st_size < static_cast<off_t>(sizeof(Elf64_Ehdr))) {
    close(fd);
    return out;
  }
  size_t len = static_cast<size_t>(st.st_size);
  void* map = mmap(nullptr, len, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return out;
  const char* base = static_cast<const char*>(map);
  Elf64_Ehdr eh;
  std::memcpy(&eh, base, sizeof eh);
  bool ok = std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
            eh.e_ident[EI_CLASS] == ELFCLASS64 &&
            eh.e_shoff + uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr) <= len;
  std::vector<Elf64_Shdr> sh(ok ? eh.e_shnum : 0);
  if (ok)
    std::memcpy(sh.data(), base + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
  for (unsigned type : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const Elf64_Shdr& s : sh) {
      if (s.sh_type != type || s.sh_link >= sh.size()) continue;
      const Elf64_Shdr& strs = sh[s.sh_link];
      if (s.sh_offset + s.sh_size > len || strs.sh_offset + strs.sh_size > len)
        continue;
      for (size_t i = 0; i < s.sh_size / sizeof(Elf64_Sym); i++) {
        Elf64_Sym y;
        std::memcpy(&y, base + s.sh_offset + i * sizeof y, sizeof y);
        if (ELF64_ST_TYPE(y.st_info) != STT_FUNC || y.st_value == 0 ||
            y.st_name >= strs.sh_size)
          continue;
        const char* n = base + strs.sh_offset + y.st_name;
        out.push_back({y.st_value,
                       y.st_value + std::max<uint64_t>(y.st_size, 1),
                       std::string(n, strnlen(n, strs.sh_size - y.st_name))});
      }
    }
    if (!out.empty()) break;  // .symtab has everything .dynsym has
  }
  munmap(map, len);
  std::sort(out.begin(), out.end(),
            [](const Sym& a, const Sym& b) { return a.start < b.start; });
  return out;
}

struct Lookup {
  uintptr_t pc;
  std::string path;
  uintptr_t bias = 0;
  bool found = false;
};

int FindObject(dl_phdr_info* info, size_t, void* data) {
  auto* l = static_cast<Lookup*>(data);
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (l->pc >= lo && l->pc < lo + ph.p_memsz) {
      l->path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name
                                                      : "/proc/self/exe";
      l->bias = info->dlpi_addr;
      l->found = true;
      return 1;
    }
  }
  return 0;
}

// "squashlab::(anonymous namespace)::foo(int)" -> "foo".
std::string Short(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return mangled;
  std::string s = d;
  std::free(d);
  if (s.find("lambda") != std::string::npos) return s;
  for (size_t a; (a = s.find("(anonymous namespace)::")) != std::string::npos;)
    s.erase(a, 23);
  size_t paren = s.find('(');
  if (paren != std::string::npos) s.resize(paren);
  size_t colon = s.rfind("::");
  if (colon != std::string::npos) s = s.substr(colon + 2);
  return s;
}

std::mutex g_mu;

// The symbol table of the object holding pc, and pc relative to it.
// REQUIRES: g_mu held.
const std::vector<Sym>* TableFor(uintptr_t pc, uintptr_t* rel) {
  static auto* tables = new std::map<std::string, std::vector<Sym>>;
  Lookup l;
  l.pc = pc;
  dl_iterate_phdr(FindObject, &l);
  if (!l.found) return nullptr;
  auto it = tables->find(l.path);
  if (it == tables->end())
    it = tables->emplace(l.path, ReadSymbols(l.path)).first;
  *rel = pc - l.bias;
  return &it->second;
}

}  // namespace

bool IsFunctionStart(uintptr_t pc) {
  static auto* known = new std::map<uintptr_t, bool>;
  std::lock_guard<std::mutex> g(g_mu);
  auto k = known->find(pc);
  if (k != known->end()) return k->second;
  uintptr_t rel = 0;
  const std::vector<Sym>* syms = TableFor(pc, &rel);
  bool ok = syms != nullptr &&
            std::binary_search(
                syms->begin(), syms->end(), Sym{rel, rel, ""},
                [](const Sym& a, const Sym& b) { return a.start < b.start; });
  (*known)[pc] = ok;
  return ok;
}

std::string FunctionAt(uintptr_t pc) {
  std::lock_guard<std::mutex> g(g_mu);
  uintptr_t rel = 0;
  const std::vector<Sym>* table = TableFor(pc, &rel);
  if (table == nullptr) return "";
  const std::vector<Sym>& syms = *table;
  auto s =
      std::upper_bound(syms.begin(), syms.end(), rel,
                       [](uintptr_t v, const Sym& y) { return v < y.start; });
  // The last symbol starting at or before pc, or one a little earlier
  // that still spans it (aliases and zero-sized symbols sit in between).
  for (int i = 0; i < 8 && s != syms.begin(); i++) {
    --s;
    if (rel < s->end) return Short(s->name);
  }
  return "";
}

}  // namespace squashlab
