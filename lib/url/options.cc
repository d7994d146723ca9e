// Reading the canonicalization keys of the [url] section.

#include <string>

#include "url/canonicalizer.h"

namespace pagesieve::url {
namespace {

constexpr int64_t kMinLength = 32;
constexpr int64_t kMaxLength = int64_t{1} << 20;
constexpr size_t kMaxPatternLength = 256;

Status BadPattern(const std::string& pattern, std::string_view why) {
  return Status::InvalidArgument("config key 'url.strip_params': pattern '" + pattern + "' " +
                                 std::string(why));
}

// Patterns are matched against normalized names, which hold only printable
// ASCII, so anything else could never match and is a mistake.
Status ValidatePattern(const std::string& pattern) {
  if (pattern.empty()) return BadPattern(pattern, "is empty");
  if (pattern.size() > kMaxPatternLength) return BadPattern(pattern, "is longer than 256 bytes");
  for (char c : pattern) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || c == '&' || c == '=' || c == ';' || c == '#') {
      return BadPattern(pattern, "may only hold printable ASCII other than & = ; #");
    }
  }
  return Status::Ok();
}

}  // namespace

std::vector<std::string> DefaultStripParams() {
  return {"utm_*",   "gclid",      "gclsrc",    "dclid",     "gbraid",       "wbraid",
          "fbclid",  "msclkid",    "yclid",     "twclid",    "ttclid",       "igshid",
          "mc_cid",  "mc_eid",     "_ga",       "_gl",       "_hsenc",       "_hsmi",
          "mkt_tok", "jsessionid", "phpsessid", "sessionid", "aspsessionid*"};
}

StatusOr<CanonicalizerOptions> CanonicalizerOptionsFromConfig(const Config& config) {
  CanonicalizerOptions options;
  PS_ASSIGN_OR_RETURN(const int64_t max_length, config.GetInt("url.max_length"));
  if (max_length < kMinLength || max_length > kMaxLength) {
    return Status::InvalidArgument("config key 'url.max_length' must be between 32 and 1048576");
  }
  options.max_length = static_cast<size_t>(max_length);
  PS_ASSIGN_OR_RETURN(options.strip_params, config.GetStringList("url.strip_params"));
  for (const std::string& pattern : options.strip_params) {
    PS_RETURN_IF_ERROR(ValidatePattern(pattern));
  }
  PS_ASSIGN_OR_RETURN(options.sort_query, config.GetBool("url.sort_query"));
  PS_ASSIGN_OR_RETURN(options.strip_www, config.GetBool("url.strip_www"));
  PS_ASSIGN_OR_RETURN(options.strip_index, config.GetBool("url.strip_index"));
  PS_ASSIGN_OR_RETURN(options.strip_trailing_slash, config.GetBool("url.strip_trailing_slash"));
  PS_ASSIGN_OR_RETURN(options.fold_scheme, config.GetBool("url.fold_scheme"));
  return options;
}

}  // namespace pagesieve::url
