// SPDX-License-Identifier: GPL-2.0-only
// This file implements DataReader with a small shared cache of decoded
// fragment blocks (many small files share one), each decoded once even when
// several threads ask for it at the same time.
#include "reader/data_reader.h"

#include <cstring>

namespace squashlab {

DataReader::DataReader(std::shared_ptr<const ImageBytes> bytes,
                       CompressorId compressor, uint32_t block_size)
    : bytes_(std::move(bytes)),
      compressor_(compressor),
      block_size_(block_size) {}

StatusOr<std::unique_ptr<DataReader::Context>> DataReader::NewContext() const {
  auto ctx = std::make_unique<Context>();
  SQL_ASSIGN_OR_RETURN(ctx->decompressor, NewDecompressor(compressor_));
  ctx->input.resize(block_size_);
  return ctx;
}

StatusOr<size_t> DataReader::Decode(const StoredBlock& b, Context* ctx,
                                    uint8_t* out, size_t capacity) const {
  // Layouts bound stored sizes by the block size, which bounds ctx->input.
  if (b.stored_size > ctx->input.size())
    return Status::Corruption("stored block too large");
  if (!b.compressed) {
    if (b.stored_size > capacity)
      return Status::Corruption("uncompressed block too large");
    SQL_RETURN_IF_ERROR(bytes_->ReadAt(b.start, b.stored_size, out));
    return b.stored_size;
  }
  SQL_RETURN_IF_ERROR(
      bytes_->ReadAt(b.start, b.stored_size, ctx->input.data()));
  ByteSpan stored(ctx->input.data(), b.stored_size);
  auto n =
      ctx->decompressor->Decompress(stored, std::span<uint8_t>(out, capacity));
  if (!n.ok())
    return n.status().WithContext("block at " + std::to_string(b.start));
  return *n;
}

StatusOr<DataReader::Fragment> DataReader::ReadFragment(const StoredBlock& b,
                                                        Context* ctx) const {
  std::promise<StatusOr<Fragment>> promise;
  std::shared_future<StatusOr<Fragment>> result;
  bool found = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = fragments_.begin(); it != fragments_.end() && !found; ++it) {
      if (it->first == b.start) {
        fragments_.splice(fragments_.begin(), fragments_, it);
        result = it->second;
        found = true;
      }
    }
    if (!found) {
      result = promise.get_future().share();
      fragments_.emplace_front(b.start, result);
      if (fragments_.size() > kFragmentCacheSize) fragments_.pop_back();
    }
  }
  if (found) return result.get();  // decoded, or being decoded: wait for it
  auto data = std::make_shared<DecodedFragment>();
  data->bytes.reset(new uint8_t[block_size_]);
  auto n = Decode(b, ctx, data->bytes.get(), block_size_);
  if (n.ok()) {
    data->size = *n;
    promise.set_value(Fragment(std::move(data)));
  } else {
    promise.set_value(n.status());
    std::lock_guard<std::mutex> lock(mu_);  // do not keep the failure
    fragments_.remove_if([&](const auto& e) { return e.first == b.start; });
  }
  return result.get();
}

Status DataReader::WarmFragment(const FileLayout& layout, Context* ctx) const {
  if (!layout.has_tail) return Status::Ok();
  return ReadFragment(layout.fragment, ctx).status();
}

Status DataReader::ReadChunk(const FileLayout& layout, uint64_t i, Context* ctx,
                             uint8_t* out) const {
  if (i >= layout.chunk_count())
    return Status::OutOfRange("chunk index past the file");
  const uint32_t len = layout.chunk_length(i);
  if (i < layout.blocks.size()) {
    const StoredBlock& b = layout.blocks[i];
    if (b.stored_size == 0) {
      std::memset(out, 0, len);
      return Status::Ok();
    }
    SQL_ASSIGN_OR_RETURN(size_t n, Decode(b, ctx, out, len));
    if (n != len)
      return Status::Corruption("block at " + std::to_string(b.start) +
                                " decodes to " + std::to_string(n) +
                                " bytes, expected " + std::to_string(len));
    return Status::Ok();
  }
  SQL_ASSIGN_OR_RETURN(Fragment f, ReadFragment(layout.fragment, ctx));
  if (static_cast<uint64_t>(layout.tail_offset) + len > f->size)
    return Status::Corruption("file tail runs past the end of fragment " +
                              std::to_string(layout.fragment_index));
  std::memcpy(out, f->bytes.get() + layout.tail_offset, len);
  return Status::Ok();
}

}  // namespace squashlab
