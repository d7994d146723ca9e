#pragma once

#include "common/status_or.h"
#include "engine/decider.h"
#include "engine/record.h"
#include "engine/sieve_options.h"
#include "store/shard.h"

namespace pagesieve::engine {

// The stateful half of the engine: a prepared record and its partition's
// shard → the verdict. Records of one shard must be decided in input order,
// by one thread at a time; the Sieve itself holds no state and may be shared.
//
// An error here is never the record's fault (it is a storage failure): the
// caller must stop processing the partition, not dead-letter the record.
class Sieve {
 public:
  explicit Sieve(const SieveOptions& options) : decider_(options.decider) {}

  StatusOr<Verdict> Decide(PreparedRecord record, store::Shard& shard) const;

 private:
  Decider decider_;
};

}  // namespace pagesieve::engine
