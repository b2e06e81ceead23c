// SPDX-License-Identifier: GPL-2.0-only
// This file checks the rule of the benchmark's calibration: every number a
// simulated figure depends on is a constant of a device profile, once per
// profile, standing for one mechanism, with a source; none is keyed to a
// cell (a block size, a dd bs, a variant). Adding a per-cell constant means
// adding a name this test does not know, or one it rejects.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>

#include "bench/sim/calibration.h"

namespace squashlab {
namespace {

TEST(ProfileConstants, EachMechanismOncePerProfileWithASource) {
  std::vector<ProfileConstant> all = ProfileConstants();
  ASSERT_FALSE(all.empty());
  const auto& names = MechanismConstantNames();
  std::set<std::pair<std::string, std::string>> seen;
  std::set<std::string> profiles;
  for (const ProfileConstant& c : all) {
    profiles.insert(c.profile);
    EXPECT_TRUE(seen.insert({c.profile, c.name}).second)
        << c.profile << " has " << c.name << " twice";
    EXPECT_NE(std::find(names.begin(), names.end(), c.name), names.end())
        << c.profile << ": '" << c.name << "' is not a mechanism's constant";
    EXPECT_GT(c.source.size(), 5u) << c.profile << " " << c.name;
  }
  // Every profile carries the same set of constants: no profile has extra
  // knobs.
  for (const std::string& p : profiles) {
    size_t n =
        std::count_if(all.begin(), all.end(),
                      [&](const ProfileConstant& c) { return c.profile == p; });
    EXPECT_EQ(n, names.size()) << p;
  }
  EXPECT_TRUE(profiles.count("kvm-hdb"));
  EXPECT_TRUE(profiles.count("emmc-hs200"));
  EXPECT_TRUE(profiles.count("emmc-nexus4"));
}

TEST(ProfileConstants, NoNameIsKeyedToACell) {
  // A size ("256K", "128k"), a dd bs, a block size, a variant or a cell.
  const std::regex cell(
      "([0-9]+[kKmM])|(^|_)(bs|dd|block|blocks|cell|async|sync|variant)(_|$)");
  for (const std::string& name : MechanismConstantNames())
    EXPECT_FALSE(std::regex_search(name, cell)) << name;
  for (const ProfileConstant& c : ProfileConstants())
    EXPECT_FALSE(std::regex_search(c.name, cell)) << c.profile << " " << c.name;
}

TEST(ProfileConstants, CalibratedOnesNameTheirFigure) {
  for (const ProfileConstant& c : ProfileConstants()) {
    bool fitted = c.source.rfind("fit", 0) == 0;
    bool derived = c.source.rfind("derived", 0) == 0;
    if (fitted || derived) {
      EXPECT_NE(c.source.find("seed"), std::string::npos)
          << c.profile << " " << c.name << ": " << c.source;
    }
  }
}

}  // namespace
}  // namespace squashlab
