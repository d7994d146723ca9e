#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace pagesieve::commands {

// A subcommand: its CLI11 parser and what to run when it was chosen. `run`
// returns the process exit code (see cli/command.h).
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Adds every subcommand to `app`. One file per subcommand in this folder;
// each exposes a Register<Name>Command(CLI::App&) listed in commands.cc.
std::vector<Command> RegisterAll(CLI::App& app);

}  // namespace pagesieve::commands
