#include "config/config.h"

#include <fstream>
#include <sstream>

#include "common/duration.h"
#include "config/config_tree.h"

namespace pagesieve {

using config_internal::ParseToml;
using config_internal::TypeName;

struct Config::Impl {
  toml::table root;
};

namespace {

Status WrongType(std::string_view key, std::string_view wanted, const toml::node& node) {
  return Status::InvalidArgument("config key '" + std::string(key) + "' must be " +
                                 std::string(wanted) + ", not " +
                                 std::string(TypeName(node.type())));
}

std::string RenderScalar(const toml::node& node) {
  // Dispatch on the type: toml++'s value<T>() converts between types.
  if (node.is_string()) return *node.value<std::string>();
  if (node.is_boolean()) return *node.value<bool>() ? "true" : "false";
  if (node.is_integer()) return std::to_string(*node.value<int64_t>());
  if (node.is_floating_point()) {
    std::ostringstream out;
    out << *node.value<double>();
    return out.str();
  }
  return std::string(TypeName(node.type()));  // dates: not used by pass-through tables
}

}  // namespace

Config::Config(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Config::~Config() = default;
Config::Config(const Config& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
Config& Config::operator=(const Config& other) {
  if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
  return *this;
}
Config::Config(Config&&) noexcept = default;
Config& Config::operator=(Config&&) noexcept = default;

StatusOr<Config> Config::Defaults() { return Layered(DefaultToml(), "", "", {}); }

StatusOr<Config> Config::FromToml(std::string_view text, std::string_view source_name,
                                  const std::vector<std::string>& overrides) {
  return Layered(DefaultToml(), text, source_name, overrides);
}

StatusOr<Config> Config::Layered(std::string_view defaults_toml, std::string_view text,
                                 std::string_view source_name,
                                 const std::vector<std::string>& overrides) {
  auto impl = std::make_unique<Impl>();
  PS_RETURN_IF_ERROR(ParseToml(defaults_toml, "built-in defaults", &impl->root));
  const auto pass_through = config_internal::FindPassThroughTables(impl->root);
  Config config(std::move(impl));
  toml::table overlay;
  PS_RETURN_IF_ERROR(ParseToml(text, source_name, &overlay));
  PS_RETURN_IF_ERROR(
      config_internal::MergeTable(config.impl_->root, overlay, source_name, "", pass_through));
  for (const std::string& assignment : overrides) {
    PS_RETURN_IF_ERROR(
        config_internal::ApplyOverride(config.impl_->root, assignment, pass_through));
  }
  return config;
}

StatusOr<Config> Config::Load(const std::optional<std::string>& path,
                              const std::vector<std::string>& overrides) {
  if (!path) return FromToml("", "built-in defaults", overrides);
  std::ifstream in(*path, std::ios::binary);
  if (!in) return Status::InvalidArgument("cannot read config file '" + *path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return FromToml(text.str(), "config file " + *path, overrides);
}

namespace {

StatusOr<const toml::node*> Find(const toml::table& root, std::string_view key) {
  const toml::node* node = root.at_path(key).node();
  if (node == nullptr) {
    return Status::NotFound("config key '" + std::string(key) + "' is not defined");
  }
  return node;
}

}  // namespace

StatusOr<std::string> Config::GetString(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_string()) return WrongType(key, "a string", *node);
  return *node->value<std::string>();
}

StatusOr<int64_t> Config::GetInt(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_integer()) return WrongType(key, "an integer", *node);
  return *node->value<int64_t>();
}

StatusOr<double> Config::GetDouble(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_number()) return WrongType(key, "a number", *node);
  return *node->value<double>();
}

StatusOr<bool> Config::GetBool(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_boolean()) return WrongType(key, "a boolean", *node);
  return *node->value<bool>();
}

StatusOr<Duration> Config::GetDuration(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(std::string text, GetString(key));
  StatusOr<Duration> d = ParseDuration(text);
  if (!d.ok()) return d.status().WithContext("config key '" + std::string(key) + "'");
  return d;
}

StatusOr<std::vector<std::string>> Config::GetStringList(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_array()) return WrongType(key, "an array of strings", *node);
  std::vector<std::string> out;
  for (const toml::node& item : *node->as_array()) {
    if (!item.is_string()) return WrongType(key, "an array of strings", item);
    out.push_back(*item.value<std::string>());
  }
  return out;
}

StatusOr<std::vector<int64_t>> Config::GetIntList(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_array()) return WrongType(key, "an array of integers", *node);
  std::vector<int64_t> out;
  for (const toml::node& item : *node->as_array()) {
    if (!item.is_integer()) return WrongType(key, "an array of integers", item);
    out.push_back(*item.value<int64_t>());
  }
  return out;
}

StatusOr<std::vector<std::pair<std::string, std::string>>> Config::GetStringMap(
    std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_table()) return WrongType(key, "a table", *node);
  std::vector<std::pair<std::string, std::string>> out;
  for (auto&& [k, v] : *node->as_table()) {
    if (v.is_table() || v.is_array()) {
      return WrongType(std::string(key) + "." + std::string(k.str()), "a single value", v);
    }
    out.emplace_back(std::string(k.str()), RenderScalar(v));
  }
  return out;
}

StatusOr<std::vector<Config>> Config::GetTableList(std::string_view key) const {
  PS_ASSIGN_OR_RETURN(const toml::node* node, Find(impl_->root, key));
  if (!node->is_array()) return WrongType(key, "an array of tables", *node);
  std::vector<Config> out;
  for (const toml::node& item : *node->as_array()) {
    if (!item.is_table()) return WrongType(key, "an array of tables", item);
    auto impl = std::make_unique<Impl>();
    impl->root = *item.as_table();
    out.push_back(Config(std::move(impl)));
  }
  return out;
}

std::string Config::ToToml() const {
  std::ostringstream out;
  out << impl_->root << "\n";
  return out.str();
}

}  // namespace pagesieve
