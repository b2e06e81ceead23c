// SPDX-License-Identifier: GPL-2.0-only
// This file implements tests of the readahead window arithmetic against
// the values 3.13's mm/readahead.c produces for a 128K (32-page) window.
#include "model/mm/readahead.h"

#include <gtest/gtest.h>

namespace squashlab {
namespace {

TEST(Readahead, InitialWindowFromTheRequest) {
  EXPECT_EQ(get_init_ra_size(1, 32), 4u);    // <= max/32: x4
  EXPECT_EQ(get_init_ra_size(4, 32), 8u);    // <= max/4: x2
  EXPECT_EQ(get_init_ra_size(16, 32), 32u);  // else max
  EXPECT_EQ(get_init_ra_size(3, 32), 8u);    // rounded up to a power of two
}

TEST(Readahead, RampUp) {
  file_ra_state ra;
  ra.size = 1;
  EXPECT_EQ(get_next_ra_size(&ra, 32), 4u);  // < max/16: x4
  ra.size = 4;
  EXPECT_EQ(get_next_ra_size(&ra, 32), 8u);  // else x2
  ra.size = 32;
  EXPECT_EQ(get_next_ra_size(&ra, 32), 32u);  // capped
}

}  // namespace
}  // namespace squashlab
