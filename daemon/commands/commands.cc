#include "commands/commands.h"

namespace pagesieve::commands {

std::vector<Command> RegisterAll(CLI::App& app) {
  (void)app;
  return {};
}

}  // namespace pagesieve::commands
