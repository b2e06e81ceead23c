// SPDX-License-Identifier: GPL-2.0-only
// Tests of ChunkPipeline: in-order delivery with any number of threads,
// the same bytes as a serial read, and clean stops on decode or sink errors.
#include "reader/chunk_pipeline.h"

#include <gtest/gtest.h>

#include "reader/image.h"
#include "testdata/expected_tree.h"

namespace squashlab {
namespace {

// Runs the whole of `paths`, one file after another, through one Run.
Status CatFiles(Image* img, int threads, const std::vector<std::string>& paths,
                std::string* out, int fail_sink_at = -1) {
  std::vector<std::shared_ptr<const FileLayout>> layouts;
  for (const std::string& p : paths) {
    SQL_ASSIGN_OR_RETURN(Inode in, img->Lookup(p));
    SQL_ASSIGN_OR_RETURN(FileLayout l, img->Layout(in));
    layouts.push_back(std::make_shared<const FileLayout>(std::move(l)));
  }
  ChunkPipeline pipeline(&img->data(), threads);
  size_t file = 0;
  uint64_t chunk = 0;
  int delivered = 0;
  return pipeline.Run(
      [&](ChunkJob* job) {
        while (file < layouts.size() && chunk == layouts[file]->chunk_count()) {
          ++file;
          chunk = 0;
        }
        if (file == layouts.size()) return false;
        job->layout = layouts[file];
        job->chunk = chunk++;
        job->tag = file;
        return true;
      },
      [&](const ChunkJob&, ByteSpan bytes) {
        if (delivered++ == fail_sink_at) return Status::IoError("sink refused");
        out->append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        return Status::Ok();
      });
}

TEST(ChunkPipelineTest, AnyThreadCountDeliversTheSameBytesInOrder) {
  auto img = Image::OpenBytes(testdata::ImageBytesOf("tree_gzip"));
  ASSERT_TRUE(img.ok());
  const std::vector<std::string> paths = {
      "/big",          "/empty", "/small",          "/sparse",
      "/block_plus_1", "/text",  "/many/entry_0007"};
  std::string want;
  for (const auto& f : testdata::PatternFiles()) {
    if (f.path == std::string("/big"))
      want += testdata::ExpectedPattern(f.seed, f.size);
  }
  want += testdata::ExpectedPattern(1, 100) + std::string(1 << 20, '\0') +
          "end" + testdata::ExpectedPattern(4, 131073) +
          testdata::ExpectedText() + "entry_0007";
  for (int threads : {1, 2, 3, 8}) {
    std::string got;
    Status s = CatFiles(img->get(), threads, paths, &got);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(got == want)
        << threads << " threads: " << got.size() << " bytes vs " << want.size();
  }
}

TEST(ChunkPipelineTest, SinkErrorStopsTheRun) {
  auto img = Image::OpenBytes(testdata::ImageBytesOf("tree_zstd"));
  ASSERT_TRUE(img.ok());
  for (int threads : {1, 2, 4}) {
    std::string got;
    Status s = CatFiles(img->get(), threads, {"/big", "/text"}, &got, 3);
    EXPECT_EQ(s.code(), StatusCode::kIoError);
    EXPECT_EQ(got.size(), 3u * 131072);
  }
}

TEST(ChunkPipelineTest, CorruptBlockIsAnErrorNotABadByte) {
  // Flip a byte inside /text's second gzip block (zlib's checksum makes any
  // change detectable), found through the file's layout.
  auto bytes = testdata::ImageBytesOf("tree_gzip");
  auto img = Image::OpenBytes(bytes);
  ASSERT_TRUE(img.ok());
  auto in = (*img)->Lookup("/text");
  ASSERT_TRUE(in.ok());
  auto layout = (*img)->Layout(*in);
  ASSERT_TRUE(layout.ok());
  ASSERT_GE(layout->blocks.size(), 2u);
  const StoredBlock& b = layout->blocks[1];
  ASSERT_TRUE(b.compressed);
  bytes[b.start + b.stored_size / 2] ^= 0xFF;
  auto bad = Image::OpenBytes(bytes);
  ASSERT_TRUE(bad.ok());
  for (int threads : {1, 2}) {
    std::string got;
    Status s = CatFiles(bad->get(), threads, {"/text"}, &got);
    EXPECT_EQ(s.code(), StatusCode::kCorruption) << s.ToString();
    EXPECT_LE(got.size(), 131072u)
        << "nothing after the bad block may be delivered";
  }
}

}  // namespace
}  // namespace squashlab
