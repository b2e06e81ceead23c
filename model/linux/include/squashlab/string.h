/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements the string and memory calls of <linux/string.h>
 * (the compiler's builtins, resolved by the C library at link time;
 * KASAN-checked ones in a SQUASHLAB_KASAN build) and the integer limits
 * of <linux/limits.h>. */
#ifndef SQUASHLAB_LINUX_STRING_H_
#define SQUASHLAB_LINUX_STRING_H_
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *d, const char *s);
char *strncpy(char *d, const char *s, size_t n);
size_t strnlen(const char *s, size_t n);
#ifdef SQUASHLAB_KASAN
/* A KASAN kernel checks both ranges of its memcpy & co (the compiler
 * does not instrument the library's): so does the model's. */
void *sl_kasan_memcpy(void *d, const void *s, size_t n);
void *sl_kasan_memmove(void *d, const void *s, size_t n);
void *sl_kasan_memset(void *d, int c, size_t n);
#define memcpy(d, s, n) sl_kasan_memcpy(d, s, n)
#define memmove(d, s, n) sl_kasan_memmove(d, s, n)
#define memset(d, c, n) sl_kasan_memset(d, c, n)
#endif
#ifdef __cplusplus
}
#endif
#define LLONG_MAX __LONG_LONG_MAX__
#define INT_MAX __INT_MAX__
#define UINT_MAX (__INT_MAX__ * 2U + 1U)
#define LONG_MAX __LONG_MAX__
#define ULONG_MAX (__LONG_MAX__ * 2UL + 1UL)
#endif /* SQUASHLAB_LINUX_STRING_H_ */
