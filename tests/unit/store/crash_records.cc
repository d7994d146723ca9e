#include "crash_records.h"

#include "common/split_mix64.h"

namespace pagesieve::store::storetest {

CrashRecord CrashRecordOf(int64_t i) {
  return testing::MakeSyntheticRecord(static_cast<uint64_t>(i), 7, EventTimeFromMillis(1000 * i));
}

bool CheckpointsAfter(int64_t i) {
  return SplitMix64(static_cast<uint64_t>(i) ^ 0xc0ffee) % 8 == 0 || i % 16 == 15;
}

Status ApplyCrashRecord(Shard& shard, int64_t i) {
  const CrashRecord r = CrashRecordOf(i);
  shard.ObserveEventTime(r.origin.event_time);
  PS_RETURN_IF_ERROR(shard.RecordUrl(r.scope, r.url, r.origin, r.origin.event_time, r.content));
  PS_RETURN_IF_ERROR(shard.InsertContent(r.scope, r.content, r.origin));
  return shard.InsertNear(r.scope, r.simhash, r.sketch, r.origin);
}

}  // namespace pagesieve::store::storetest
