/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements the kernel's error numbers (Linux's, as the C
 * library's), so the kernel files need no C library header. */
#ifndef SQUASHLAB_LINUX_ERRNO_H_
#define SQUASHLAB_LINUX_ERRNO_H_
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define EAGAIN 11
#define ENOMEM 12
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define EFBIG 27
#define ENOSPC 28
#define EROFS 30
#define ERANGE 34
#define ENAMETOOLONG 36
#define ENOSYS 38
#define ENODATA 61
#define EOVERFLOW 75
#define EOPNOTSUPP 95
#define EUCLEAN 117
#define ESTALE 116
#define EWOULDBLOCK EAGAIN
#define ENOTSUPP 524
#endif /* SQUASHLAB_LINUX_ERRNO_H_ */
