// SPDX-License-Identifier: GPL-2.0-only
#include "reader/status.h"

#include <gtest/gtest.h>

namespace squashlab {
namespace {

StatusOr<int> Half(int x) {
  if (x % 2) return Status::InvalidArgument("odd");
  return x / 2;
}

Status Quarter(int x, int* out) {
  SQL_ASSIGN_OR_RETURN(int h, Half(x));
  SQL_ASSIGN_OR_RETURN(*out, Half(h));
  return Status::Ok();
}

TEST(StatusTest, OkAndErrorsCarryCodeAndMessage) {
  EXPECT_TRUE(Status::Ok().ok());
  Status s = Status::Corruption("bad magic").WithContext("img");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.ToString(), "corruption: img: bad magic");
}

TEST(StatusTest, AssignOrReturnPropagates) {
  int q = 0;
  EXPECT_TRUE(Quarter(8, &q).ok());
  EXPECT_EQ(q, 2);
  Status s = Quarter(6, &q);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace squashlab
