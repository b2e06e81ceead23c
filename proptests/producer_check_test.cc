// SPDX-License-Identifier: GPL-2.0-only
// Tests for the peer's check of a producer's image: an image of the tree
// passes; an image that lacks a file, holds other bytes, another symlink
// target, or is not an image at all does not; a producer that keeps
// writing a wrong image is told apart from one that fails.
#include "proptests/producer_check.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace squashlab::proptests {
namespace {

namespace fs = std::filesystem;

class ProducerCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    std::string templ = std::string(tmp ? tmp : "/tmp") + "/peercheckXXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    src_ = dir_ / "src";
    fs::create_directories(src_ / "sub");
    Write(src_ / "a", std::string(70000, 'a') + "tail");
    Write(src_ / "sub" / "b", "bee\n");
    fs::create_symlink("sub/b", src_ / "link");
  }
  void TearDown() override { fs::remove_all(dir_); }

  static void Write(const fs::path& p, const std::string& s) {
    std::ofstream(p, std::ios::binary) << s;
  }
  std::string Mksquashfs() {
    return "mksquashfs '" + src_.string() + "' '" + image() +
           "' -quiet -no-progress -noappend -b 4096 >/dev/null 2>&1";
  }
  std::string Pack() {
    return std::system(Mksquashfs().c_str()) == 0 ? "" : "producer failed";
  }
  std::string image() const { return (dir_ / "img.sqfs").string(); }
  std::string Check() {
    return PeerFindsImageDiffers(image(), src_.string(),
                                 (dir_ / "peer").string());
  }

  fs::path dir_, src_;
};

TEST_F(ProducerCheck, AnImageOfTheTreePasses) {
  ASSERT_EQ(Pack(), "");
  EXPECT_EQ(Check(), "");
  EXPECT_FALSE(fs::exists(dir_ / "peer")) << "the extraction is left behind";
}

TEST_F(ProducerCheck, OtherBytesOrSizeFail) {
  ASSERT_EQ(Pack(), "");
  Write(src_ / "sub" / "b", "bea\n");
  EXPECT_NE(Check().find("/sub/b: bytes differ"), std::string::npos);
  Write(src_ / "sub" / "b", "bee\n!");
  EXPECT_NE(Check().find("/sub/b: 4 bytes, not 5"), std::string::npos);
}

TEST_F(ProducerCheck, AMissingEntryOrAnotherTargetFails) {
  ASSERT_EQ(Pack(), "");
  Write(src_ / "c", "");
  EXPECT_NE(Check().find("/c: not extracted"), std::string::npos);
  fs::remove(src_ / "c");
  fs::create_directory(src_ / "d");
  EXPECT_NE(Check().find("/d: directory missing"), std::string::npos);
  fs::remove(src_ / "d");
  fs::remove(src_ / "link");
  fs::create_symlink("a", src_ / "link");
  EXPECT_NE(Check().find("/link: symlink differs"), std::string::npos);
}

TEST_F(ProducerCheck, WhatUnsquashfsCannotReadFails) {
  Write(image(), std::string(8192, 'x'));
  EXPECT_NE(Check().find("unsquashfs failed"), std::string::npos);
}

TEST_F(ProducerCheck, APackIsRepeatedWhileTheImageIsWrong) {
  // The tree says "bug"; the producer packs "bee" until its try `good`.
  int calls = 0, repacked = 0;
  const auto producer = [&](int good) {
    return [this, good, &calls]() -> std::string {
      Write(src_ / "sub" / "b", ++calls >= good ? "bug\n" : "bee\n");
      const std::string why = Pack();
      Write(src_ / "sub" / "b", "bug\n");
      return why;
    };
  };
  const std::string peer = (dir_ / "peer").string();
  EXPECT_EQ(PackCheckedByPeer(producer(3), image(), src_.string(), peer, 3,
                              &repacked),
            "");
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(repacked, 2);

  calls = repacked = 0;
  const std::string never = PackCheckedByPeer(
      producer(99), image(), src_.string(), peer, 2, &repacked);
  EXPECT_TRUE(IsProducerFault(never)) << never;
  EXPECT_NE(never.find("(2 tries): unsquashfs extracts /sub/b: bytes differ"),
            std::string::npos)
      << never;
  EXPECT_EQ(repacked, 2);

  // A producer that fails is not a wrong image.
  const std::string failed =
      PackCheckedByPeer([] { return std::string("producer failed: x"); },
                        image(), src_.string(), peer, 3, &repacked);
  EXPECT_EQ(failed, "producer failed: x");
  EXPECT_FALSE(IsProducerFault(failed));
}

}  // namespace
}  // namespace squashlab::proptests
