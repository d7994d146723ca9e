// The pagesieve executable: a thin layer of subcommands over lib/.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command.h"
#include "commands/commands.h"
#include "version.h"

int main(int argc, char** argv) {
  using namespace pagesieve;
  CLI::App app{"pagesieve: removes duplicate pages from a web crawl as it happens"};
  app.name("pagesieve");
  app.set_version_flag("--version", std::string(kVersionString));
  app.require_subcommand(0, 1);

  cli::ConfigFlags& config_flags = cli::ConfigFlags::Global();
  bool print_config = false;
  app.add_flag("--print-config", print_config,
               "Print the merged configuration (defaults, --config, --set) and exit");
  config_flags.AddTo(app);

  std::vector<commands::Command> subcommands = commands::RegisterAll(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? cli::kExitOk : cli::kExitUsage;
  }

  for (const commands::Command& command : subcommands) {
    if (command.app->parsed()) return command.run();
  }
  if (print_config) {
    StatusOr<Config> config = config_flags.Load();
    if (!config.ok()) {
      cli::PrintError(config.status());
      return cli::kExitUsage;
    }
    std::fputs(config->ToToml().c_str(), stdout);
    return cli::kExitOk;
  }
  std::fputs(app.help().c_str(), stdout);
  return cli::kExitOk;
}
