#pragma once

#include <cstdint>
#include <string>

#include "common/digest.h"
#include "common/types.h"
#include "store/origin.h"
#include "store/shard.h"
#include "store/testing/synthetic_records.h"

namespace pagesieve::store::storetest {

// The deterministic input of the crash test: record i of partition 0, and
// where its writer checkpoints. The writer and the checker both derive
// everything from i, so the checker knows what any checkpoint must contain.
using CrashRecord = testing::SyntheticRecord;

// Synthetic record i of seven sites, fetched at i seconds.
CrashRecord CrashRecordOf(int64_t i);
// Whether the writer checkpoints (with next offset i + 1) after record i.
// Batches are 1 to 16 records long.
bool CheckpointsAfter(int64_t i);
// Applies record i to the shard as the engine would for a unique page.
Status ApplyCrashRecord(Shard& shard, int64_t i);

}  // namespace pagesieve::store::storetest
