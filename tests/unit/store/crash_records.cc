#include "crash_records.h"

namespace pagesieve::store::storetest {
namespace {

uint64_t Mix(uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

Digest128 DigestFrom(uint64_t a, uint64_t b) {
  Digest128 d;
  for (int j = 0; j < 8; ++j) {
    d.bytes[j] = static_cast<uint8_t>(a >> (8 * j));
    d.bytes[8 + j] = static_cast<uint8_t>(b >> (8 * j));
  }
  return d;
}

}  // namespace

CrashRecord CrashRecordOf(int64_t i) {
  const auto u = static_cast<uint64_t>(i);
  CrashRecord r;
  r.scope = "site-" + std::to_string(i % 7);
  r.url = DigestFrom(Mix(u), Mix(u + (1ull << 40)));
  r.content = DigestFrom(Mix(u + (2ull << 40)), Mix(u + (3ull << 40)));
  r.simhash = Mix(u + (4ull << 40));
  r.origin.event_id = "crash-" + std::to_string(i);
  r.origin.url = "https://site-" + std::to_string(i % 7) + ".example/" + std::to_string(i);
  r.origin.event_time = EventTimeFromMillis(1000 * i);
  r.origin.partition = PartitionId(0);
  r.origin.offset = Offset(i);
  return r;
}

bool CheckpointsAfter(int64_t i) {
  return Mix(static_cast<uint64_t>(i) ^ 0xc0ffee) % 8 == 0 || i % 16 == 15;
}

Status ApplyCrashRecord(Shard& shard, int64_t i) {
  const CrashRecord r = CrashRecordOf(i);
  shard.ObserveEventTime(r.origin.event_time);
  PS_RETURN_IF_ERROR(shard.RecordUrl(r.scope, r.url, r.origin, r.origin.event_time, r.content));
  PS_RETURN_IF_ERROR(shard.InsertContent(r.scope, r.content, r.origin));
  return shard.InsertNear(r.scope, r.simhash, r.origin);
}

}  // namespace pagesieve::store::storetest
