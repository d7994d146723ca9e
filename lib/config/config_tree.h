#pragma once

// Internal to lib/config: the toml++ representation behind Config, kept out
// of config.h so only these few files pay for toml++'s headers.

#include <set>
#include <string>
#include <string_view>
#include <toml++/toml.h>

#include "common/status_or.h"

namespace pagesieve::config_internal {

// Dotted paths of the tables that are empty in the defaults: pass-through
// tables, whose keys are not ours to check (librdkafka properties).
using PassThroughTables = std::set<std::string, std::less<>>;
PassThroughTables FindPassThroughTables(const toml::table& defaults);

// Merges `overlay` into `base`. Every key of `overlay` must exist in `base`
// with a compatible type, except inside pass-through tables, which take any
// key. `source` names the overlay in errors; `prefix` is the dotted path of
// `base` ("" at the root).
Status MergeTable(toml::table& base, const toml::table& overlay, std::string_view source,
                  const std::string& prefix, const PassThroughTables& pass_through);

// Applies one "key=value" override, converting the text to the type of the
// key's default. Below a pass-through table the rest of the key, dots and
// all, is one property name: kafka.consumer.security.protocol=SSL.
Status ApplyOverride(toml::table& root, std::string_view assignment,
                     const PassThroughTables& pass_through);

// Parses TOML text; errors carry `source`, line and column.
Status ParseToml(std::string_view text, std::string_view source, toml::table* out);

std::string_view TypeName(toml::node_type type);

}  // namespace pagesieve::config_internal
