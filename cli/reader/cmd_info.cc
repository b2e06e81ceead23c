// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab info IMG`: the superblock, the compressor
// and its options, where each table lies, and the counts.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <ctime>
#include <memory>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "reader/image.h"

namespace squashlab::cli {
namespace {

std::string Table(uint64_t start) {
  return start == kInvalidTable ? "none" : std::to_string(start);
}

std::string UtcTime(uint32_t t) {
  time_t tt = t;
  struct tm tm;
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

int RunInfo(const std::string& path) {
  auto image = Image::Open(path);
  if (!image.ok()) return Fail(path, "", image.status());
  const Superblock& sb = (*image)->superblock();
  const auto& opts = (*image)->compressor_options();
  std::printf("image            %s\n", path.c_str());
  std::printf("format           SquashFS %u.%u\n", sb.version_major,
              sb.version_minor);
  std::printf("bytes used       %llu (image file %llu)\n",
              static_cast<unsigned long long>(sb.bytes_used),
              static_cast<unsigned long long>((*image)->bytes().size()));
  std::printf("block size       %u (log %u)\n", sb.block_size, sb.block_log);
  std::printf("compressor       %s%s%s\n", CompressorName(sb.compressor),
              opts.present ? ", options: " : "", opts.description.c_str());
  std::printf("flags            %s\n", FlagNames(sb.flags).c_str());
  std::printf("modified         %s\n", UtcTime(sb.mod_time).c_str());
  std::printf("inodes           %u\n", sb.inode_count);
  std::printf("ids              %u\n", sb.id_count);
  std::printf("fragments        %u\n", sb.fragment_count);
  std::printf("root inode       block %llu offset %llu\n",
              static_cast<unsigned long long>(sb.root_inode_ref >> 16),
              static_cast<unsigned long long>(sb.root_inode_ref & 0xffff));
  std::printf("tables (byte offsets in the image):\n");
  std::printf("  data           %llu\n",
              static_cast<unsigned long long>((*image)->tables().data_start));
  std::printf("  inode table    %llu\n",
              static_cast<unsigned long long>(sb.inode_table_start));
  std::printf("  directory      %llu\n",
              static_cast<unsigned long long>(sb.directory_table_start));
  std::printf("  fragment       %s\n", Table(sb.fragment_table_start).c_str());
  std::printf("  export         %s\n", Table(sb.export_table_start).c_str());
  std::printf("  id             %s\n", Table(sb.id_table_start).c_str());
  std::printf("  xattr id       %s\n", Table(sb.xattr_id_table_start).c_str());
  return kExitOk;
}

}  // namespace

void AddInfoCommand(CLI::App* root, CommandRunner* run) {
  auto image = std::make_shared<std::string>();
  CLI::App* c = root->add_subcommand("info",
                                     "Print the superblock, the compressor and "
                                     "its options, where each table lies, "
                                     "and the counts.");
  c->add_option("IMG", *image, "the SquashFS image")->type_name("")->required();
  c->callback([image, run] { *run = [image] { return RunInfo(*image); }; });
}

}  // namespace squashlab::cli
