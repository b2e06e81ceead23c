/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements call-site recording: the header layer wraps each
 * kernel call that can sleep, lock or report in SL_AT, which records the
 * caller's file, line and function for the current task first, so that a
 * report and a schedule's trace name the real kernel source line
 * ("file.c:523 squashfs_readahead").
 */
#ifndef SQUASHLAB_LINUX_SITE_H_
#define SQUASHLAB_LINUX_SITE_H_

#ifdef __cplusplus
extern "C" {
#endif
void sl_set_site(const char *file, int line, const char *func);
#ifdef __cplusplus
}
#endif

#define SL_AT(call) (sl_set_site(__FILE__, __LINE__, __func__), (call))

#endif /* SQUASHLAB_LINUX_SITE_H_ */
