// SPDX-License-Identifier: GPL-2.0-only
// This file implements the help layout: CLI11's sections, with text wrapped
// so that `squashlab CMD --help` reads in an 80-column terminal.
#include "cli/help_formatter.h"

#include <algorithm>
#include <sstream>

namespace squashlab::cli {
namespace {

constexpr size_t kWidth = 80;
constexpr size_t kColumn = 30;  // where option descriptions start

}  // namespace

std::string WrapText(const std::string& text, size_t width) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  bool first_line = true;
  while (std::getline(lines, line)) {
    if (!first_line) out += "\n";
    first_line = false;
    // A line's own indent is kept, and continues on its wrapped lines.
    const size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::string pad(indent, ' ');
    const std::string hang =
        indent > 0 ? "  " : "";  // an indented item's own lines
    std::istringstream words(line.substr(indent));
    std::string word;
    size_t col = 0;
    while (words >> word) {
      if (col > 0 && col + 1 + word.size() > width) {
        out += "\n" + pad + hang;
        col = indent + hang.size();
      } else if (col > 0) {
        out += " ";
        col++;
      } else {
        out += pad;
        col = indent;
      }
      out += word;
      col += word.size();
    }
  }
  return out;
}

HelpFormatter::HelpFormatter() { column_width(kColumn); }

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string desc = app->get_description();
  return desc.empty() ? "" : WrapText(desc, kWidth) + "\n";
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string footer = app->get_footer();
  return footer.empty() ? "" : WrapText(footer, kWidth) + "\n";
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  std::stringstream out;
  CLI::detail::format_help(out, sub->get_display_name(true),
                           WrapText(sub->get_description(), kWidth - kColumn),
                           kColumn);
  return out.str();
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  return WrapText(CLI::Formatter::make_option_desc(opt), kWidth - kColumn);
}

}  // namespace squashlab::cli
