#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/tier_stores.h"

namespace pagesieve::routing {

// The stores a content owner decides a record on (engine::Decider::
// DecideContent): its own shard for the exact tier, and for the near tier
// the candidates the near owners answered with. What the rules write to the
// near store is kept, to be sent to the near owners as outcomes and
// touches. The URL store is not here: the URL owner applied that tier.
//
// One record at a time; not thread-safe.
class GatheredStores final : public store::TierStores {
 public:
  struct Insert {
    std::string scope;
    uint64_t simhash = 0;
    std::string sketch;
    store::Origin origin;
  };
  struct Touch {
    std::string scope;
    uint64_t simhash = 0;
    EventTime time;
  };

  // `local` (the content owner's shard) must outlive this.
  explicit GatheredStores(store::TierStores& local) : local_(local) {}

  // Starts a record: the candidates gathered for it, found with the widest
  // query (NearProbeRequest) by every owner it probed (an entry several
  // owners hold may come more than once). None: the record was meant to be
  // settled before the near tier, and FindNear fails.
  void Start(std::optional<std::vector<store::NearCandidate>> candidates);

  // A gathered candidate by its SimHash (the entry a touch is for).
  const store::NearCandidate* Gathered(uint64_t simhash) const;

  const std::optional<Insert>& inserted() const { return inserted_; }
  const std::vector<Touch>& touched() const { return touched_; }

  EventTime watermark() const override { return local_.watermark(); }
  void ObserveEventTime(EventTime t) override { local_.ObserveEventTime(t); }
  void SetReadPoint(std::optional<EventTime> t) override { local_.SetReadPoint(t); }

  StatusOr<store::UrlLookup> LookupUrl(std::string_view scope, const Digest128& url,
                                       const store::OriginFilter& filter) override;
  Status RecordUrl(std::string_view scope, const Digest128& url, const store::Origin& origin,
                   EventTime t, const Digest128& content) override;

  StatusOr<std::optional<store::ContentEntry>> LookupContent(
      std::string_view scope, const Digest128& content,
      const store::OriginFilter& filter) override {
    return local_.LookupContent(scope, content, filter);
  }
  Status InsertContent(std::string_view scope, const Digest128& content,
                       const store::Origin& origin) override {
    return local_.InsertContent(scope, content, origin);
  }
  Status TouchContent(std::string_view scope, const Digest128& content, EventTime t) override {
    return local_.TouchContent(scope, content, t);
  }

  // The gathered candidates as the shard would have found them for `query`:
  // within its distance, or sharing a band when it has a sketch; each entry
  // once, ranked by store::RanksBefore.
  StatusOr<std::vector<store::NearCandidate>> FindNear(std::string_view scope,
                                                       const store::NearQuery& query,
                                                       const store::OriginFilter& filter) override;
  Status InsertNear(std::string_view scope, uint64_t simhash, std::string_view sketch,
                    const store::Origin& origin) override;
  Status TouchNear(std::string_view scope, uint64_t simhash, EventTime t) override;

 private:
  store::TierStores& local_;
  std::optional<std::vector<store::NearCandidate>> gathered_;
  std::optional<Insert> inserted_;
  std::vector<Touch> touched_;
};

}  // namespace pagesieve::routing
