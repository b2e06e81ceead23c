// SPDX-License-Identifier: GPL-2.0-only
// Property: for a generated tree packed by a real producer (mksquashfs with a
// generated compressor, block size and option set, or gensquashfs), the
// reader's view of the image equals the tree — path by path, byte by byte,
// attribute by attribute. An image the peer (unsquashfs) finds does not
// hold its tree is the producer's fault: packed again, at most three times,
// then the case is discarded.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>

#include "proptests/producer_check.h"
#include "proptests/tree_gen.h"
#include "proptests/tree_model.h"
#include "reader/image.h"

namespace squashlab::proptests {
namespace {

namespace fs = std::filesystem;

struct Packing {
  bool gensquashfs = false;
  std::string comp;
  uint32_t block_size = 131072;
  std::vector<std::string> flags;
  std::string Describe() const {
    std::string s = (gensquashfs ? "gensquashfs -c " : "mksquashfs -comp ") +
                    comp + " -b " + std::to_string(block_size);
    for (const auto& f : flags) s += " " + f;
    return s;
  }
};

void showValue(const Packing& p, std::ostream& os) { os << p.Describe(); }

rc::Gen<Packing> GenPacking() {
  return rc::gen::exec([] {
    Packing p;
    p.gensquashfs = *rc::gen::inRange(0, 5) == 0;
    p.comp = *rc::gen::element<std::string>("gzip", "xz", "lzo", "lz4", "zstd");
    p.block_size =
        *rc::gen::element<uint32_t>(4096, 16384, 65536, 131072, 1 << 20);
    if (!p.gensquashfs) {
      for (const char* f : {"-noI", "-noD", "-noF", "-noX", "-no-fragments",
                            "-always-use-fragments", "-no-xattrs", "-nopad"}) {
        if (*rc::gen::inRange(0, 5) == 0) p.flags.push_back(f);
      }
    }
    return p;
  });
}

std::string Pack(const Packing& p, const std::string& src,
                 const std::string& out) {
  std::string cmd;
  if (p.gensquashfs) {
    cmd = "gensquashfs -q -f -k -x -D '" + src + "' -c " + p.comp + " -b " +
          std::to_string(p.block_size) + " '" + out + "'";
  } else {
    cmd = "mksquashfs '" + src + "' '" + out + "' -quiet -no-progress -comp " +
          p.comp + " -b " + std::to_string(p.block_size);
    for (const auto& f : p.flags) cmd += " " + f;
  }
  cmd += " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? "" : "producer failed: " + cmd;
}

fs::path ScratchDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string templ = std::string(tmp ? tmp : "/tmp") + "/roundtripXXXXXX";
  if (mkdtemp(templ.data()) == nullptr) return {};
  return templ;
}

// A failing image is copied to the test's undeclared outputs (Bazel zips
// them into bazel-testlogs/.../test.outputs/outputs.zip), so that a failure
// seen once, on a loaded machine, can be looked at afterwards. Shrinking
// overwrites it: what is left is the last failing case, the one reported.
std::string KeepImage(const std::string& img) {
  const char* out = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  if (out == nullptr) return "";
  const fs::path kept = fs::path(out) / "roundtrip-failure.sqfs";
  std::error_code ec;
  fs::copy_file(img, kept, fs::copy_options::overwrite_existing, ec);
  return ec ? ""
            : " (image kept in the test's outputs as " +
                  kept.filename().string() + ")";
}

RC_GTEST_PROP(ReaderRoundTrip, ImageEqualsTheTreeItWasMadeFrom, ()) {
  const Packing packing = *GenPacking();
  const TreeModel tree = *GenTree(packing.block_size);
  const fs::path scratch = ScratchDir();
  RC_ASSERT(!scratch.empty());
  const std::string src = (scratch / "src").string(),
                    img = (scratch / "img.sqfs").string();
  std::string why;
  const bool made = Materialize(tree, src, &why);
  if (!made) RC_FAIL("could not write the tree: " + why);
  // The image must hold the tree as a peer reads it before the reader is
  // judged on it (producer_check.h).
  int repacked = 0;
  const std::string packed =
      PackCheckedByPeer([&] { return Pack(packing, src, img); }, img, src,
                        (scratch / "peer").string(), 3, &repacked);
  RC_CLASSIFY(repacked > 0,
              "the producer's image did not hold its tree: packed again");
  if (IsProducerFault(packed)) {
    fs::remove_all(scratch);
    RC_DISCARD(packing.Describe() + ": " + packed);
  }
  RC_ASSERT(packed.empty());
  auto image = Image::Open(img);
  RC_ASSERT(image.ok());
  CompareOptions opts;
  opts.expect_xattrs = std::find(packing.flags.begin(), packing.flags.end(),
                                 "-no-xattrs") == packing.flags.end();
  opts.expect_root_time = !packing.gensquashfs;
  opts.expect_hard_links = !packing.gensquashfs;
  const std::string diff = CompareImage(image->get(), tree, opts);
  const std::string kept = diff.empty() ? "" : KeepImage(img);
  fs::remove_all(scratch);
  RC_TAG(packing.comp);
  if (!diff.empty()) RC_FAIL(packing.Describe() + ": " + diff + kept);
}

}  // namespace
}  // namespace squashlab::proptests
