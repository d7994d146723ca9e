#pragma once

#include <compare>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve::routing {

// The total order that routed dedup decides records in (docs/global-routing.md,
// "The rule that must hold"): event time, then the source topic, partition
// and offset. A record is decided against exactly the records before it,
// whatever the partition counts and however probes interleave in flight.
//
// `time` is the record's event time, or its source partition's floor when
// the record came later than routing.max_lateness (source_floor.h): a late
// record is ordered where it arrived.
struct OrderKey {
  EventTime time;
  std::string topic;
  PartitionId partition;
  Offset offset;

  friend std::strong_ordering operator<=>(const OrderKey&, const OrderKey&) = default;
  friend bool operator==(const OrderKey&, const OrderKey&) = default;
};

// "t=1700000000000 pages/3@42", for logs and test failures.
std::string ToString(const OrderKey& key);

// Bytes that sort (memcmp) exactly as the keys do: for RocksDB keys of an
// owner's queue and for the internal topics' messages. The time is 8 bytes
// big-endian with the sign bit flipped, the topic is NUL-terminated (Kafka
// topic names are [a-zA-Z0-9._-]), partition 4 bytes and offset 8 bytes,
// both big-endian and sign-flipped.
std::string EncodeOrderKey(const OrderKey& key);
// InvalidArgument for anything EncodeOrderKey did not write.
StatusOr<OrderKey> DecodeOrderKey(std::string_view bytes);

}  // namespace pagesieve::routing
