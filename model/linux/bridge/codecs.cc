// SPDX-License-Identifier: GPL-2.0-only
// This file implements the in-kernel decompressor APIs of the header layer
// (zlib_inflate*, zstd_*_dstream, xz_dec_*, LZ4_decompress_safe,
// lzo1x_decompress_safe) over the system libraries, which decode the same
// formats. The libraries' states live in the run's CodecHeap: the kernel
// keeps them in the file system's workspace, so initialising a stream again
// or leaving one on an error path without its end call leaks nothing, and
// here neither does it (the previous state is freed, the rest at the run's
// end). Each call charges its output to the run (simulate mode's codec
// cost) and is a scheduling point, as a preemptible kernel's inflate loop
// can be preempted between output pages (LZ4_decompress_safe: neither, as
// before); the ranges each call read and wrote are checked as KASAN checks
// an instrumented lib/ decompressor's accesses.
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_createDStream_advanced
#include <zstd.h>
#include <zstd_errors.h>

#include <cstdint>
#include <cstring>
#include <new>

#include "model/kernel/kasan.h"
#include "model/kernel/kernel.h"
#include "model/linux/bridge/run_state.h"

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

// A KASAN kernel compiles its lib/ decompressors instrumented: every byte
// they read or write is checked. The system libraries are not, so each
// call's actual input and output ranges are checked after it, as the
// accesses they were (an output page overrun, an input buffer freed).
void Accessed(const void* in, size_t in_n, const void* out, size_t out_n,
              const char* fn) {
  squashlab::KasanCheckAccess(reinterpret_cast<uintptr_t>(in), in_n, false, fn);
  squashlab::KasanCheckAccess(reinterpret_cast<uintptr_t>(out), out_n, true,
                              fn);
}

void Charge(uint64_t bytes, const char* codec) {
  squashlab::model_charge(squashlab::CostKind::kDecompressByte, bytes, codec);
  squashlab::model_point("inflate");
}

using squashlab::linux_bridge::CodecHeap;

CodecHeap& Heap() { return squashlab::linux_bridge::Run().codec_heap(); }

}  // namespace

struct sl_zstd_dstream {
  ZSTD_DStream* d;
};

struct xz_dec {
  lzma_stream s;
  lzma_allocator allocator;
  uint32_t dict_max;
  bool started;
};

