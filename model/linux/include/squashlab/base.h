/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the language-level part of the kernel headers that
 * fs/squashfs and the lib/ decompressors use: compiler annotations, error
 * pointers, min/max, container_of, BUG/WARN, printk, string and bit
 * helpers, byte order, 64-bit division, Kconfig's IS_ENABLED, lists,
 * module and init annotations. BUG, WARN and printk go to the model's
 * checker and log (bridge/report.cc).
 */
#ifndef SQUASHLAB_LINUX_BASE_H_
#define SQUASHLAB_LINUX_BASE_H_

#include <squashlab/abi.h>
#include <squashlab/errno.h>
#include <squashlab/site.h>
#include <squashlab/string.h>

#define __force
#define __user
#define __iomem
#define __percpu
#define __rcu
#define __bitwise
#define __must_check
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __init
#define __exit
#define __initdata
#define __read_mostly
#define __maybe_unused __attribute__((unused))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __cold
#define __packed __attribute__((packed))
#define fallthrough __attribute__((fallthrough))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
/* data_race(expr): expr's accesses are intentionally racy; on a KCSAN
 * kernel they are not checked (include/linux/compiler.h). */
void sl_kcsan_disable_current(void);
void sl_kcsan_enable_current(void);
#define data_race(expr)           \
  ({                              \
    __auto_type __v = ({          \
      sl_kcsan_disable_current(); \
      expr;                       \
    });                           \
    sl_kcsan_enable_current();    \
    __v;                          \
  })
#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_mb() __sync_synchronize()
#define smp_wmb() __sync_synchronize()
#define smp_rmb() __sync_synchronize()

#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) \
  unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) {
  return IS_ERR_VALUE((unsigned long)ptr);
}
static inline bool IS_ERR_OR_NULL(const void *ptr) {
  return !ptr || IS_ERR_VALUE((unsigned long)ptr);
}
static inline void *ERR_CAST(const void *ptr) { return (void *)ptr; }

#define min(x, y)            \
  ({                         \
    __typeof__(x) _mx = (x); \
    __typeof__(y) _my = (y); \
    _mx < _my ? _mx : _my;   \
  })
#define max(x, y)            \
  ({                         \
    __typeof__(x) _mx = (x); \
    __typeof__(y) _my = (y); \
    _mx > _my ? _mx : _my;   \
  })
#define min_t(t, x, y)     \
  ({                       \
    t _mx = (x);           \
    t _my = (y);           \
    _mx < _my ? _mx : _my; \
  })
#define max_t(t, x, y)     \
  ({                       \
    t _mx = (x);           \
    t _my = (y);           \
    _mx > _my ? _mx : _my; \
  })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define round_up(x, y) ((((x)-1) | ((__typeof__(x))((y)-1))) + 1)
#define round_down(x, y) ((x) & ~((__typeof__(x))((y)-1)))
#define ALIGN(x, a) (((x) + ((__typeof__(x))(a)-1)) & ~((__typeof__(x))(a)-1))
#define container_of(ptr, type, member) \
  ((type *)((char *)(ptr)-offsetof(type, member)))
#define U8_MAX ((u8)~0U)
#define U16_MAX ((u16)~0U)
#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))

/* BUG and WARN: the checker records them as the kernel prints them. */
void sl_bug(const char *file, int line, const char *func, const char *cond)
    __attribute__((noreturn));
int sl_warn(const char *file, int line, const char *func, const char *cond,
            int once);
