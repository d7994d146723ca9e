#include <charconv>
#include <cstdlib>
#include <sstream>

#include "config/config_tree.h"

namespace pagesieve::config_internal {
namespace {

std::string Join(const std::string& prefix, std::string_view key) {
  return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
}

void CollectPassThrough(const toml::table& t, const std::string& prefix,
                        PassThroughTables* out) {
  for (auto&& [k, v] : t) {
    if (!v.is_table()) continue;
    const std::string path = Join(prefix, k.str());
    if (v.as_table()->empty()) out->insert(path);
    CollectPassThrough(*v.as_table(), path, out);
  }
}

// An integer may stand where a float is expected; otherwise types must match.
// Arrays must hold what the default's elements hold (an empty default array
// takes anything; the module reading it validates the elements).
Status CheckCompatible(const toml::node& def, const toml::node& value, const std::string& key,
                       std::string_view source) {
  auto bad = [&](std::string_view wanted) {
    return Status::InvalidArgument(std::string(source) + ": key '" + key + "' must be " +
                                   std::string(wanted) + ", not " +
                                   std::string(TypeName(value.type())));
  };
  if (def.type() == toml::node_type::floating_point && value.is_integer()) return Status::Ok();
  if (def.type() != value.type()) return bad(TypeName(def.type()));
  if (def.is_array() && !def.as_array()->empty()) {
    const toml::node_type elem = def.as_array()->front().type();
    for (const toml::node& item : *value.as_array()) {
      if (item.type() != elem) return bad(std::string("an array of ") + std::string(TypeName(elem)));
    }
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<toml::node>> ConvertScalar(std::string_view text, toml::node_type type,
                                                    const std::string& key) {
  auto bad = [&](std::string_view wanted) -> Status {
    return Status::InvalidArgument("--set " + key + "=" + std::string(text) + ": expected " +
                                   std::string(wanted));
  };
  switch (type) {
    case toml::node_type::string:
      return std::unique_ptr<toml::node>(new toml::value<std::string>(std::string(text)));
    case toml::node_type::integer: {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size()) return bad("an integer");
      return std::unique_ptr<toml::node>(new toml::value<int64_t>(v));
    }
    case toml::node_type::floating_point: {
      std::string s(text);
      char* end = nullptr;
      double v = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size()) return bad("a number");
      return std::unique_ptr<toml::node>(new toml::value<double>(v));
    }
    case toml::node_type::boolean:
      if (text == "true") return std::unique_ptr<toml::node>(new toml::value<bool>(true));
      if (text == "false") return std::unique_ptr<toml::node>(new toml::value<bool>(false));
      return bad("true or false");
    default:
      return bad("a value of a type --set cannot write; use a config file");
  }
}

// "200,203" or "[200, 203]" for an array-valued key.
StatusOr<toml::array> ConvertArray(std::string_view text, const toml::array& def,
                                   const std::string& key) {
  if (!text.empty() && text.front() == '[') {
    toml::table parsed;
    PS_RETURN_IF_ERROR(ParseToml("v = " + std::string(text), "--set " + key, &parsed));
    if (!parsed["v"].is_array()) return Status::InvalidArgument("--set " + key + ": not an array");
    return *parsed["v"].as_array();
  }
  toml::node_type elem = def.empty() ? toml::node_type::string : def.front().type();
  toml::array out;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos
                                                                                : comma - start);
    PS_ASSIGN_OR_RETURN(auto node, ConvertScalar(item, elem, key));
    out.push_back(*node);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

PassThroughTables FindPassThroughTables(const toml::table& defaults) {
  PassThroughTables out;
  CollectPassThrough(defaults, "", &out);
  return out;
}

std::string_view TypeName(toml::node_type type) {
  switch (type) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

Status ParseToml(std::string_view text, std::string_view source, toml::table* out) {
  try {
    *out = toml::parse(text, source);
    return Status::Ok();
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << source << ": line " << e.source().begin.line << ", column " << e.source().begin.column
        << ": " << e.description();
    return Status::InvalidArgument(msg.str());
  }
}

Status MergeTable(toml::table& base, const toml::table& overlay, std::string_view source,
                  const std::string& prefix, const PassThroughTables& pass_through_tables) {
  const bool pass_through = pass_through_tables.contains(prefix);
  for (auto&& [k, value] : overlay) {
    const std::string key = Join(prefix, k.str());
    toml::node* def = base.get(k.str());
    if (def == nullptr) {
      if (pass_through) {
        base.insert_or_assign(k.str(), value);
        continue;
      }
      return Status::InvalidArgument(std::string(source) + ": unknown key '" + key +
                                     "' (config/pagesieve.toml lists every key; "
                                     "`pagesieve --print-config` shows the merged result)");
    }
    if (def->is_table() && value.is_table()) {
      PS_RETURN_IF_ERROR(
          MergeTable(*def->as_table(), *value.as_table(), source, key, pass_through_tables));
      continue;
    }
    PS_RETURN_IF_ERROR(CheckCompatible(*def, value, key, source));
    base.insert_or_assign(k.str(), value);
  }
  return Status::Ok();
}

Status ApplyOverride(toml::table& root, std::string_view assignment,
                     const PassThroughTables& pass_through) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return Status::InvalidArgument("--set '" + std::string(assignment) +
                                   "': expected key=value, e.g. --set url.ttl=3d");
  }
  const std::string key(assignment.substr(0, eq));
  const std::string_view text = assignment.substr(eq + 1);

  // Walk to the parent table, then to the key's default.
  toml::table* parent = &root;
  size_t start = 0;
  for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1) {
    if (start > 0 && pass_through.contains(std::string_view(key).substr(0, start - 1))) break;
    toml::node* next = parent->get(std::string_view(key).substr(start, dot - start));
    if (next == nullptr || !next->is_table()) {
      return Status::InvalidArgument("--set: unknown key '" + key + "'");
    }
    parent = next->as_table();
  }
  const std::string leaf = key.substr(start);
  if (start > 0 && pass_through.contains(std::string_view(key).substr(0, start - 1))) {
    parent->insert_or_assign(leaf, std::string(text));
    return Status::Ok();
  }
  toml::node* def = parent->get(leaf);
  if (def == nullptr) return Status::InvalidArgument("--set: unknown key '" + key + "'");
  if (def->is_table()) {
    return Status::InvalidArgument("--set: '" + key + "' is a table; set one of its keys");
  }
  if (def->is_array()) {
    PS_ASSIGN_OR_RETURN(toml::array array, ConvertArray(text, *def->as_array(), key));
    PS_RETURN_IF_ERROR(CheckCompatible(*def, array, key, "--set"));
    parent->insert_or_assign(leaf, std::move(array));
    return Status::Ok();
  }
  PS_ASSIGN_OR_RETURN(auto node, ConvertScalar(text, def->type(), key));
  parent->insert_or_assign(leaf, *node);
  return Status::Ok();
}

}  // namespace pagesieve::config_internal
