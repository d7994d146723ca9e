#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "routing/message_codec.h"
#include "routing/order_key.h"
#include "routing/progress_tracker.h"
#include "store/shard.h"

namespace pagesieve::routing {

// How an owner keeps its unfinished work in its shard's held messages
// (store::Shard::PutHeld; docs/global-routing.md, "Durable owner state"),
// so that a restored owner resumes where its last checkpoint left it. Each
// shard belongs to one owner. A key is a kind byte and what names the item;
// values are the messages' own encoding (message_codec.h). Records' and
// probes' keys sort in the order of their records.
enum class HeldKind : char {
  kAnswer = 'a',     // a near owner's answer, counted: NearAnswer
  kFetch = 'f',      // a fetch waiting for its entries' inserts: NearFetch
  kFetchReply = 'h', // a home's reply to a fetch, counted: NearFetchReply
  kGathering = 'g',  // marker: the record's probes are sent, its answers gathered
  kPromise = 'p',    // a source's promise (and decided promise): Progress
  kProbe = 'q',      // a probe taken in and not finished: NearProbeRequest
  kRecord = 'r',     // a record taken in and not finished: RoutedRecord
  kTouch = 't',      // a touch that came before its entry's insert: NearTouch
  kAnswered = 'w',   // marker: the probe is answered and waits for its outcome
};

std::string HeldKey(HeldKind kind, const OrderKey& key);
// A counted answer, by its record and the near owner it came from.
std::string HeldAnswerKey(const OrderKey& key, PartitionId from);
// A counted fetch reply, by its record and the home it came from.
std::string HeldFetchReplyKey(const OrderKey& key, PartitionId from);
std::string HeldPromiseKey(const SourceId& source);
// An early touch, by the entry it touches.
std::string HeldTouchKey(std::string_view scope, uint64_t simhash);

// Holds `source`'s promise as `promises` know it, and its decided promise
// as `decided` knows it (near owners).
void HoldPromise(store::Shard& shard, const SourceId& source, const ProgressTracker& promises,
                 const ProgressTracker* decided = nullptr);

// Calls `fn` with every held item of `shard`, in key order: its kind, its
// key, and its message (none for a marker). Corruption for an item this
// build did not write; `fn`'s error stops the walk.
using HeldItemFn =
    std::function<Status(HeldKind kind, std::string_view key, std::optional<Message> message)>;
Status ForEachHeldItem(store::Shard& shard, const HeldItemFn& fn);

}  // namespace pagesieve::routing
