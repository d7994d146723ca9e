#include "state/state_settings.h"

#include "store/shard_options.h"

namespace pagesieve::state {

StatusOr<StateSettings> LoadStateSettings(const StateFlags& flags) {
  PS_ASSIGN_OR_RETURN(Config config, flags.config.Load());
  StateSettings settings;
  PS_ASSIGN_OR_RETURN(settings.sieve, engine::EngineOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(store::StateEnvOptions env, store::StateEnvOptionsFromConfig(config));
  settings.state_dir = flags.state_dir ? *flags.state_dir : env.dir;
  if (settings.state_dir.empty()) return Status::InvalidArgument("--state-dir is empty");
  return settings;
}

}  // namespace pagesieve::state
