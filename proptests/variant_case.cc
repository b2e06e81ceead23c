// SPDX-License-Identifier: GPL-2.0-only
// This file implements the generation and the runs of the variants
// property's cases.
#include "proptests/variant_case.h"

#include <algorithm>
#include <cstdio>

#include "harness/explore_once.h"
#include "harness/mount.h"
#include "harness/workloads.h"
#include "testdata/expected_tree.h"

namespace squashlab::proptests {
namespace {

StatusOr<std::shared_ptr<const ImageModel>> NamedImage(
    const std::string& name) {
  static std::map<std::string, StatusOr<std::shared_ptr<const ImageModel>>>
      cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    it = cache
             .emplace(name, name == "default"
                                ? DefaultImage()
                                : LoadImage(testdata::ImagePath(name)))
             .first;
  }
  return it->second;
}

// A fault plan over hw_emul's grammar (hw_emul/fault_plan.h), without the
// silent bit flips (no reader can notice those in a codec without a
// checksum). `sectors`: the image's size in 512-byte sectors.
rc::Gen<std::string> GenDevicePlan(uint64_t sectors) {
  return rc::gen::exec([sectors] {
    std::vector<std::string> items;
    auto maybe = [] { return Uniform(0, 3) == 2; };  // shrinks to "no"
    if (maybe())
      items.push_back("eio=" + Pick<std::string>({"0.02", "0.1", "0.3"}));
    if (maybe()) {
      items.push_back("reada_drop=" + Pick<std::string>({"0.3", "1"}));
      if (maybe()) items.push_back("congest=" + Pick<std::string>({"1", "2"}));
    }
    if (maybe()) items.push_back("short=" + Pick<std::string>({"0.1", "0.5"}));
    if (maybe()) {
      items.push_back("delay=" + Pick<std::string>({"0.3", "1"}));
      if (maybe())
        items.push_back("delay_us=" + Pick<std::string>({"10", "100"}));
    }
    if (maybe()) items.push_back("reorder=" + Pick<std::string>({"0.3", "1"}));
    if (maybe() && sectors > 0) {
      const uint64_t first = Uniform<uint64_t>(0, sectors);
      const uint64_t len = Pick<uint64_t>({0, 1, 7, 64});
      items.push_back("eio@sector=" + std::to_string(first) +
                      (len ? "-" + std::to_string(first + len) : ""));
    }
    if (items.empty()) items.push_back("reorder=1");
    if (maybe()) items.push_back("seed=" + std::to_string(Uniform(1, 100)));
    std::string plan;
    for (const auto& i : items) plan += (plan.empty() ? "" : ";") + i;
    return plan;
  });
}

rc::Gen<ExtraReader> GenReader() {
  return rc::gen::exec([] {
    ExtraReader r;
    r.file = Uniform<size_t>(0, 3);
    r.random = Uniform(0, 4) == 3;
    r.bs = Pick<size_t>({4096, 512, 1000, 8192, 16384, 65536, 131072});
    r.start_permille = Uniform(0, 2) ? Uniform(0, 1000) : 0;
    r.length_pages = Pick<int>({0, 1, 2, 3, 40});
    r.ra_pages = Pick<unsigned>({32, 0, 4, 64});
    return r;
  });
}

// Spawns the generated readers beside the named workload.
void SpawnReaders(Kernel& k, SquashfsMount* m, const ImageModel& img,
                  const std::vector<ExtraReader>& readers, bool eio_allowed) {
  for (size_t i = 0; i < readers.size(); i++) {
    const ExtraReader& r = readers[i];
    const size_t f = r.file % img.files.size();
    const FileModel* oracle = &img.files[f];
    ReaderOptions o;
    o.comm = "reader" + std::to_string(i + 1);
    o.bs = r.bs;
    o.ra_pages = r.ra_pages;
    o.eio_allowed = eio_allowed;
    if (r.random) {
      spawn_random_reader(k, m->inodes[f], oracle, o, 1 + r.length_pages % 4,
                          1000 + i);
      continue;
    }
    o.start =
        oracle->content.size() * static_cast<uint64_t>(r.start_permille) / 1000;
    if (r.length_pages) o.end = o.start + uint64_t{4096} * r.length_pages;
    spawn_dd(k, m->inodes[f], oracle, o);
  }
}

}  // namespace

void showValue(const VariantCase& c, std::ostream& os) {
  ScenarioSpec s = c.spec;
  s.variant = "*";  // each run sets its own
  os << s.Name()
     << " image=" << (c.image == "generated" ? c.generated.Describe() : c.image)
     << " strategy=" << c.strategy << " seed=" << c.seed;
  for (const ExtraReader& r : c.readers) {
    os << "\n  + " << (r.random ? "random reader" : "dd") << " file#" << r.file
       << " bs=" << r.bs << " start=" << r.start_permille
       << "/1000 pages=" << r.length_pages << " ra_pages=" << r.ra_pages;
  }
}

StatusOr<std::shared_ptr<const ImageModel>> ImageOf(const VariantCase& c) {
  return c.image == "generated" ? PackImage(c.generated) : NamedImage(c.image);
}

