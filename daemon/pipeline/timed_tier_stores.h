#pragma once

#include "common/clock.h"
#include "metrics/metric.h"
#include "store/tier_stores.h"

namespace pagesieve::pipeline {

// Tier stores that time their lookups into histograms (one per store) and
// otherwise forward every call to the stores they wrap. Two steady-clock
// reads per lookup, on the thread deciding the partition. Not thread-safe,
// like the stores it wraps, which must outlive it.
class TimedTierStores final : public store::TierStores {
 public:
  struct Timers {
    metrics::Histogram* url;
    metrics::Histogram* exact;
    metrics::Histogram* near;
  };

  TimedTierStores(store::TierStores& inner, const Clock& clock, Timers timers)
      : inner_(inner), clock_(clock), timers_(timers) {}

  EventTime watermark() const override { return inner_.watermark(); }
  void ObserveEventTime(EventTime t) override { inner_.ObserveEventTime(t); }
  void SetReadPoint(std::optional<EventTime> t) override { inner_.SetReadPoint(t); }

  StatusOr<store::UrlLookup> LookupUrl(std::string_view scope, const Digest128& url,
                                       const store::OriginFilter& filter) override;
  Status RecordUrl(std::string_view scope, const Digest128& url, const store::Origin& origin,
                   EventTime t, const Digest128& content) override {
    return inner_.RecordUrl(scope, url, origin, t, content);
  }

  StatusOr<std::optional<store::ContentEntry>> LookupContent(
      std::string_view scope, const Digest128& content, const store::OriginFilter& filter) override;
  Status InsertContent(std::string_view scope, const Digest128& content,
                       const store::Origin& origin) override {
    return inner_.InsertContent(scope, content, origin);
  }
  Status TouchContent(std::string_view scope, const Digest128& content, EventTime t) override {
    return inner_.TouchContent(scope, content, t);
  }

  StatusOr<std::vector<store::NearCandidate>> FindNear(std::string_view scope,
                                                       const store::NearQuery& query,
                                                       const store::OriginFilter& filter) override;
  Status InsertNear(std::string_view scope, uint64_t simhash, std::string_view sketch,
                    const store::Origin& origin) override {
    return inner_.InsertNear(scope, simhash, sketch, origin);
  }
  Status TouchNear(std::string_view scope, uint64_t simhash, EventTime t) override {
    return inner_.TouchNear(scope, simhash, t);
  }

 private:
  store::TierStores& inner_;
  const Clock& clock_;
  const Timers timers_;
};

}  // namespace pagesieve::pipeline
