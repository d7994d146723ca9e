#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"

namespace pagesieve::store {

// Which structure a TimeDecayedFilter is (url.filter).
enum class FilterKind {
  kBloom,   // TimeDecayedBloom: G + 1 Bloom generations ORed (docs/bloom-filter.md)
  kCuckoo,  // TimeDecayedCuckoo: one cuckoo table, a generation tag per key
  kFuse,    // TimeDecayedFuse: a static binary fuse filter of the sealed generations
            // plus a Bloom filter of the open one, rebuilt from key logs
};

// Pages a filter wrote at earlier checkpoints, read back on demand: the fuse
// filter keeps its key logs there (the shard's bloom column family) instead
// of in memory, and reads them when it rebuilds. Read() may run on a
// rebuild's own thread while the shard writes; it only reads pages that a
// checkpoint committed.
class FilterPageStore {
 public:
  virtual ~FilterPageStore() = default;
  // The stored bytes of a page; NotFound when there is none.
  virtual StatusOr<std::string> Read(uint32_t page_id) const = 0;
};

// What the URL store asks of its filter of 64-bit key hashes, whatever its
// structure: inserts at an event time, lookups at the watermark, expiry by
// generations of event time, and persistence as a header plus fixed pages
// (the shard stores both in RocksDB and ships them in the changelog).
//
// Contract shared by every implementation: no false negatives for a key
// inserted at t while t >= watermark - ttl; a key stops answering at the
// latest ttl + ttl / G after its last insert; an insert after the watermark
// raises it. Not thread-safe; const methods may run concurrently.
class TimeDecayedFilter {
 public:
  virtual ~TimeDecayedFilter() = default;

  virtual FilterKind kind() const = 0;
  virtual void Insert(uint64_t key_hash, EventTime t) = 0;
  virtual bool MayContain(uint64_t key_hash) const = 0;
  virtual void AdvanceWatermark(EventTime watermark) = 0;
  virtual EventTime watermark() const = 0;

  // Checkpoint: EncodeHeader(), every page ForEachDirtyPage() yields, then
  // ClearDirty(). Reopen: the implementation's Restore(header), then
  // LoadPage() for every stored page.
  virtual std::string EncodeHeader() const = 0;
  virtual void ForEachDirtyPage(
      const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const = 0;
  virtual size_t DirtyPageCount() const = 0;
  virtual void ClearDirty() = 0;
  virtual Status LoadPage(uint32_t page_id, std::string_view bytes) = 0;

  virtual size_t MemoryBytes() const = 0;
  virtual double FillRatio() const = 0;
  virtual double EstimatedFalsePositiveRate() const = 0;
  // What it was built for (the cuckoo reads `generations` as its tag ring).
  virtual const BloomOptions& options() const = 0;
  virtual int live_generations() const = 0;
  virtual uint64_t late_inserts() const = 0;

  // What only filters that rebuild from their stored pages use (the fuse
  // filter); the others keep everything in memory and ignore them.
  //
  // Where its pages can be read back; set before AdvanceWatermark().
  virtual void AttachPageStore(std::unique_ptr<FilterPageStore> store) { (void)store; }
  // Pages with ids at or above this are read on demand, not by LoadPage().
  virtual uint32_t LoadedPageEnd() const { return UINT32_MAX; }
  // A rebuild that failed (its pages unreadable): the filter then answers
  // "maybe" for every key, and the shard stops at its next checkpoint.
  virtual Status status() const { return Status::Ok(); }
  // Many inserts out of time order follow (a rebuild from the exact
  // entries): work a filter does per late insert may wait for the end.
  virtual void BeginBulkLoad() {}
  virtual Status FinishBulkLoad() { return status(); }
  // The filter's answers decide no verdict (every "maybe" is checked
  // elsewhere), so a rebuild may run beside the shard's thread and take
  // effect whenever it is done. The page store must then allow reads from
  // that thread.
  virtual void AllowBackgroundRebuilds() {}
  // Waits for a rebuild running beside the shard's thread and takes its
  // result (tests, benchmarks); the filter's status after it.
  virtual Status FinishRebuild() { return status(); }
};

}  // namespace pagesieve::store
