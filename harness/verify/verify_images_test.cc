// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of a verify job's images: directories,
// labels only when there are several, --file narrowing (files anywhere in
// the tree), errors naming the image, and scenario names carrying the
// image's label through a replay token.
#include "harness/verify/verify_images.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "harness/scenario_spec.h"

namespace squashlab {
namespace {

std::string TestImage(const std::string& name) {
  const char* src = std::getenv("TEST_SRCDIR");
  return std::string(src ? src : ".") + "/squashlab/testdata/" + name;
}

TEST(VerifyImages, OneImageKeepsTheUnlabelledName) {
  auto r = ResolveImages({{TestImage("tree_gzip.sqfs")}, {}, {}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(r->front().label, "");
  // Files anywhere in the tree, by path.
  EXPECT_NE(r->front().model->Find("many/entry_0001"), nullptr);
  EXPECT_NE(r->front().model->Find("big"), nullptr);
}

TEST(VerifyImages, SeveralImagesAreLabelledByName) {
  auto r = ResolveImages(
      {{TestImage("tree_gzip.sqfs"), TestImage("tree_zstd.sqfs")}, {}, {}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].label, "tree_gzip");
  EXPECT_EQ((*r)[1].label, "tree_zstd");
}

TEST(VerifyImages, ADirectoryGivesItsImagesInNameOrder) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/imgs";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(TestImage("tree_zstd.sqfs"), dir + "/b.sqfs");
  std::filesystem::copy_file(TestImage("tree_gzip.sqfs"), dir + "/a.img");
  FILE* f = std::fopen((dir + "/notes.txt").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("not an image\n", f);
  std::fclose(f);
  auto r = ResolveImages({{dir}, {}, {}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].label, "a");
  EXPECT_EQ((*r)[1].label, "b");
}

TEST(VerifyImages, FileNarrowsToTheNamedPathsInOrder) {
  auto r = ResolveImages(
      {{TestImage("tree_gzip.sqfs")}, {}, {"/many/entry_0002", "block"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ImageModel& m = *r->front().model;
  ASSERT_EQ(m.files.size(), 2u);
  EXPECT_EQ(m.files[0].name, "many/entry_0002");
  EXPECT_EQ(m.files[1].name, "block");
}

TEST(VerifyImages, AMissingFileNamesTheImage) {
  auto r = ResolveImages({{TestImage("tree_gzip.sqfs")}, {}, {"nope"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("--file nope"), std::string::npos);
  EXPECT_NE(r.status().ToString().find("tree_gzip.sqfs"), std::string::npos);
}

TEST(VerifyImages, UnknownShapeIsRefused) {
  auto r = ExpandShapes({"no-such-shape"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("mkimage --list"), std::string::npos);
}

TEST(VerifyImages, LabelFindsItsImageAmongSeveral) {
  ImageChoice c{
      {TestImage("tree_gzip.sqfs"), TestImage("tree_zstd.sqfs")}, {}, {}};
  auto z = ResolveImageLabel(c, "tree_zstd");
  ASSERT_TRUE(z.ok()) << z.status().ToString();
  EXPECT_EQ((*z)->compressor, CompressorId::kZstd);
  EXPECT_FALSE(ResolveImageLabel(c, "").ok());  // which one?
  EXPECT_FALSE(ResolveImageLabel(c, "tree_xz").ok());
}

TEST(ScenarioName, CarriesTheImageLabel) {
  ScenarioSpec s{"linux-6.1",         "single", "dd2",
                 "eio@sector=40",     "nvme",   "",
                 "gzip-128k-tailends"};
  EXPECT_EQ(s.Name(),
            "linux-6.1/single/dd2@gzip-128k-tailends/eio@sector=40/nvme");
  auto p = ScenarioSpec::Parse(s.Name());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->workload, "dd2");
  EXPECT_EQ(p->image, "gzip-128k-tailends");
  EXPECT_EQ(p->faults, "eio@sector=40");
  EXPECT_EQ(p->Name(), s.Name());
  ScenarioSpec plain{"sync-3.13", "single", "dd", "", "", "", ""};
  EXPECT_EQ(plain.Name(), "sync-3.13/single/dd");
}

}  // namespace
}  // namespace squashlab
