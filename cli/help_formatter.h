// SPDX-License-Identifier: GPL-2.0-only
// This file declares the help layout of the `squashlab` command line: CLI11's
// own, with descriptions, footers and option texts wrapped to 80 columns.
#ifndef SQUASHLAB_CLI_HELP_FORMATTER_H_
#define SQUASHLAB_CLI_HELP_FORMATTER_H_

#include <CLI/CLI.hpp>
#include <string>

namespace squashlab::cli {

// Breaks `text` into lines of at most `width` characters at spaces (words
// longer than that stay whole); existing newlines are kept.
std::string WrapText(const std::string& text, size_t width);

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
};

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_HELP_FORMATTER_H_
