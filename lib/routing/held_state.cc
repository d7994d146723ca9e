#include "routing/held_state.h"

#include <vector>

namespace pagesieve::routing {
namespace {

void PutBigEndian(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}

}  // namespace

std::string HeldKey(HeldKind kind, const OrderKey& key) {
  std::string out(1, static_cast<char>(kind));
  out += EncodeOrderKey(key);
  return out;
}

std::string HeldAnswerKey(const OrderKey& key, PartitionId from) {
  std::string out = HeldKey(HeldKind::kAnswer, key);
  PutBigEndian(&out, static_cast<uint32_t>(from.value()), 4);
  return out;
}

std::string HeldFetchReplyKey(const OrderKey& key, PartitionId from) {
  std::string out = HeldKey(HeldKind::kFetchReply, key);
  PutBigEndian(&out, static_cast<uint32_t>(from.value()), 4);
  return out;
}

std::string HeldPromiseKey(const SourceId& source) {
  std::string out(1, static_cast<char>(HeldKind::kPromise));
  out += source.topic;
  out.push_back('\0');
  PutBigEndian(&out, static_cast<uint32_t>(source.partition.value()), 4);
  return out;
}

std::string HeldTouchKey(std::string_view scope, uint64_t simhash) {
  std::string out(1, static_cast<char>(HeldKind::kTouch));
  out += scope;
  out.push_back('\0');
  PutBigEndian(&out, simhash, 8);
  return out;
}

void HoldPromise(store::Shard& shard, const SourceId& source, const ProgressTracker& promises,
                 const ProgressTracker* decided) {
  const std::optional<OrderKey> promise = promises.PromiseOf(source);
  if (!promise) return;
  Progress p{source, *promise, std::nullopt};
  if (decided != nullptr) p.decided = decided->PromiseOf(source);
  shard.PutHeld(HeldPromiseKey(source), EncodeMessage(p));
}

Status ForEachHeldItem(store::Shard& shard, const HeldItemFn& fn) {
  // Gathered first: `fn` may write held items itself.
  std::vector<std::pair<std::string, std::string>> items;
  PS_RETURN_IF_ERROR(shard.ForEachHeld([&](std::string_view key, std::string_view value) {
    items.emplace_back(key, value);
  }));
  for (const auto& [key, value] : items) {
    const HeldKind kind = key.empty() ? HeldKind{} : static_cast<HeldKind>(key[0]);
    std::optional<Message> message;
    switch (kind) {
      case HeldKind::kGathering:
      case HeldKind::kAnswered:
        break;  // markers
      case HeldKind::kAnswer:
      case HeldKind::kFetch:
      case HeldKind::kFetchReply:
      case HeldKind::kPromise:
      case HeldKind::kProbe:
      case HeldKind::kRecord:
      case HeldKind::kTouch: {
        StatusOr<Message> m = DecodeMessage(value);
        if (!m.ok()) {
          return Status::Corruption("held item '" + std::string(1, key[0]) +
                                    "' of the shard: " + m.status().message());
        }
        message = std::move(m).value();
        break;
      }
      default:
        return Status::Corruption("a held item of the shard this build did not write");
    }
    PS_RETURN_IF_ERROR(fn(kind, key, std::move(message)));
  }
  return Status::Ok();
}

}  // namespace pagesieve::routing
