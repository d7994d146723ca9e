#include "pipeline/timed_tier_stores.h"

namespace pagesieve::pipeline {
namespace {

// Runs `lookup`, observing its duration into `into`.
template <typename F>
auto Timed(const Clock& clock, metrics::Histogram* into, F&& lookup) {
  const Clock::SteadyTime start = clock.SteadyNow();
  auto result = lookup();
  metrics::ObserveDuration(*into, clock.SteadyNow() - start);
  return result;
}

}  // namespace

StatusOr<store::UrlLookup> TimedTierStores::LookupUrl(std::string_view scope, const Digest128& url,
                                                      const store::OriginFilter& filter) {
  return Timed(clock_, timers_.url, [&] { return inner_.LookupUrl(scope, url, filter); });
}

StatusOr<std::optional<store::ContentEntry>> TimedTierStores::LookupContent(
    std::string_view scope, const Digest128& content, const store::OriginFilter& filter) {
  return Timed(clock_, timers_.exact, [&] { return inner_.LookupContent(scope, content, filter); });
}

StatusOr<std::vector<store::NearCandidate>> TimedTierStores::FindNear(
    std::string_view scope, const store::NearQuery& query, const store::OriginFilter& filter) {
  return Timed(clock_, timers_.near, [&] { return inner_.FindNear(scope, query, filter); });
}

}  // namespace pagesieve::pipeline
