/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the unaligned access helpers of <linux/unaligned.h>
 * (6.12) and <asm/unaligned.h> (6.1) that the lib/ decompressors use:
 * get_unaligned / put_unaligned of any scalar type and their fixed-endian
 * forms, as loads and stores through packed structures (which a KASAN
 * compilation checks like any other access).
 */
#ifndef SQUASHLAB_LINUX_UNALIGNED_H_
#define SQUASHLAB_LINUX_UNALIGNED_H_

#include <squashlab/base.h>

#define sl_get_unaligned_t(type, ptr)                       \
  ({                                                        \
    const struct {                                          \
      type v;                                               \
    } __attribute__((packed)) *sl_up = (const void *)(ptr); \
    sl_up->v;                                               \
  })
#define sl_put_unaligned_t(type, val, ptr)            \
  do {                                                \
    struct {                                          \
      type v;                                         \
    } __attribute__((packed)) *sl_up = (void *)(ptr); \
    sl_up->v = (val);                                 \
  } while (0)

#define get_unaligned(ptr) sl_get_unaligned_t(__typeof__(*(ptr)), (ptr))
#define put_unaligned(val, ptr) \
  sl_put_unaligned_t(__typeof__(*(ptr)), (val), (ptr))

static inline u16 get_unaligned_le16(const void *p) {
  return le16_to_cpu(sl_get_unaligned_t(u16, p));
}
static inline u32 get_unaligned_le32(const void *p) {
  return le32_to_cpu(sl_get_unaligned_t(u32, p));
}
static inline u64 get_unaligned_le64(const void *p) {
  return le64_to_cpu(sl_get_unaligned_t(u64, p));
}
static inline u16 get_unaligned_be16(const void *p) {
  return be16_to_cpu(sl_get_unaligned_t(u16, p));
}
static inline u32 get_unaligned_be32(const void *p) {
  return be32_to_cpu(sl_get_unaligned_t(u32, p));
}
static inline u64 get_unaligned_be64(const void *p) {
  return be64_to_cpu(sl_get_unaligned_t(u64, p));
}
static inline void put_unaligned_le16(u16 v, void *p) {
  sl_put_unaligned_t(u16, cpu_to_le16(v), p);
}
static inline void put_unaligned_le32(u32 v, void *p) {
  sl_put_unaligned_t(u32, cpu_to_le32(v), p);
}
static inline void put_unaligned_le64(u64 v, void *p) {
  sl_put_unaligned_t(u64, cpu_to_le64(v), p);
}
static inline void put_unaligned_be16(u16 v, void *p) {
  sl_put_unaligned_t(u16, cpu_to_be16(v), p);
}
static inline void put_unaligned_be32(u32 v, void *p) {
  sl_put_unaligned_t(u32, cpu_to_be32(v), p);
}
static inline void put_unaligned_be64(u64 v, void *p) {
  sl_put_unaligned_t(u64, cpu_to_be64(v), p);
}

#endif /* SQUASHLAB_LINUX_UNALIGNED_H_ */
