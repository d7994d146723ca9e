#include "store/shard_restore.h"

#include <rocksdb/write_batch.h>

#include <iterator>
#include <vector>

#include "store/rocks_options.h"
#include "store/shard_db.h"
#include "store/shard_meta.h"
#include "store/simhash_tables.h"

namespace pagesieve::store {
namespace {

// Unlogged batches of about this size: large enough that RocksDB's per-write
// cost vanishes, small enough to stay out of the memtable budget's way.
constexpr size_t kBatchBytes = 4 << 20;

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

}  // namespace

struct ShardRestore::Batch {
  rocksdb::WriteBatch batch;
};

StatusOr<std::unique_ptr<ShardRestore>> ShardRestore::Open(
    std::shared_ptr<const StateEnv::Resources> env, const std::string& dir,
    const ShardOptions& options) {
  PS_RETURN_IF_ERROR(ValidateShardOptions(options));
  PS_ASSIGN_OR_RETURN(NearLayout layout,
                      NearLayout::Create(options.near_max_distance, options.near_tables));
  auto durable = std::make_shared<DurableWatermark>();
  std::unique_ptr<ShardRestore> restore(new ShardRestore());
  restore->options_ = options;
  PS_ASSIGN_OR_RETURN(restore->db_,
                      ShardDb::Open(dir, MakeDbOptions(*env),
                                    MakeColumnFamilies(*env, options, durable),
                                    env->options.sync));
  ShardIdentity identity;
  identity.fingerprint_version = options.fingerprint_version;
  identity.near_max_distance = layout.max_distance();
  identity.near_blocks = layout.blocks();
  PS_RETURN_IF_ERROR(CheckOrCreateIdentity(restore->db_.get(), identity));
  PS_ASSIGN_OR_RETURN(ShardProgress progress, LoadProgress(restore->db_.get()));
  restore->changelog_next_ = progress.changelog_next;
  restore->checkpointed_ = progress.next_offset;
  restore->identity_.format_version = identity.format_version;
  restore->identity_.fingerprint_version = identity.fingerprint_version;
  restore->identity_.near_max_distance = identity.near_max_distance;
  restore->identity_.near_blocks = identity.near_blocks;
  restore->batch_ = std::make_unique<Batch>();
  return restore;
}

ShardRestore::~ShardRestore() {
  if (db_ == nullptr || finished_) return;
  // Abandoned: its partition revoked, or the process stopping. Without the
  // progress Finish() writes none of it counts, and the next restore
  // applies it again from the old position; RocksDB's default would flush
  // the unlogged memtables at close, blocking the thread that lets the
  // partition go (a rebalance callback) for seconds with a large one.
  (void)db_->db()->SetDBOptions({{"avoid_flush_during_shutdown", "true"}});
}

Status ShardRestore::Reset() {
  rocksdb::WriteBatch batch;
  static const std::string kAfterEveryKey(32, '\xff');
  for (int cf = kMetaCf + 1; cf < kNumCfs; ++cf) {
    PS_RETURN_IF_ERROR(FromRocks(batch.DeleteRange(db_->handle(static_cast<Cf>(cf)), "",
                                                   kAfterEveryKey),
                                 "shard " + db_->dir() + ": reset"));
  }
  // Everything of the metadata but the identity: the held messages and the
  // progress.
  PS_RETURN_IF_ERROR(FromRocks(batch.DeleteRange(db_->handle(kMetaCf), ToSlice(kHeldPrefix),
                                                 ToSlice(kHeldEnd)),
                               "shard " + db_->dir() + ": reset"));
  std::vector<std::string_view> keys(std::begin(kProgressKeys), std::end(kProgressKeys));
  keys.push_back(kBloomHeaderKey);
  for (std::string_view key : keys) {
    PS_RETURN_IF_ERROR(
        FromRocks(batch.Delete(db_->handle(kMetaCf), ToSlice(key)), "shard " + db_->dir()));
  }
  rocksdb::WriteOptions write;
  write.sync = true;
  PS_RETURN_IF_ERROR(FromRocks(db_->db()->Write(write, &batch), "shard " + db_->dir() + ": reset"));
  changelog_next_.reset();
  checkpointed_.reset();
  return Status::Ok();
}

Status ShardRestore::Apply(std::string_view key, std::optional<std::string_view> value) {
  PS_ASSIGN_OR_RETURN(ChangelogKey k, DecodeChangelogKey(key));
  ++records_;
  bytes_ += key.size() + (value ? value->size() : 0);
  if (k.snapshot) {
    if (!value) return Status::Ok();  // never written; says nothing
    PS_RETURN_IF_ERROR(DecodeChangelogSnapshot(*value).status());
    return StartOver();
  }
  if (k.marker) {
    if (!value) return Status::Ok();  // a deleted marker says nothing
    PS_ASSIGN_OR_RETURN(ChangelogMarker m, DecodeChangelogMarker(*value));
    // A changelog of an older readable format holds values this build reads.
    if (!IsReadableFormat(m.format_version) ||
        m.fingerprint_version != identity_.fingerprint_version ||
        m.near_max_distance != identity_.near_max_distance ||
        m.near_blocks != identity_.near_blocks) {
      return Status::FailedPrecondition(
          "the changelog was written with storage format " + std::to_string(m.format_version) +
          ", fingerprint version " + std::to_string(m.fingerprint_version) +
          " and near.max_distance " + std::to_string(m.near_max_distance) +
          "; this instance uses format " + std::to_string(identity_.format_version) +
          ", fingerprint version " + std::to_string(identity_.fingerprint_version) +
          " and near.max_distance " + std::to_string(identity_.near_max_distance) +
          ". Run every instance of the group with one build and configuration, or start over "
          "with a new changelog.topic and empty state directories.");
    }
    // Checkpoints only move forward: a marker behind the one already read
    // is a stale writer's (a zombie whose records landed late, at least
    // once), and would take the shard's offset and watermark back.
    if (!last_marker_ || m.next_offset >= last_marker_->next_offset) last_marker_ = m;
    return Status::Ok();
  }
  rocksdb::ColumnFamilyHandle* cf = db_->handle(static_cast<Cf>(k.column_family));
  rocksdb::Status s = value ? batch_->batch.Put(cf, ToSlice(k.key), ToSlice(*value))
                            : batch_->batch.Delete(cf, ToSlice(k.key));
  PS_RETURN_IF_ERROR(FromRocks(s, "shard " + db_->dir() + ": restore"));
  if (batch_->batch.GetDataSize() >= kBatchBytes) return WriteBuffered(/*may_wait=*/false);
  return Status::Ok();
}

Status ShardRestore::StartOver() {
  // The markers read so far belong to the voided history too, and the local
  // checkpoint a catch-up started from is gone with the state.
  batch_->batch.Clear();
  stalled_ = false;
  last_marker_.reset();
  ++snapshots_;
  return Reset();
}

Status ShardRestore::ForgetChangelogPosition() {
  ClearChangelogNext(db_.get());
  PS_RETURN_IF_ERROR(db_->Commit());
  PS_RETURN_IF_ERROR(db_->SyncWal());
  changelog_next_.reset();
  return Status::Ok();
}

Status ShardRestore::Unstall() {
  return stalled_ ? WriteBuffered(/*may_wait=*/false) : Status::Ok();
}

Status ShardRestore::WriteBuffered(bool may_wait) {
  if (batch_->batch.Count() == 0) return Status::Ok();
  rocksdb::WriteOptions write;
  write.disableWAL = true;  // Finish() flushes before it records any progress
  // A restore writes faster than one disk flushes: RocksDB then holds its
  // writers until the memtables are flushed, seconds on a slow disk, which
  // the thread that polls the group must not spend waiting.
  write.no_slowdown = !may_wait;
  const rocksdb::Status s = db_->db()->Write(write, &batch_->batch);
  if (s.IsIncomplete() && !may_wait) {
    stalled_ = true;  // the batch is untouched: offered again later
    return Status::Ok();
  }
  PS_RETURN_IF_ERROR(FromRocks(s, "shard " + db_->dir() + ": restore"));
  batch_->batch.Clear();
  stalled_ = false;
  return Status::Ok();
}

Status ShardRestore::Finish(Offset changelog_next) {
  PS_RETURN_IF_ERROR(WriteBuffered(/*may_wait=*/true));
  if (options_.url_mode == UrlMode::kExact && records_ > 0) {
    // The filter is rebuilt from the restored URL entries when the shard
    // opens without one (url_bloom.h); local pages would miss the new URLs.
    db_->ClearOnCommit(kBloomCf);
    rocksdb::WriteBatch batch;
    PS_RETURN_IF_ERROR(FromRocks(batch.Delete(db_->handle(kMetaCf), ToSlice(kBloomHeaderKey)),
                                 "shard " + db_->dir()));
    PS_RETURN_IF_ERROR(
        FromRocks(db_->db()->Write(rocksdb::WriteOptions(), &batch), "shard " + db_->dir()));
  }
  std::vector<rocksdb::ColumnFamilyHandle*> all;
  for (int cf = 0; cf < kNumCfs; ++cf) all.push_back(db_->handle(static_cast<Cf>(cf)));
  // At once, not after compaction has caught up with the restore's writes
  // (RocksDB's default waits until the flush would stall no writer): this
  // runs on the run loop's thread, which must poll its group. Nothing else
  // writes to the shard until it opens. The flush itself still takes time
  // (2.5 s for the last memtable of a 4-million-record restore here).
  rocksdb::FlushOptions flush;
  flush.allow_write_stall = true;
  PS_RETURN_IF_ERROR(FromRocks(db_->db()->Flush(flush, all),
                               "shard " + db_->dir() + ": restore flush"));
  // Nor behind the local checkpoint a catch-up started from.
  if (last_marker_ && checkpointed_ && last_marker_->next_offset < *checkpointed_) {
    last_marker_.reset();
  }
  if (last_marker_) StageProgress(db_.get(), last_marker_->watermark, last_marker_->next_offset);
  StageChangelogNext(db_.get(), changelog_next);
  PS_RETURN_IF_ERROR(db_->Commit());
  PS_RETURN_IF_ERROR(db_->SyncWal());
  changelog_next_ = changelog_next;
  if (last_marker_) checkpointed_ = last_marker_->next_offset;
  finished_ = true;
  return Status::Ok();
}

}  // namespace pagesieve::store
