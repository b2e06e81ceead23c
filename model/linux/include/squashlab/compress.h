/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the in-kernel decompressor APIs fs/squashfs calls
 * (include/linux/zlib.h, zstd.h, xz.h, lz4.h, lzo.h) in their kernel
 * shapes; bridge/codecs*.cc backs them with the system libraries (zlib,
 * libzstd, liblzma, liblz4), which decode the same streams. Decompression
 * is charged to the run as the model's codecs are.
 */
#ifndef SQUASHLAB_LINUX_COMPRESS_H_
#define SQUASHLAB_LINUX_COMPRESS_H_

#include <squashlab/base.h>

/* zlib */
#define Z_OK 0
#define Z_STREAM_END 1
#define Z_NEED_DICT 2
#define Z_ERRNO (-1)
#define Z_STREAM_ERROR (-2)
#define Z_DATA_ERROR (-3)
#define Z_MEM_ERROR (-4)
#define Z_BUF_ERROR (-5)
#define Z_NO_FLUSH 0
#define Z_SYNC_FLUSH 2
#define Z_FINISH 4
#define MAX_WBITS 15
#define DEF_WBITS MAX_WBITS
typedef struct z_stream_s {
  const Byte *next_in;
  uLong avail_in;
  uLong total_in;
  Byte *next_out;
  uLong avail_out;
  uLong total_out;
  char *msg;
  struct internal_state *state;
  void *workspace;
  int data_type;
  uLong adler;
  uLong reserved;
} z_stream;
typedef z_stream *z_streamp;
int zlib_inflate_workspacesize(void);
int zlib_inflateInit2(z_streamp strm, int window_bits);
int zlib_inflate(z_streamp strm, int flush);
int zlib_inflateEnd(z_streamp strm);
int zlib_inflateReset(z_streamp strm);
#define zlib_inflateInit(strm) zlib_inflateInit2(strm, DEF_WBITS)

/* zstd */
typedef struct sl_zstd_dstream zstd_dstream;
typedef struct {
  const void *src;
  size_t size;
  size_t pos;
} zstd_in_buffer;
typedef struct {
  void *dst;
  size_t size;
  size_t pos;
} zstd_out_buffer;
typedef int zstd_error_code;
size_t zstd_dstream_workspace_bound(size_t max_window_size);
zstd_dstream *zstd_init_dstream(size_t max_window_size, void *workspace,
                                size_t workspace_size);
size_t zstd_reset_dstream(zstd_dstream *dstream);
size_t zstd_decompress_stream(zstd_dstream *dstream, zstd_out_buffer *output,
                              zstd_in_buffer *input);
unsigned int zstd_is_error(size_t code);
zstd_error_code zstd_get_error_code(size_t code);
const char *zstd_get_error_name(size_t code);

/* xz (the kernel's xz_dec interface) */
enum xz_mode { XZ_SINGLE, XZ_PREALLOC, XZ_DYNALLOC };
enum xz_ret {
  XZ_OK,
  XZ_STREAM_END,
  XZ_UNSUPPORTED_CHECK,
  XZ_MEM_ERROR,
  XZ_MEMLIMIT_ERROR,
  XZ_FORMAT_ERROR,
  XZ_OPTIONS_ERROR,
  XZ_DATA_ERROR,
  XZ_BUF_ERROR
};
struct xz_buf {
  const u8 *in;
  size_t in_pos;
  size_t in_size;
  u8 *out;
  size_t out_pos;
  size_t out_size;
};
struct xz_dec;
struct xz_dec *xz_dec_init(enum xz_mode mode, u32 dict_max);
enum xz_ret xz_dec_run(struct xz_dec *s, struct xz_buf *b);
void xz_dec_reset(struct xz_dec *s);
void xz_dec_end(struct xz_dec *s);

/* lz4 */
int sl_LZ4_decompress_safe(const char *source, char *dest, int compressed_size,
                           int max_decompressed_size);
#define LZ4_decompress_safe sl_LZ4_decompress_safe

/* lzo */
#define LZO_E_OK 0
#define LZO_E_ERROR (-1)
int sl_lzo1x_decompress_safe(const unsigned char *src, size_t src_len,
                             unsigned char *dst, size_t *dst_len);
#define lzo1x_decompress_safe sl_lzo1x_decompress_safe

#endif /* SQUASHLAB_LINUX_COMPRESS_H_ */
