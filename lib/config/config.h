#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve {

// The merged configuration of one process, read by dotted keys ("url.ttl").
//
// It is built in layers: the documented defaults (config/pagesieve.toml,
// embedded in the binary, so the file people read is the file the code
// uses), then an optional TOML file, then `--set key=value` overrides. A key
// that the defaults do not define is rejected by name, and a value must have
// the type of its default, so typos fail at start-up instead of being
// silently ignored. Tables listed as open (kafka.consumer, kafka.producer)
// accept any key: they are passed through to librdkafka.
//
// Immutable once built; safe to read from several threads.
class Config {
 public:
  // The built-in defaults alone.
  static StatusOr<Config> Defaults();
  // Defaults, then the TOML file at `path` (if any), then `overrides`
  // ("key=value" each, applied in order).
  static StatusOr<Config> Load(const std::optional<std::string>& path,
                               const std::vector<std::string>& overrides);
  // Defaults, then TOML `text` (named `source_name` in errors), then overrides.
  static StatusOr<Config> FromToml(std::string_view text, std::string_view source_name,
                                   const std::vector<std::string>& overrides = {});
  // The layering itself, over any defaults: used by the functions above and
  // by tests that need defaults of their own.
  static StatusOr<Config> Layered(std::string_view defaults_toml, std::string_view text,
                                  std::string_view source_name,
                                  const std::vector<std::string>& overrides);

  StatusOr<std::string> GetString(std::string_view key) const;
  StatusOr<int64_t> GetInt(std::string_view key) const;
  StatusOr<double> GetDouble(std::string_view key) const;  // an integer is accepted
  StatusOr<bool> GetBool(std::string_view key) const;
  // A string in duration syntax (see common/duration.h).
  StatusOr<Duration> GetDuration(std::string_view key) const;
  StatusOr<std::vector<std::string>> GetStringList(std::string_view key) const;
  StatusOr<std::vector<int64_t>> GetIntList(std::string_view key) const;
  // The entries of a table, every value rendered as a string (booleans as
  // true/false, numbers in decimal): for pass-through property tables.
  StatusOr<std::vector<std::pair<std::string, std::string>>> GetStringMap(
      std::string_view key) const;
  // An array of tables (for example near.overrides), each as its own Config
  // whose keys are relative to the element.
  StatusOr<std::vector<Config>> GetTableList(std::string_view key) const;

  // The whole merged configuration as TOML, for `--print-config`.
  std::string ToToml() const;

  // The embedded default configuration text.
  static std::string_view DefaultToml();

  ~Config();
  Config(const Config&);
  Config& operator=(const Config&);
  Config(Config&&) noexcept;
  Config& operator=(Config&&) noexcept;

 private:
  struct Impl;
  explicit Config(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pagesieve
