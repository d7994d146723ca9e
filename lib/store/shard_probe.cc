#include "store/shard_probe.h"

#include <rocksdb/table_properties.h>

#include <vector>

namespace pagesieve::store {

ShardProbe::ShardProbe(Shard& shard) : shard_(dynamic_cast<RocksShard&>(shard)) {}

Status ShardProbe::CompactAll() {
  PS_RETURN_IF_ERROR(shard_.error_);
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  for (int cf = 0; cf < kNumCfs; ++cf) {
    PS_RETURN_IF_ERROR(FromRocks(
        db().db()->CompactRange(options, db().handle(static_cast<Cf>(cf)), nullptr, nullptr),
        "shard " + db().dir() + ": compaction"));
  }
  return Status::Ok();
}

StatusOr<uint64_t> ShardProbe::CountKeys(Cf cf) {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;  // across prefixes, ignoring the prefix extractor
  std::unique_ptr<rocksdb::Iterator> it(db().db()->NewIterator(options, db().handle(cf)));
  uint64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + db().dir() + ": count"));
  return n;
}

StatusOr<ShardProbe::CfFigures> ShardProbe::Figures(Cf cf) {
  rocksdb::DB* rocks = db().db();
  CfFigures f;
  rocks->GetIntProperty(db().handle(cf), "rocksdb.estimate-num-keys", &f.keys);
  rocks->GetIntProperty(db().handle(cf), "rocksdb.live-sst-files-size", &f.sst_bytes);
  rocks->GetIntProperty(db().handle(cf), "rocksdb.size-all-mem-tables", &f.memtable_bytes);
  rocksdb::TablePropertiesCollection tables;
  PS_RETURN_IF_ERROR(FromRocks(rocks->GetPropertiesOfAllTables(db().handle(cf), &tables),
                               "shard " + db().dir() + ": table properties"));
  for (const auto& [file, props] : tables) {
    f.index_bytes += props->index_size;
    f.filter_bytes += props->filter_size;
  }
  return f;
}

Status ShardProbe::FlushAll() {
  std::vector<rocksdb::ColumnFamilyHandle*> all;
  for (int cf = 0; cf < kNumCfs; ++cf) all.push_back(db().handle(static_cast<Cf>(cf)));
  return FromRocks(db().db()->Flush(rocksdb::FlushOptions(), all),
                   "shard " + db().dir() + ": flush");
}

bool ShardProbe::BackgroundWorkPending() const {
  rocksdb::DB* rocks = db().db();
  uint64_t n = 0;
  for (const char* property : {"rocksdb.num-running-compactions", "rocksdb.num-running-flushes"}) {
    if (rocks->GetIntProperty(property, &n) && n > 0) return true;
  }
  for (int cf = 0; cf < kNumCfs; ++cf) {
    for (const char* property : {"rocksdb.compaction-pending", "rocksdb.mem-table-flush-pending"}) {
      if (rocks->GetIntProperty(db().handle(static_cast<Cf>(cf)), property, &n) && n > 0) return true;
    }
  }
  return false;
}

Status RestoreProbe::PauseBackgroundWork() {
  return FromRocks(restore_.db_->db()->PauseBackgroundWork(), "pause background work");
}

Status RestoreProbe::ContinueBackgroundWork() {
  return FromRocks(restore_.db_->db()->ContinueBackgroundWork(), "continue background work");
}

}  // namespace pagesieve::store
