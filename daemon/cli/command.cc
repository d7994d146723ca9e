#include "cli/command.h"

#include <cstdio>

namespace pagesieve::cli {

void ConfigFlags::AddTo(CLI::App& app) {
  app.add_option("--config", file, "TOML configuration file (defaults: config/pagesieve.toml)");
  app.add_option("--set", overrides, "Override one configuration key: --set url.ttl=3d")
      ->take_all();
}

ConfigFlags& ConfigFlags::Global() {
  static ConfigFlags global;
  return global;
}

StatusOr<Config> ConfigFlags::Load() const {
  const ConfigFlags& global = Global();
  if (this == &global) return Config::Load(file, overrides);
  std::vector<std::string> all = global.overrides;
  all.insert(all.end(), overrides.begin(), overrides.end());
  return Config::Load(file ? file : global.file, all);
}

void PrintError(const Status& status) {
  std::fprintf(stderr, "pagesieve: %s\n", status.message().c_str());
}

}  // namespace pagesieve::cli
