#include "store/expiry_filter.h"

#include <utility>

#include "store/codec.h"

namespace pagesieve::store {
namespace {

class ExpiryFilter final : public rocksdb::CompactionFilter {
 public:
  ExpiryFilter(int64_t cutoff_ms, const char* name, ExpiredKeys* expired, int column_family)
      : cutoff_ms_(cutoff_ms), name_(name), expired_(expired), column_family_(column_family) {}

  bool Filter(int /*level*/, const rocksdb::Slice& key, const rocksdb::Slice& value,
              std::string* /*new_value*/, bool* /*value_changed*/) const override {
    int64_t last_seen = 0;
    if (!PeekLastSeen(std::string_view(value.data(), value.size()), &last_seen)) return false;
    if (last_seen >= cutoff_ms_) return false;
    if (expired_ != nullptr)
      expired_->Add(column_family_, std::string_view(key.data(), key.size()));
    return true;
  }
  const char* Name() const override { return name_; }

 private:
  const int64_t cutoff_ms_;
  const char* name_;
  ExpiredKeys* const expired_;  // null: nobody wants the keys
  const int column_family_;
};

class ExpiryFilterFactory final : public rocksdb::CompactionFilterFactory {
 public:
  ExpiryFilterFactory(std::shared_ptr<const DurableWatermark> watermark, Duration ttl,
                      std::string name, std::shared_ptr<ExpiredKeys> expired, int column_family)
      : watermark_(std::move(watermark)),
        ttl_(ttl),
        name_(std::move(name)),
        expired_(std::move(expired)),
        column_family_(column_family) {}

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& /*context*/) override {
    const int64_t cutoff = LiveCutoff(watermark_->Get(), ttl_);
    ExpiredKeys* expired = expired_ && expired_->enabled() ? expired_.get() : nullptr;
    return std::make_unique<ExpiryFilter>(cutoff, name_.c_str(), expired, column_family_);
  }
  const char* Name() const override { return name_.c_str(); }

 private:
  std::shared_ptr<const DurableWatermark> watermark_;
  const Duration ttl_;
  const std::string name_;
  const std::shared_ptr<ExpiredKeys> expired_;
  const int column_family_;
};

}  // namespace

std::shared_ptr<rocksdb::CompactionFilterFactory> NewExpiryFilterFactory(
    std::shared_ptr<const DurableWatermark> watermark, Duration ttl, std::string name,
    std::shared_ptr<ExpiredKeys> expired, int column_family) {
  return std::make_shared<ExpiryFilterFactory>(std::move(watermark), ttl, std::move(name),
                                               std::move(expired), column_family);
}

}  // namespace pagesieve::store
