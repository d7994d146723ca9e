// Reading the fingerprinting keys of the configuration.

#include <string>

#include "fingerprint/fingerprinter.h"
#include "fingerprint/shingles.h"

namespace pagesieve::fingerprint {
namespace {

Status OutOfRange(std::string_view key, std::string_view range) {
  return Status::InvalidArgument("config key '" + std::string(key) + "' must be " +
                                 std::string(range));
}

Status ReadNearOptions(const Config& config, FingerprintOptions* options) {
  PS_ASSIGN_OR_RETURN(int64_t shingle_size, config.GetInt("near.shingle_size"));
  if (shingle_size < 1 || shingle_size > kMaxShingleSize) {
    return OutOfRange("near.shingle_size", "between 1 and " + std::to_string(kMaxShingleSize));
  }
  options->shingle_size = static_cast<int>(shingle_size);
  PS_ASSIGN_OR_RETURN(int64_t min_tokens, config.GetInt("near.min_tokens"));
  if (min_tokens < 0 || min_tokens > 1'000'000) {
    return OutOfRange("near.min_tokens", "between 0 and 1000000");
  }
  options->min_tokens = static_cast<uint32_t>(min_tokens);
  PS_ASSIGN_OR_RETURN(options->heading_weight, config.GetDouble("near.heading_weight"));
  if (!(options->heading_weight >= 1.0 && options->heading_weight <= 16.0)) {
    return OutOfRange("near.heading_weight", "between 1 and 16");
  }
  return Status::Ok();
}

Status ReadMinHashOptions(const Config& config, MinHashOptions* options) {
  PS_ASSIGN_OR_RETURN(int64_t slots, config.GetInt("near.minhash_slots"));
  if (slots != 0 && (slots < MinHashSketch::kMinSlots || slots > MinHashSketch::kMaxSlots)) {
    return OutOfRange("near.minhash_slots", "0 (no sketches) or between " +
                                                std::to_string(MinHashSketch::kMinSlots) + " and " +
                                                std::to_string(MinHashSketch::kMaxSlots));
  }
  options->slots = static_cast<int>(slots);
  PS_ASSIGN_OR_RETURN(int64_t bits, config.GetInt("near.minhash_bits"));
  if (bits != 8 && bits != 16 && bits != 32) return OutOfRange("near.minhash_bits", "8, 16 or 32");
  options->bits = static_cast<int>(bits);
  PS_ASSIGN_OR_RETURN(int64_t min_shingles, config.GetInt("near.minhash_min_shingles"));
  if (min_shingles < 1 || min_shingles > 1'000'000) {
    return OutOfRange("near.minhash_min_shingles", "between 1 and 1000000");
  }
  options->min_shingles = static_cast<uint32_t>(min_shingles);
  return Status::Ok();
}

}  // namespace

StatusOr<FingerprintOptions> FingerprintOptionsFromConfig(const Config& config) {
  FingerprintOptions options;
  PS_ASSIGN_OR_RETURN(int64_t max_body_bytes, config.GetInt("max_body_bytes"));
  if (max_body_bytes < 1024 || max_body_bytes > (int64_t{1} << 30)) {
    return OutOfRange("max_body_bytes", "between 1024 and 1073741824 (1 GiB)");
  }
  options.max_body_bytes = static_cast<size_t>(max_body_bytes);
  PS_RETURN_IF_ERROR(ReadNearOptions(config, &options));
  PS_RETURN_IF_ERROR(ReadMinHashOptions(config, &options.minhash));
  PS_ASSIGN_OR_RETURN(int64_t short_text_tokens, config.GetInt("content.short_text_tokens"));
  if (short_text_tokens < 0 || short_text_tokens > 1'000'000) {
    return OutOfRange("content.short_text_tokens", "between 0 and 1000000");
  }
  options.short_text_tokens = static_cast<uint32_t>(short_text_tokens);
  PS_ASSIGN_OR_RETURN(options.extraction, content::ExtractionOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(options.normalize, content::NormalizeOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(options.url, url::CanonicalizerOptionsFromConfig(config));
  return options;
}

}  // namespace pagesieve::fingerprint
