// SPDX-License-Identifier: GPL-2.0-only
// This file implements the codec call shared by every strategy and the
// strategy table.
#include "model/variants/decompressor.h"

#include <algorithm>
#include <cstring>

#include "model/kernel/buffer_head.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/variants/codec_memo.h"
#include "model/variants/page_actor.h"

namespace squashlab {
namespace {

const char* UncompressFn(CompressorId id) {
  switch (id) {
    case CompressorId::kGzip:
      return "zlib_uncompress";
    case CompressorId::kXz:
      return "squashfs_xz_uncompress";
    case CompressorId::kLzo:
      return "lzo_uncompress";
    case CompressorId::kLz4:
      return "lz4_uncompress";
    case CompressorId::kZstd:
      return "zstd_uncompress";
    default:
      return "lzma_uncompress";
  }
}

}  // namespace

CodecStream* squashfs_stream_init(squashfs_sb_info* msblk) {
  CodecStream* s = Kernel::Current().New<CodecStream>();
  auto codec = NewDecompressor(msblk->compression);
  if (codec.ok()) s->codec = std::move(codec).value();
  s->in.reserve(static_cast<size_t>(msblk->block_size) + msblk->devblksize);
  s->out.resize(static_cast<size_t>(msblk->block_size));
  return s;
}

int squashfs_codec_uncompress(squashfs_sb_info* msblk, CodecStream* stream,
                              buffer_head** bh, int b, int offset, int length,
                              squashfs_page_actor* output) {
  Kernel& k = Kernel::Current();
  const char* fn = UncompressFn(msblk->compression);
  stream->in.clear();
  // As the kernel's loop: bh[k]->b_data is read for every k < b (a NULL
  // bh[k] faults at 0x28, offsetof(struct buffer_head, b_data) on x86-64:
  // the seed's "NULL pointer dereference at 0000000000000028").
  constexpr size_t kBDataOffset = 0x28;
  for (int i = 0; i < b; i++) {
    k.CheckField(bh[i], kBDataOffset, fn);
    int avail = std::min(length, msblk->devblksize - offset);
    if (avail > 0) {
      const uint8_t* src =
          reinterpret_cast<const uint8_t*>(bh[i]->b_data) + offset;
      stream->in.insert(stream->in.end(), src, src + avail);
      length -= avail;
    }
    offset = 0;
    put_bh(bh[i]);
  }
  if (stream->codec == nullptr) return -EIO;
  size_t cap =
      std::min<size_t>(stream->out.size(), static_cast<size_t>(output->length));
  ByteSpan in(stream->in.data(), stream->in.size());
  std::span<uint8_t> room(stream->out.data(), cap);
  long memo = CodecMemo::Find(msblk->compression, in, room);
  size_t n = 0;
  if (memo >= 0) {
    n = static_cast<size_t>(memo);
  } else {
    auto res = stream->codec->Decompress(in, room);
    if (!res.ok()) return -EIO;
    n = res.value();
    CodecMemo::Add(msblk->compression, in, cap,
                   std::span<const uint8_t>(stream->out.data(), n));
  }
  // Write the output page by page through the actor, charging the codec's
  // time per page as the kernel's inflate loop produces it (so a
  // preemptible caller can be preempted between pages).
  size_t done = 0;
  void* data = squashfs_first_page(output);
  while (data != nullptr && done < n) {
    size_t chunk = std::min<size_t>(PAGE_SIZE, n - done);
    model_charge(CostKind::kDecompressByte, chunk,
                 CompressorName(msblk->compression));
    model_point("inflate");
    std::memcpy(data, stream->out.data() + done, chunk);
    done += chunk;
    if (done < n) data = squashfs_next_page(output);
  }
  squashfs_finish_page(output);
  return static_cast<int>(n);
}

const std::vector<const SquashfsDecompressorOps*>& AllDecompressors() {
  static const std::vector<const SquashfsDecompressorOps*> kAll = {
      &kDecompSingle, &kDecompMulti, &kDecompPercpu, &kDecompPercpuLocallock};
  return kAll;
}

const SquashfsDecompressorOps* FindDecompressor(const std::string& name) {
  for (const auto* d : AllDecompressors())
    if (name == d->name) return d;
  return nullptr;
}

}  // namespace squashlab
