#include "store/bloom/bloom_options.h"

#include <bit>
#include <string>

namespace pagesieve::store {
namespace {

Status Bad(std::string_view field, std::string_view what) {
  return Status::InvalidArgument("bloom option " + std::string(field) + " " + std::string(what));
}

}  // namespace

Status ValidateBloomOptions(const BloomOptions& o) {
  if (o.expected_items < 1 || o.expected_items > kMaxBloomExpectedItems) {
    return Bad("expected_items",
               "must be between 1 and 2^40, not " + std::to_string(o.expected_items));
  }
  // Written so that NaN fails too.
  if (!(o.false_positive_rate >= kMinBloomFalsePositiveRate &&
        o.false_positive_rate <= kMaxBloomFalsePositiveRate)) {
    return Bad("false_positive_rate", "must be between 1e-6 and 0.5");
  }
  if (o.generations < 1 || o.generations > kMaxBloomGenerations) {
    return Bad("generations", "must be between 1 and 64, not " + std::to_string(o.generations));
  }
  // A generation is at least one millisecond wide.
  if (o.ttl.count() < o.generations || o.ttl > kMaxBloomTtl) {
    return Bad("ttl", "must be at least `generations` milliseconds and at most 100 years");
  }
  if (o.page_bytes < kMinBloomPageBytes || o.page_bytes > kMaxBloomPageBytes ||
      !std::has_single_bit(o.page_bytes)) {
    return Bad("page_bytes", "must be a power of two between 64 and 1048576, not " +
                                 std::to_string(o.page_bytes));
  }
  return Status::Ok();
}

}  // namespace pagesieve::store
