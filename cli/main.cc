// This file implements the `squashlab` command line: the root of the CLI11
// command tree (every command's help and options are registered by the
// Add*Command functions in cmd_*.cc), `help [COMMAND]`, `--version`, and
// how parse errors are reported.
#include <cctype>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/cli_status.h"
#include "cli/commands.h"

namespace squashlab::cli {
namespace {

constexpr const char* kVersion = "squashlab 0.9";

constexpr const char* kExitCodes =
    "Exit status of the image commands: 0 ok, 1 path not in the image, 2 usage, 3 corrupt or "
    "unsupported image, 4 host I/O error, 141 stdout closed early (cat, ls). verify and repro: "
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

const CLI::App* Deepest(const CLI::App& root) {
  const CLI::App* app = &root;
  while (!app->get_subcommands().empty()) app = app->get_subcommands().front();
  return app;
}

std::string LowerFirst(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && (s.size() < 2 || !std::isupper(s[1])))
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

void AddHelpCommand(CLI::App* root, CommandRunner* run) {
  auto topic = std::make_shared<std::string>();
  CLI::App* c = root->add_subcommand("help", "Print the help of squashlab or of one command.");
  c->add_option("COMMAND", *topic, "a command");
  c->callback([root, topic, run] {
    *run = [root, topic] {
      if (topic->empty()) {
        std::cout << root->help();
        return static_cast<int>(kExitOk);
      }
      for (const CLI::App* sub : root->get_subcommands({})) {
        if (sub->get_name() != *topic) continue;
        std::cout << sub->help();
        return static_cast<int>(kExitOk);
      }
      return UsageError("help", "no command '" + *topic + "'");
    };
  });
}

// Parses argv; returns the exit code of the command it selects, or of
// help, --version, or a usage error.
int Run(int argc, char** argv) {
  CLI::App root("squashlab: a SquashFS reader, and a model of the Linux SquashFS read path that "
                "explores its concurrency and replays the seed threads' benchmarks.",
                "squashlab");
  root.set_version_flag("--version", kVersion, "print the version and exit");
  root.footer(kExitCodes);
  root.require_subcommand(1);
  CommandRunner run;
  AddInfoCommand(&root, &run);
  AddLsCommand(&root, &run);
  AddCatCommand(&root, &run);
  AddExtractCommand(&root, &run);
  AddVerifyCommand(&root, &run);
  AddReproCommand(&root, &run);
  AddBenchCommand(&root, &run);
  AddHelpCommand(&root, &run);
  if (argc < 2) {
    std::cerr << root.help();
    return kExitUsage;
  }
  try {
    root.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << Deepest(root)->help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << Deepest(root)->help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << kVersion << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    return UsageError(CommandName(root), LowerFirst(e.what()));
  }
  return run ? run() : kExitUsage;
}

}  // namespace
}  // namespace squashlab::cli

int main(int argc, char** argv) { return squashlab::cli::Run(argc, argv); }
