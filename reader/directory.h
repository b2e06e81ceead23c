// SPDX-License-Identifier: GPL-2.0-only
// This file implements reading a directory listing from the directory table:
// headers and entries, name validation, and lookups that use the directory
// index of extended directories to skip ahead in large directories.
#ifndef SQUASHLAB_READER_DIRECTORY_H_
#define SQUASHLAB_READER_DIRECTORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reader/inode.h"
#include "reader/metadata_reader.h"

namespace squashlab {

struct DirEntry {
  std::string name;
  InodeType type = InodeType::kFile;  // as the entry states it
  uint64_t inode_ref = 0;
  uint32_t inode_number = 0;
};

// True for names a directory entry may carry: not empty, not "." or "..",
// no '/' and no NUL byte.
bool IsSafeName(const std::string& name);

struct DirectoryTables {
  MetadataReader* directories;  // the directory table region
  MetadataReader* inodes;       // for the directory index
  uint32_t inode_count;
};

// Decodes every entry of directory `dir` in stored order. Rejects unsafe and
// duplicate names, out-of-range inode numbers, and headers that overrun.
StatusOr<std::vector<DirEntry>> ReadDirectory(const DirectoryTables& t,
                                              const Inode& dir);

// Finds `name` in `dir`, starting from the directory index when it has one.
// Returns kNotFound when absent.
StatusOr<DirEntry> LookupName(const DirectoryTables& t, const Inode& dir,
                              const std::string& name);

}  // namespace squashlab

#endif  // SQUASHLAB_READER_DIRECTORY_H_
