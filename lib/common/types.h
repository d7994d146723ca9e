#pragma once

#include <chrono>
#include <cstdint>

#include "common/event_time.h"
#include "common/strong_int.h"

namespace pagesieve {

// A partition of the input topic (or, for files, always 0).
using PartitionId = StrongInt<struct PartitionIdTag, int32_t>;

// A position in a partition: the Kafka offset, or for files the record's
// ordinal in the input stream.
class Offset : public StrongInt<struct OffsetTag, int64_t> {
 public:
  using StrongInt::StrongInt;
  constexpr Offset Next() const { return Offset(value() + 1); }
};

}  // namespace pagesieve
