// Reading the [content] section of the configuration.

#include <string>

#include "content/content.h"

namespace pagesieve::content {
namespace {

Status OutOfRange(std::string_view key, std::string_view range) {
  return Status::InvalidArgument("config key '" + std::string(key) + "' must be " +
                                 std::string(range));
}

}  // namespace

StatusOr<ExtractionOptions> ExtractionOptionsFromConfig(const Config& config) {
  ExtractionOptions options;
  PS_ASSIGN_OR_RETURN(options.link_density_max, config.GetDouble("content.link_density_max"));
  if (!(options.link_density_max > 0.0 && options.link_density_max <= 1.0)) {
    return OutOfRange("content.link_density_max", "in (0, 1]");
  }
  PS_ASSIGN_OR_RETURN(int64_t min_chars, config.GetInt("content.min_paragraph_chars"));
  if (min_chars < 0 || min_chars > 10000) {
    return OutOfRange("content.min_paragraph_chars", "between 0 and 10000");
  }
  options.min_paragraph_chars = static_cast<int>(min_chars);
  PS_ASSIGN_OR_RETURN(int64_t max_depth, config.GetInt("content.max_depth"));
  if (max_depth < 8 || max_depth > 4096) {
    return OutOfRange("content.max_depth", "between 8 and 4096");
  }
  options.max_depth = static_cast<int>(max_depth);
  PS_ASSIGN_OR_RETURN(options.include_siblings, config.GetBool("content.include_siblings"));
  return options;
}

StatusOr<NormalizeOptions> NormalizeOptionsFromConfig(const Config& config) {
  NormalizeOptions options;
  PS_ASSIGN_OR_RETURN(options.mask_numbers, config.GetBool("content.mask_numbers"));
  return options;
}

}  // namespace pagesieve::content
