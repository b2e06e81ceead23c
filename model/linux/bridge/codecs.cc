// SPDX-License-Identifier: GPL-2.0-only
// This file implements the in-kernel decompressor APIs of the header layer
// (zlib_inflate*, zstd_*_dstream, xz_dec_*, LZ4_decompress_safe,
// lzo1x_decompress_safe) over the system libraries, which decode the same
// formats. Each call charges its output to the run (simulate mode's codec
// cost) and is a scheduling point, as a preemptible kernel's inflate loop
// can be preempted between output pages.
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <cstdint>
#include <cstring>

#include "model/kernel/kernel.h"

namespace {

// include/linux/zlib.h's z_stream as the header layer declares it.
struct KernelZStream {
  const unsigned char* next_in;
  unsigned long avail_in;
  unsigned long total_in;
  unsigned char* next_out;
  unsigned long avail_out;
  unsigned long total_out;
  char* msg;
  void* state;  // the system library's z_stream
  void* workspace;
  int data_type;
  unsigned long adler;
  unsigned long reserved;
};

void Charge(uint64_t bytes, const char* codec) {
  squashlab::model_charge(squashlab::CostKind::kDecompressByte, bytes, codec);
  squashlab::model_point("inflate");
}

}  // namespace

struct sl_zstd_dstream {
  ZSTD_DStream* d;
};

struct xz_dec {
  lzma_stream s;
  uint32_t dict_max;
  bool started;
};

extern "C" {

int zlib_inflate_workspacesize(void) { return 64; }

int zlib_inflateInit2(KernelZStream* k, int window_bits) {
  auto* z = new z_stream{};
  if (inflateInit2(z, window_bits) != Z_OK) {
    delete z;
    return Z_MEM_ERROR;
  }
  k->state = z;
  k->total_in = k->total_out = 0;
  return Z_OK;
}

int zlib_inflate(KernelZStream* k, int flush) {
  auto* z = static_cast<z_stream*>(k->state);
  z->next_in = const_cast<unsigned char*>(k->next_in);
  z->avail_in = static_cast<uInt>(k->avail_in);
  z->next_out = k->next_out;
  z->avail_out = static_cast<uInt>(k->avail_out);
  uLong out_before = z->total_out;
  int r = inflate(z, flush);
  k->next_in = z->next_in;
  k->avail_in = z->avail_in;
  k->next_out = z->next_out;
  k->avail_out = z->avail_out;
  k->total_in = z->total_in;
  k->total_out = z->total_out;
  Charge(z->total_out - out_before, "gzip");
  return r;
}

int zlib_inflateEnd(KernelZStream* k) {
  auto* z = static_cast<z_stream*>(k->state);
  if (z == nullptr) return Z_STREAM_ERROR;
  int r = inflateEnd(z);
  delete z;
  k->state = nullptr;
  return r;
}

int zlib_inflateReset(KernelZStream* k) {
  return inflateReset(static_cast<z_stream*>(k->state));
}

size_t zstd_dstream_workspace_bound(size_t) { return 64; }

sl_zstd_dstream* zstd_init_dstream(size_t max_window_size, void* workspace,
                                   size_t workspace_size) {
  if (workspace == nullptr || workspace_size < sizeof(sl_zstd_dstream))
    return nullptr;
  auto* s = static_cast<sl_zstd_dstream*>(workspace);
  s->d = ZSTD_createDStream();
  ZSTD_DCtx_setParameter(
      s->d, ZSTD_d_windowLogMax,
      max_window_size ? 64 - __builtin_clzll(max_window_size) : 27);
  ZSTD_initDStream(s->d);
  return s;
}

size_t zstd_reset_dstream(sl_zstd_dstream* s) { return ZSTD_initDStream(s->d); }

size_t zstd_decompress_stream(sl_zstd_dstream* s, ZSTD_outBuffer* out,
                              ZSTD_inBuffer* in) {
  size_t before = out->pos;
  size_t r = ZSTD_decompressStream(s->d, out, in);
  Charge(out->pos - before, "zstd");
  if (r == 0 || ZSTD_isError(r)) {
    // The stream is done with (the wrapper inits a new one per block).
    ZSTD_freeDStream(s->d);
    s->d = ZSTD_createDStream();
  }
  return r;
}

unsigned int zstd_is_error(size_t code) { return ZSTD_isError(code); }
int zstd_get_error_code(size_t code) { return ZSTD_getErrorCode(code); }
const char* zstd_get_error_name(size_t code) { return ZSTD_getErrorName(code); }

// The kernel's xz_dec decodes one .xz stream per block in XZ_PREALLOC mode;
// liblzma's stream decoder does the same.
xz_dec* xz_dec_init(int, uint32_t dict_max) {
  auto* x = new xz_dec{};
  x->s = LZMA_STREAM_INIT;
  x->dict_max = dict_max;
  return x;
}

void xz_dec_reset(xz_dec* x) {
  if (x->started) lzma_end(&x->s);
  x->s = LZMA_STREAM_INIT;
  x->started = false;
}

struct KernelXzBuf {
  const uint8_t* in;
  size_t in_pos;
  size_t in_size;
  uint8_t* out;
  size_t out_pos;
  size_t out_size;
};

int xz_dec_run(xz_dec* x, KernelXzBuf* b) {
  enum {
    kOk,
    kStreamEnd,
    kUnsupportedCheck,
    kMemError,
    kMemlimitError,
    kFormatError,
    kOptionsError,
    kDataError,
    kBufError
  };
  if (!x->started) {
    if (lzma_stream_decoder(&x->s, UINT64_MAX, 0) != LZMA_OK) return kMemError;
    x->started = true;
  }
  x->s.next_in = b->in + b->in_pos;
  x->s.avail_in = b->in_size - b->in_pos;
  x->s.next_out = b->out + b->out_pos;
  x->s.avail_out = b->out_size - b->out_pos;
  size_t out_before = b->out_pos;
  lzma_ret r = lzma_code(&x->s, LZMA_RUN);
  b->in_pos = b->in_size - x->s.avail_in;
  b->out_pos = b->out_size - x->s.avail_out;
  Charge(b->out_pos - out_before, "xz");
  switch (r) {
    case LZMA_OK:
      return kOk;
    case LZMA_STREAM_END:
      return kStreamEnd;
    case LZMA_MEM_ERROR:
      return kMemError;
    case LZMA_FORMAT_ERROR:
      return kFormatError;
    case LZMA_OPTIONS_ERROR:
      return kOptionsError;
    case LZMA_BUF_ERROR:
      return kBufError;
    default:
      return kDataError;
  }
}

void xz_dec_end(xz_dec* x) {
  if (x == nullptr) return;
  if (x->started) lzma_end(&x->s);
  delete x;
}

int sl_lzo1x_decompress_safe(const unsigned char* src, size_t src_len,
                             unsigned char* dst, size_t* dst_len) {
  lzo_uint out = *dst_len;
  int r = lzo1x_decompress_safe(src, src_len, dst, &out, nullptr);
  *dst_len = out;
  Charge(out, "lzo");
  return r == LZO_E_OK ? 0 : -1;
}

}  // extern "C"