void panic(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
#define BUG() sl_bug(__FILE__, __LINE__, __func__, "BUG()")
#define BUG_ON(c)                                              \
  do {                                                         \
    if (unlikely(c)) sl_bug(__FILE__, __LINE__, __func__, #c); \
  } while (0)
#define WARN_ON(c)                                                  \
  ({                                                                \
    int _w = !!(c);                                                 \
    if (unlikely(_w)) sl_warn(__FILE__, __LINE__, __func__, #c, 0); \
    unlikely(_w);                                                   \
  })
#define WARN_ON_ONCE(c)                                             \
  ({                                                                \
    int _w = !!(c);                                                 \
    if (unlikely(_w)) sl_warn(__FILE__, __LINE__, __func__, #c, 1); \
    unlikely(_w);                                                   \
  })
#define WARN(c, ...) WARN_ON(c)
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)

/* printk: the run's kernel log. */
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define KERN_ERR "<3>"
#define KERN_WARNING "<4>"
#define KERN_INFO "<6>"
#define KERN_DEBUG "<7>"
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)                                \
  do {                                                    \
    if (0) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__); \
  } while (0)

/* Bits. */
static inline unsigned long ffz(unsigned long w) { return __builtin_ctzl(~w); }
static inline unsigned long __ffs(unsigned long w) { return __builtin_ctzl(w); }
static inline unsigned long __fls(unsigned long w) {
  return 63 - __builtin_clzl(w);
}
static inline int ffs(int x) { return __builtin_ffs(x); }
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int ilog2(unsigned long v) { return 63 - __builtin_clzl(v); }
#define BIT(n) (1UL << (n))

/* Byte order: x86-64 is little-endian. */
#define __LITTLE_ENDIAN 1234
#define __LITTLE_ENDIAN_BITFIELD
#define BITS_PER_LONG 64
#define swab16(x) ((u16)__builtin_bswap16((u16)(x)))
#define swab32(x) ((u32)__builtin_bswap32((u32)(x)))
#define swab64(x) ((u64)__builtin_bswap64((u64)(x)))
#define __swab16(x) swab16(x)
#define __swab32(x) swab32(x)
#define __swab64(x) swab64(x)
#define le16_to_cpu(x) ((u16)(x))
#define le32_to_cpu(x) ((u32)(x))
#define le64_to_cpu(x) ((u64)(x))
#define cpu_to_le16(x) ((__le16)(x))
#define cpu_to_le32(x) ((__le32)(x))
#define cpu_to_le64(x) ((__le64)(x))
#define be16_to_cpu(x) swab16(x)
#define be32_to_cpu(x) swab32(x)
#define be64_to_cpu(x) swab64(x)
#define cpu_to_be16(x) ((__be16)swab16(x))
#define cpu_to_be32(x) ((__be32)swab32(x))
#define cpu_to_be64(x) ((__be64)swab64(x))
static inline u16 le16_to_cpup(const __le16 *p) { return *p; }
static inline u32 le32_to_cpup(const __le32 *p) { return *p; }
static inline u64 le64_to_cpup(const __le64 *p) { return *p; }

/* 64-bit division (include/linux/math64.h): native on x86-64. */
static inline u64 div_u64(u64 dividend, u32 divisor) {
  return dividend / divisor;
}
static inline u64 div64_u64(u64 dividend, u64 divisor) {
  return dividend / divisor;
}

/* Kconfig's tests of an option given as -DCONFIG_FOO (defined to 1):
 * IS_ENABLED(CONFIG_FOO) is 1 then and 0 when it is not defined. */
#define SL_KCONFIG_PROBE_1 0,
#define SL_KCONFIG_SECOND(a, b, ...) b
#define SL_KCONFIG_SET(probe) SL_KCONFIG_SECOND(probe 1, 0, 0)
#define SL_KCONFIG_EXPAND(v) SL_KCONFIG_SET(SL_KCONFIG_PROBE_##v)
#define IS_BUILTIN(option) SL_KCONFIG_EXPAND(option)
#define IS_MODULE(option) 0
#define IS_ENABLED(option) IS_BUILTIN(option)

/* Strings. */
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);

/* Lists (include/linux/list.h semantics). */
#define LIST_HEAD_INIT(name) \
  { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
/* The list's ->next is marked where the kernel's list.h marks it
 * (WRITE_ONCE in INIT_LIST_HEAD, __list_add and __list_del, READ_ONCE in
 * list_empty): a KCSAN kernel never reports those accesses racing with
 * each other. */
static inline void INIT_LIST_HEAD(struct list_head *l) {
  WRITE_ONCE(l->next, l);
  l->prev = l;
}
static inline void __list_add(struct list_head *n, struct list_head *prev,
                              struct list_head *next) {
  next->prev = n;
  n->next = next;
  n->prev = prev;
  WRITE_ONCE(prev->next, n);
}
static inline void list_add(struct list_head *n, struct list_head *h) {
  __list_add(n, h, h->next);
}
static inline void list_add_tail(struct list_head *n, struct list_head *h) {
  __list_add(n, h->prev, h);
}
static inline void list_del(struct list_head *e) {
  e->next->prev = e->prev;
  WRITE_ONCE(e->prev->next, e->next);
  e->next = (struct list_head *)0x100;
  e->prev = (struct list_head *)0x122;
}
static inline int list_empty(const struct list_head *h) {
  return READ_ONCE(h->next) == h;
}
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
  list_entry((ptr)->next, type, member)

/* Modules: module_init names the entry the loader calls. */
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_LICENSE(x)
#define MODULE_ALIAS_FS(x)
#define MODULE_ALIAS(x)
#define MODULE_VERSION(x)
#define MODULE_SOFTDEP(x)
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
#define THIS_MODULE ((struct module *)0)
#define module_init(fn) \
  int sl_module_init(void) { return fn(); }
#define module_exit(fn) \
  void sl_module_exit(void) { fn(); }

#endif /* SQUASHLAB_LINUX_BASE_H_ */