extern "C" {

int zlib_inflate_workspacesize(void) { return 64; }

int zlib_inflateInit2(KernelZStream* k, int window_bits) {
  CodecHeap& heap = Heap();
  // A stream initialised again without zlib_inflateEnd (an error path):
  // the kernel reuses its workspace; free what this one held.
  if (heap.Owns(k->state)) {
    inflateEnd(static_cast<z_stream*>(k->state));
    heap.Free(k->state);
  }
  k->state = nullptr;
  auto* z =
      static_cast<z_stream*>(CodecHeap::CallocHook(&heap, 1, sizeof(z_stream)));
  if (z == nullptr) return Z_MEM_ERROR;
  z->zalloc = CodecHeap::ZAlloc;
  z->zfree = CodecHeap::FreeHook;
  z->opaque = &heap;
  if (inflateInit2(z, window_bits) != Z_OK) {
    heap.Free(z);
    return Z_MEM_ERROR;
  }
  k->state = z;
  k->total_in = k->total_out = 0;
  return Z_OK;
}

// lib/zlib_inflate/inflate.c does not refuse a NULL next_out (its comment:
// ppc's zImage inflates to address 0); the system library does, with
// Z_STREAM_ERROR. squashfs's zlib_uncompress relies on the kernel's
// behaviour: when a block's output fills the actor's last page before
// inflate has read the end-of-block code and the Adler-32 trailer (the
// input ran out at a bio segment boundary), the next call has next_out ==
// NULL and avail_out == 0 and must still reach Z_STREAM_END. With no room
// to write, any non-NULL address stands for the kernel's NULL.
static unsigned char g_no_output;

int zlib_inflate(KernelZStream* k, int flush) {
  auto* z = static_cast<z_stream*>(k->state);
  const bool null_out = k->next_out == nullptr && k->avail_out == 0;
  z->next_in = const_cast<unsigned char*>(k->next_in);
  z->avail_in = static_cast<uInt>(k->avail_in);
  z->next_out = null_out ? &g_no_output : k->next_out;
  z->avail_out = static_cast<uInt>(k->avail_out);
  uLong out_before = z->total_out;
  const unsigned char* in0 = z->next_in;
  unsigned char* out0 = z->next_out;
  int r = inflate(z, flush);
  Accessed(in0, static_cast<size_t>(z->next_in - in0), out0,
           static_cast<size_t>(z->next_out - out0), "zlib_inflate");
  k->next_in = z->next_in;
  k->avail_in = z->avail_in;
  k->next_out = null_out ? nullptr : z->next_out;
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
  Heap().Free(z);
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
  CodecHeap& heap = Heap();
  // The workspace is uninitialised the first time; later it holds the
  // previous block's stream, which is done with.
  if (heap.Owns(s->d)) ZSTD_freeDStream(s->d);
  s->d = ZSTD_createDStream_advanced(
      {CodecHeap::AllocHook, CodecHeap::FreeHook, &heap});
  if (s->d == nullptr) return nullptr;
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
  const size_t in_before = in->pos;
  size_t r = ZSTD_decompressStream(s->d, out, in);
  Accessed(static_cast<const char*>(in->src) + in_before, in->pos - in_before,
           static_cast<char*>(out->dst) + before, out->pos - before,
           "zstd_decompress_stream");
  Charge(out->pos - before, "zstd");
  // A finished or failed stream starts over if it is used again (the
  // wrapper inits a new one per block).
  if (r == 0 || ZSTD_isError(r)) ZSTD_DCtx_reset(s->d, ZSTD_reset_session_only);
  return r;
}

unsigned int zstd_is_error(size_t code) { return ZSTD_isError(code); }
int zstd_get_error_code(size_t code) { return ZSTD_getErrorCode(code); }
const char* zstd_get_error_name(size_t code) { return ZSTD_getErrorName(code); }

// The kernel's xz_dec decodes one .xz stream per block in XZ_PREALLOC mode;
// liblzma's stream decoder does the same.
xz_dec* xz_dec_init(int, uint32_t dict_max) {
  CodecHeap& heap = Heap();
  void* room = heap.Alloc(sizeof(xz_dec));
  if (room == nullptr) return nullptr;
  auto* x = new (room) xz_dec{};
  x->allocator = {CodecHeap::ArrayHook, CodecHeap::FreeHook, &heap};
  x->s = LZMA_STREAM_INIT;
  x->s.allocator = &x->allocator;
  x->dict_max = dict_max;
  return x;
}

void xz_dec_reset(xz_dec* x) {
  if (x->started) lzma_end(&x->s);
  x->s = LZMA_STREAM_INIT;
  x->s.allocator = &x->allocator;
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
  const size_t in_before = b->in_pos;
  lzma_ret r = lzma_code(&x->s, LZMA_RUN);
  b->in_pos = b->in_size - x->s.avail_in;
  b->out_pos = b->out_size - x->s.avail_out;
  Accessed(b->in + in_before, b->in_pos - in_before, b->out + out_before,
           b->out_pos - out_before, "xz_dec_run");
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
  Heap().Free(x);  // trivially destructible: the memory is all there is
}

// liblz4's, with its accesses checked (no charge and no scheduling point:
// one call decodes the whole block, as the kernel's does).
int sl_LZ4_decompress_safe(const char* source, char* dest, int compressed_size,
                           int max_decompressed_size) {
  int r =
      LZ4_decompress_safe(source, dest, compressed_size, max_decompressed_size);
  Accessed(source,
           compressed_size > 0 ? static_cast<size_t>(compressed_size) : 0, dest,
           r > 0 ? static_cast<size_t>(r) : 0, "LZ4_decompress_safe");
  return r;
}

int sl_lzo1x_decompress_safe(const unsigned char* src, size_t src_len,
                             unsigned char* dst, size_t* dst_len) {
  lzo_uint out = *dst_len;
  int r = lzo1x_decompress_safe(src, src_len, dst, &out, nullptr);
  Accessed(src, src_len, dst, out, "lzo1x_decompress_safe");
  *dst_len = out;
  Charge(out, "lzo");
  return r == LZO_E_OK ? 0 : -1;
}

}  // extern "C"
