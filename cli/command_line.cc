// SPDX-License-Identifier: GPL-2.0-only
// This file implements the root of the `squashlab` CLI11 command tree (every
// command's help and options are registered by its Add*Command function),
// `help [COMMAND]`, `--version`, and how parse errors are reported.
#include "cli/command_line.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <iostream>
#include <memory>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/help_formatter.h"

namespace squashlab::cli {
namespace {

constexpr const char* kVersion = "squashlab 0.9";

constexpr const char* kExitCodes =
    "Exit status of the image commands: 0 ok, 1 path not in the image, 2 "
    "usage, 3 corrupt or "
    "unsupported image, 4 host I/O error, 141 stdout closed early (cat, ls). "
    "verify and repro: "
    "see their help.";

// The command a parse error belongs to: the deepest one parsed.
std::string CommandName(const CLI::App& root) {
  std::string name;
  const CLI::App* app = &root;
  while (true) {
    auto subs = app->get_subcommands();
    if (subs.empty()) return name;
    app = subs.front();
    name += (name.empty() ? "" : " ") + app->get_name();
  }
}

Args Prepend(const std::string& command, const Args& args) {
  Args all = {command};
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

std::string LowerFirst(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' &&
      (s.size() < 2 || !std::isupper(s[1])))
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

bool IsCommand(const CLI::App& root, const std::string& name) {
  for (const CLI::App* sub : root.get_subcommands({}))
    if (sub->get_name() == name) return true;
  return false;
}

void AddHelpCommand(CLI::App* root, CommandRunner* run) {
  auto topic = std::make_shared<std::string>();
  CLI::App* c = root->add_subcommand(
      "help", "Print the help of squashlab or of one command.");
  c->add_option("COMMAND", *topic, "a command")->type_name("");
  c->callback([root, topic, run] {
    *run = [root, topic] {
      if (topic->empty()) {
        root->clear();  // else help() shows the selected command: `help` itself
        std::cout << root->help();
        return static_cast<int>(kExitOk);
      }
      for (const CLI::App* sub : root->get_subcommands({})) {
        if (sub->get_name() != *topic) continue;
        std::cout << sub->help(root->get_name());
        return static_cast<int>(kExitOk);
      }
      return UsageError("help", "no command '" + *topic + "'");
    };
  });
}

}  // namespace

int RunCommandLine(const Args& args,
                   const std::vector<AddCommandFn>& commands) {
  CLI::App root(
      "squashlab: a SquashFS reader, and a model of the Linux SquashFS read "
      "path that "
      "explores its concurrency and replays the seed threads' benchmarks.",
      "squashlab");
  root.formatter(std::make_shared<HelpFormatter>());
  root.set_version_flag("--version", kVersion, "print the version and exit");
  root.require_subcommand(1);
  CommandRunner run;
  for (AddCommandFn add : commands) add(&root, &run);
  AddHelpCommand(&root, &run);
  root.footer(kExitCodes);  // after the commands: they would inherit it
  if (args.empty()) {
    std::cerr << root.help();
    return kExitUsage;
  }
  const std::string& first = args[0];
  if (first[0] != '-' && !IsCommand(root, first))
    return UsageError("", "no command '" + first + "'");
  try {
    std::vector<std::string> reversed(args.rbegin(),
                                      args.rend());  // CLI11 takes them so
    root.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << root.help();  // the selected command's
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << root.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << kVersion << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    return UsageError(CommandName(root), LowerFirst(e.what()));
  }
  return run ? run() : kExitUsage;
}

int RunInfo(const Args& args) {
  return RunCommandLine(Prepend("info", args), {AddInfoCommand});
}
int RunLs(const Args& args) {
  return RunCommandLine(Prepend("ls", args), {AddLsCommand});
}
int RunCat(const Args& args) {
  return RunCommandLine(Prepend("cat", args), {AddCatCommand});
}

}  // namespace squashlab::cli
