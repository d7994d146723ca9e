#include "routed/partition_owner.h"

#include "routing/content_owner.h"
#include "routing/near_owner.h"
#include "routing/url_owner.h"

namespace pagesieve::routed {
namespace {

Status Unexpected(const char* owner, const routing::Message& m) {
  static const char* const kNames[] = {"a record",  "a promise", "a probe",
                                       "an answer", "an outcome", "a touch",
                                       "a fetch",   "a fetch's reply"};
  static_assert(std::size(kNames) == std::variant_size_v<routing::Message>);
  return Status::Corruption(std::string("a ") + owner + " owner was sent " + kNames[m.index()] +
                          ": the internal topics hold what another stage should have read");
}

class UrlPartition final : public PartitionOwner {
 public:
  UrlPartition(routing::SourceId self, const OwnerContext& c, store::Shard& shard)
      : next_(c.next_owners), owner_(std::move(self), *c.decider, shard, next_) {}
  routing::UrlOwner& owner() { return owner_; }

  Status Take(routing::Message m, routing::Outbox* out) override {
    if (auto* r = std::get_if<routing::RoutedRecord>(&m)) {
      owner_.OnRecord(std::move(*r));
    } else if (auto* p = std::get_if<routing::Progress>(&m)) {
      owner_.OnProgress(*p);
    } else {
      return Unexpected("URL", m);
    }
    return owner_.Step(out);
  }
  EventTime ExpiryHold() const override { return owner_.ExpiryHold(); }
  bool Finished() const override { return owner_.Finished(); }

 private:
  const routing::Ownership next_;
  routing::UrlOwner owner_;
};

class ContentPartition final : public PartitionOwner {
 public:
  ContentPartition(routing::SourceId self, const OwnerContext& c, store::Shard& shard)
      : next_(c.next_owners), owner_(std::move(self), *c.decider, shard, next_, *c.plan) {}
  routing::ContentOwner& owner() { return owner_; }

  Status Take(routing::Message m, routing::Outbox* out) override {
    if (auto* r = std::get_if<routing::RoutedRecord>(&m)) {
      owner_.OnRecord(std::move(*r));
    } else if (auto* p = std::get_if<routing::Progress>(&m)) {
      owner_.OnProgress(*p);
    } else if (auto* a = std::get_if<routing::NearAnswer>(&m)) {
      PS_RETURN_IF_ERROR(owner_.OnAnswer(*a, out));
    } else if (auto* f = std::get_if<routing::NearFetchReply>(&m)) {
      PS_RETURN_IF_ERROR(owner_.OnFetchReply(*f, out));
    } else {
      return Unexpected("content", m);
    }
    return owner_.Step(out);
  }
  EventTime ExpiryHold() const override { return owner_.ExpiryHold(); }
  bool Finished() const override { return owner_.Finished(); }

 private:
  const routing::Ownership next_;
  routing::ContentOwner owner_;
};

class NearPartition final : public PartitionOwner {
 public:
  // The near owners' placement is their own topic's: as many partitions
  // as the stage they answer, which sends on it (OwnerContext::next_owners).
  NearPartition(routing::SourceId self, const OwnerContext& c, store::Shard& shard)
      : owners_(c.next_owners), owner_(std::move(self), shard, owners_, *c.plan) {}
  routing::NearOwner& owner() { return owner_; }

  Status Take(routing::Message m, routing::Outbox* out) override {
    if (auto* p = std::get_if<routing::NearProbeRequest>(&m)) {
      owner_.OnProbe(std::move(*p));
    } else if (auto* pr = std::get_if<routing::Progress>(&m)) {
      owner_.OnProgress(*pr);
    } else if (auto* o = std::get_if<routing::NearOutcome>(&m)) {
      PS_RETURN_IF_ERROR(owner_.OnOutcome(*o));
    } else if (auto* t = std::get_if<routing::NearTouch>(&m)) {
      PS_RETURN_IF_ERROR(owner_.OnTouch(*t));
    } else if (auto* f = std::get_if<routing::NearFetch>(&m)) {
      owner_.OnFetch(std::move(*f));
    } else {
      return Unexpected("near", m);
    }
    return owner_.Step(out);
  }
  EventTime ExpiryHold() const override { return owner_.ExpiryHold(); }
  bool Finished() const override { return owner_.Finished(); }

 private:
  const routing::Ownership owners_;
  routing::NearOwner owner_;
};

template <typename P>
StatusOr<std::unique_ptr<PartitionOwner>> Open(const OwnerContext& c, PartitionId partition,
                                               store::Shard& shard) {
  auto p = std::make_unique<P>(routing::SourceId{c.topic, partition}, c, shard);
  for (const routing::SourceId& source : c.sources) p->owner().Expect(source);
  PS_RETURN_IF_ERROR(p->owner().Restore());
  return std::unique_ptr<PartitionOwner>(std::move(p));
}

}  // namespace

StatusOr<std::unique_ptr<PartitionOwner>> OpenPartitionOwner(const OwnerContext& context,
                                                             PartitionId partition,
                                                             store::Shard& shard) {
  switch (context.kind) {
    case OwnerKind::kUrl:
      return Open<UrlPartition>(context, partition, shard);
    case OwnerKind::kContent:
      return Open<ContentPartition>(context, partition, shard);
    case OwnerKind::kNear:
      return Open<NearPartition>(context, partition, shard);
  }
  return Status::Internal("unknown owner kind");
}

}  // namespace pagesieve::routed
