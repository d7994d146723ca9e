#pragma once

#include <memory>

#include "common/clock.h"
#include "metrics/metric.h"
#include "store/shard.h"

namespace pagesieve::run {

// A shard that times its lookups into histograms (one per store) and
// otherwise forwards every call. Two steady-clock reads per lookup, on the
// thread deciding the partition. Not thread-safe, like the shard it wraps.
class TimedShard final : public store::Shard {
 public:
  struct Timers {
    metrics::Histogram* url;
    metrics::Histogram* exact;
    metrics::Histogram* near;
  };

  TimedShard(std::unique_ptr<store::Shard> inner, const Clock& clock, Timers timers)
      : inner_(std::move(inner)), clock_(clock), timers_(timers) {}

  EventTime watermark() const override { return inner_->watermark(); }
  void ObserveEventTime(EventTime t) override { inner_->ObserveEventTime(t); }

  StatusOr<store::UrlLookup> LookupUrl(std::string_view scope, const Digest128& url,
                                       const store::OriginFilter& filter) override;
  Status RecordUrl(std::string_view scope, const Digest128& url, const store::Origin& origin,
                   EventTime t, const Digest128& content) override {
    return inner_->RecordUrl(scope, url, origin, t, content);
  }

  StatusOr<std::optional<store::ContentEntry>> LookupContent(
      std::string_view scope, const Digest128& content, const store::OriginFilter& filter) override;
  Status InsertContent(std::string_view scope, const Digest128& content,
                       const store::Origin& origin) override {
    return inner_->InsertContent(scope, content, origin);
  }
  Status TouchContent(std::string_view scope, const Digest128& content, EventTime t) override {
    return inner_->TouchContent(scope, content, t);
  }

  StatusOr<std::optional<store::NearMatch>> FindNear(std::string_view scope, uint64_t simhash,
                                                     int max_distance,
                                                     const store::OriginFilter& filter) override;
  Status InsertNear(std::string_view scope, uint64_t simhash,
                    const store::Origin& origin) override {
    return inner_->InsertNear(scope, simhash, origin);
  }
  Status TouchNear(std::string_view scope, uint64_t simhash, EventTime t) override {
    return inner_->TouchNear(scope, simhash, t);
  }

  Status Checkpoint(Offset next_offset) override { return inner_->Checkpoint(next_offset); }
  std::optional<Offset> checkpointed_offset() const override {
    return inner_->checkpointed_offset();
  }
  store::ShardStats Stats() const override { return inner_->Stats(); }

  Status ForEachChange(
      Offset next_offset,
      const std::function<void(std::string_view key, std::optional<std::string_view> value)>& fn)
      override {
    return inner_->ForEachChange(next_offset, fn);
  }
  void SetChangelogNext(Offset changelog_next) override { inner_->SetChangelogNext(changelog_next); }
  std::optional<Offset> changelog_next() const override { return inner_->changelog_next(); }

 private:
  const std::unique_ptr<store::Shard> inner_;
  const Clock& clock_;
  const Timers timers_;
};

}  // namespace pagesieve::run
