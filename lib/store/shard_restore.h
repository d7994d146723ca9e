#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"
#include "store/changelog.h"
#include "store/shard_options.h"
#include "store/state_env.h"

namespace pagesieve::store {

class ShardDb;

// Writes changelog records into a shard that is not open as a Shard: the
// restore of a partition that arrived from another instance
// (docs/changelog.md).
//
// Records go straight to RocksDB in large unlogged batches, without waiting
// when it stalls writers (the restore runs on the thread that polls the
// group: docs/changelog.md); Finish() writes what is left and flushes
// them, then writes the progress of the last marker applied together with
// the changelog position, in one synced batch. A crash before that leaves
// the old progress, so the restore simply runs again from the old position:
// records are whole values applied in order, and applying them twice gives
// the same state.
//
// Destroyed without Finish() (abandoned), it closes without flushing what
// it applied: the old progress stays, and whatever was not flushed yet is
// dropped, to be applied again by the next restore.
//
// Not thread-safe. Holds the shard's RocksDB lock until destroyed.
class ShardRestore {
 public:
  static StatusOr<std::unique_ptr<ShardRestore>> Open(
      std::shared_ptr<const StateEnv::Resources> env, const std::string& dir,
      const ShardOptions& options);
  ~ShardRestore();

  // Where the local shard stood when opened.
  std::optional<Offset> changelog_next() const { return changelog_next_; }
  std::optional<Offset> checkpointed_offset() const { return checkpointed_; }

  // Deletes every entry, the Bloom filter and the progress: the shard is as
  // new, for a full restore over state the changelog cannot bring up to date.
  Status Reset();

  // Applies one changelog record (a tombstone when `value` is empty).
  // A marker written under another fingerprint version or SimHash layout is
  // FailedPrecondition. A snapshot record (changelog.h) voids everything
  // before it: the shard is Reset() and what follows rebuilds it whole.
  // Does not wait for RocksDB's write stalls: a batch it turns away (its
  // flushes and compactions behind) is kept, and stalled() says so. (A
  // snapshot record's Reset() is a synced write, and may wait; it is rare.)
  Status Apply(std::string_view key, std::optional<std::string_view> value);

  // Whether a full batch is waiting for RocksDB to take writes again. The
  // caller should apply no more until Unstall() clears it: records applied
  // meanwhile are kept, in a batch that grows.
  bool stalled() const { return stalled_; }
  // Offers the waiting batch again, without waiting either.
  Status Unstall();

  // Keeps the local state and forgets only its changelog position, synced:
  // for a shard ahead of a changelog it did not write, whose next
  // checkpoint then ships it whole (Shard::ships_snapshot).
  Status ForgetChangelogPosition();

  // Makes everything applied durable and records `changelog_next` (the
  // offset after the last record read) with the progress of the last marker
  // applied; the shard then opens at that checkpoint.
  Status Finish(Offset changelog_next);

  uint64_t records() const { return records_; }
  uint64_t bytes() const { return bytes_; }
  // Snapshot records met, each of which started the shard over.
  uint64_t snapshots() const { return snapshots_; }

 private:
  ShardRestore() = default;
  // Writes the buffered batch. Without `may_wait`, a write stall leaves it
  // buffered and sets stalled_.
  Status WriteBuffered(bool may_wait);
  // A snapshot record: drops what was applied, buffered or written.
  Status StartOver();

  ShardOptions options_;
  std::unique_ptr<ShardDb> db_;
  ChangelogMarker identity_;  // what a marker must say about fingerprints
  std::optional<Offset> changelog_next_, checkpointed_;
  std::optional<ChangelogMarker> last_marker_;
  struct Batch;
  std::unique_ptr<Batch> batch_;
  uint64_t records_ = 0, bytes_ = 0, snapshots_ = 0;
  bool finished_ = false;  // Finish() made everything applied durable
  bool stalled_ = false;   // the buffered batch was turned away
  friend class RestoreProbe;  // holds RocksDB's background work, for tests
};

}  // namespace pagesieve::store
