// SPDX-License-Identifier: GPL-2.0-only
// This file implements the long listing line of `squashlab ls -l`, in the
// layout of `unsquashfs -lls` so the two can be compared line by line —
// except device numbers, which are decoded as the kernel decodes them.
#ifndef SQUASHLAB_CLI_READER_LONG_LISTING_H_
#define SQUASHLAB_CLI_READER_LONG_LISTING_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "reader/inode.h"

namespace squashlab::cli {

// "drwxr-xr-x", with s/S/t/T for the setuid, setgid and sticky bits.
std::string ModeString(mode_t mode);

// User or group name from the host's databases, else the number.
std::string UserName(uint32_t uid);
std::string GroupName(uint32_t gid);

struct LongListingFields {
  mode_t mode = 0;
  std::string user;
  std::string group;
  uint64_t size = 0;
  uint32_t rdev_major = 0;
  uint32_t rdev_minor = 0;
  int64_t mtime = 0;
  std::string path;
  std::string symlink_target;
};

// One line, without the trailing newline.
std::string FormatLongListing(const LongListingFields& f);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_READER_LONG_LISTING_H_
