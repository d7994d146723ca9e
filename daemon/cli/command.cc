#include "cli/command.h"

#include <cstdio>

namespace pagesieve::cli {

void ConfigFlags::AddTo(CLI::App& app) {
  app.add_option("--config", file, "TOML configuration file (defaults: config/pagesieve.toml)");
  app.add_option("--set", overrides, "Override one configuration key: --set url.ttl=3d")
      ->take_all();
}

StatusOr<Config> ConfigFlags::Load() const { return Config::Load(file, overrides); }

void PrintError(const Status& status) {
  std::fprintf(stderr, "pagesieve: %s\n", status.message().c_str());
}

}  // namespace pagesieve::cli
