// This file implements std::source_location for clang 14 over libstdc++,
// whose <source_location> is empty there (it needs
// __builtin_source_location, new in clang 15). fuzz.sh force-includes it
// into every C++ file of the libFuzzer build (through the toolchain's
// BAZEL_CXXOPTS, which also makes fuzz/compat a builtin include directory,
// so Bazel's inclusion check accepts it) so that model/variants/kasan.h,
// which uses std::source_location unguarded, compiles with clang-14.
// A no-op with any compiler that has the builtin (OSS-Fuzz's clang).
// Remove once kasan.h takes `const char* caller = __builtin_FUNCTION()`
// like model/slab.h does.
#ifndef SQUASHLAB_FUZZ_CLANG14_SOURCE_LOCATION_H_
#define SQUASHLAB_FUZZ_CLANG14_SOURCE_LOCATION_H_

#if defined(__cplusplus) && __cplusplus > 201703L && defined(__clang__) && \
    !__has_builtin(__builtin_source_location)

namespace std {

// constexpr, not consteval: clang 14 rejects a consteval call in a default
// argument ("cannot take address of consteval function").
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(),
                                           const char* function = __builtin_FUNCTION(),
                                           unsigned line = __builtin_LINE(),
                                           unsigned column = __builtin_COLUMN()) noexcept {
    source_location loc;
    loc.file_ = file;
    loc.function_ = function;
    loc.line_ = line;
    loc.column_ = column;
    return loc;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }
  constexpr unsigned line() const noexcept { return line_; }
  constexpr unsigned column() const noexcept { return column_; }

 private:
  const char* file_ = "";
  const char* function_ = "";
  unsigned line_ = 0;
  unsigned column_ = 0;
};

}  // namespace std

// model/slab.h offers its source_location overloads under this macro.
#define __cpp_lib_source_location 201907L

#endif
#endif  // SQUASHLAB_FUZZ_CLANG14_SOURCE_LOCATION_H_