rc::Gen<VariantCase> GenVariantCase() {
  return rc::gen::exec([] {
    VariantCase c;
    // The embedded image (8K blocks, gzip), generated images of every codec
    // and block size, and real 128K and 4K-block images from testdata/.
    c.image = Pick<std::string>({"default", "generated", "default", "generated",
                                 "tree_xz", "tree_lz4", "tree_4k_nofrag"});
    if (c.image == "generated") c.generated = *GenImageSpec();
    auto image = ImageOf(c);
    const uint64_t sectors =
        image.ok() ? (image.value()->bytes.size() + 511) / 512 : 0;
    c.spec.decomp =
        Pick<std::string>({"single", "multi", "percpu", "percpu-locallock"});
    std::vector<std::string> workloads;
    // Not mmap (6.x's MM only) nor names (real code's directory, symlink
    // and xattr operations only): a case runs every variant.
    for (const auto& [w, d] : Workloads())
      if (w != "mmap" && w != "names") workloads.push_back(w);
    c.spec.workload = Pick(workloads);
    const int nreaders = Pick<int>({0, 0, 1, 2});
    for (int i = 0; i < nreaders; i++) c.readers.push_back(*GenReader());
    if (Uniform(0, 2) == 1) {
      c.spec.device =
          Pick<std::string>(
              {"emmc-hs200", "kvm-hdb", "usb-stick", "qspi-flash", "nvme"}) +
          Pick<std::string>({"", ",bs=512", ",bs=1024", ",bs=4096"});
    }
    // SquashFS has no data checksums: a flipped bit in an lz4, lzo or
    // stored block decodes to wrong bytes no reader can notice. Only gzip
    // images (zlib's Adler-32 catches a flip) take the bitflip plan.
    std::vector<std::string> named = {"eio", "reada"};
    if (c.image == "default" ||
        (c.image == "generated" && c.generated.comp == "gzip"))
      named.push_back("bitflip");
    const int kind = Uniform(0, c.spec.device.empty() ? 4 : 6);
    if (kind >= 2) c.spec.faults = Pick(named);  // else half the cases: none
    if (kind >= 4) c.spec.faults = *GenDevicePlan(sectors);
    // A debug kernel (KASAN, poisoning) or a production one (slab reuse
    // with stale bytes): a correct read path is clean on both.
    c.spec.kernel = Pick<std::string>({"", "prod"});
    c.strategy = Pick<std::string>({"pct", "random"});
    c.seed = *rc::gen::arbitrary<uint64_t>();
    return c;
  });
}

VariantRun RunVariant(const VariantCase& c, const std::string& variant,
                      RunHooks hooks) {
  VariantRun out;
  auto image = ImageOf(c);
  if (!image.ok()) {
    out.report = "no image: " + image.status().ToString();
    return out;
  }
  ScenarioSpec spec = c.spec;
  spec.variant = variant;
  auto snap = std::make_shared<PageSnapshot>();
  std::shared_ptr<const ImageModel> img = *image;
  const std::vector<ExtraReader> readers = c.readers;
  const bool eio_allowed = ScenarioAllowsEio(spec);
  ScenarioObserver observe = [=](Kernel& k, SquashfsMount* m, BlockDevice*) {
    *snap = PageSnapshot{};
    SpawnReaders(k, m, *img, readers, eio_allowed);
    Kernel* kp = &k;
    if (hooks.corrupt_one_page)
      k.AtQuiescence([m] { CorruptOneUptodatePage(*m); });
    k.AtQuiescence(
        [kp, m, img, snap] { CheckUptodatePages(*kp, *m, *img, snap.get()); });
  };
  auto sc = MakeScenario(spec, img, observe);
  if (!sc.ok()) {
    out.report = "bad scenario: " + sc.status().ToString();
    return out;
  }
  RunResult r = ExploreOnce(*sc, c.strategy, c.seed);
  if (r.failed()) {
    out.report = variant + ": " + r.report.ToString();
  } else if (!r.completed) {
    out.report = variant + ": the run did not reach quiescence";
  }
  out.pages = std::move(*snap);
  return out;
}

Comparison ComparePages(
    const std::vector<std::pair<std::string, const PageSnapshot*>>& runs) {
  Comparison cmp;
  // The first variant holding each page, and how many hold it.
  std::map<PageKey, std::pair<const std::string*, const std::string*>> first;
  std::map<PageKey, int> holders;
  for (const auto& [variant, snap] : runs) {
    for (const auto& [key, bytes] : snap->uptodate) {
      holders[key]++;
      auto [it, fresh] = first.try_emplace(key, &variant, &bytes);
      if (fresh || *it->second.second == bytes) continue;
      const std::string& other = *it->second.second;
      const size_t at =
          std::mismatch(bytes.begin(), bytes.end(), other.begin()).first -
          bytes.begin();
      if (cmp.diff.empty()) {
        cmp.diff = variant + " differs from " + *it->second.first + ": " +
                   key.first + " page " + std::to_string(key.second) +
                   " byte " + std::to_string(at) + " holds " +
                   std::to_string(static_cast<unsigned char>(bytes[at])) +
                   ", not " +
                   std::to_string(static_cast<unsigned char>(other[at]));
      }
    }
  }
  for (const auto& [key, n] : holders) (n > 1 ? cmp.shared : cmp.unshared)++;
  return cmp;
}

}  // namespace squashlab::proptests
