#include "commands/commands.h"

#include "commands/canonicalize_command.h"
#include "commands/dedup_command.h"
#include "commands/demo_command.h"
#include "commands/fingerprint_command.h"
#include "commands/run_command.h"
#include "commands/state_command.h"

namespace pagesieve::commands {

std::vector<Command> RegisterAll(CLI::App& app) {
  std::vector<Command> commands;
  commands.push_back(RegisterCanonicalizeCommand(app));
  commands.push_back(RegisterDedupCommand(app));
  commands.push_back(RegisterDemoCommand(app));
  commands.push_back(RegisterFingerprintCommand(app));
  commands.push_back(RegisterRunCommand(app));
  commands.push_back(RegisterStateCommand(app));
  return commands;
}

}  // namespace pagesieve::commands
