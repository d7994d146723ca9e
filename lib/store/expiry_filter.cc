#include "store/expiry_filter.h"

#include <utility>

#include "store/codec.h"

namespace pagesieve::store {
namespace {

class ExpiryFilter final : public rocksdb::CompactionFilter {
 public:
  ExpiryFilter(int64_t cutoff_ms, const char* name) : cutoff_ms_(cutoff_ms), name_(name) {}

  bool Filter(int /*level*/, const rocksdb::Slice& /*key*/, const rocksdb::Slice& value,
              std::string* /*new_value*/, bool* /*value_changed*/) const override {
    int64_t last_seen = 0;
    if (!PeekLastSeen(std::string_view(value.data(), value.size()), &last_seen)) return false;
    return last_seen < cutoff_ms_;
  }
  const char* Name() const override { return name_; }

 private:
  const int64_t cutoff_ms_;
  const char* name_;
};

class ExpiryFilterFactory final : public rocksdb::CompactionFilterFactory {
 public:
  ExpiryFilterFactory(std::shared_ptr<const DurableWatermark> watermark, Duration ttl,
                      Duration grace, std::string name)
      : watermark_(std::move(watermark)), ttl_(ttl), grace_(grace), name_(std::move(name)) {}

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& /*context*/) override {
    const int64_t cutoff = LiveCutoff(LiveCutoff(watermark_->Get(), ttl_), grace_);
    return std::make_unique<ExpiryFilter>(cutoff, name_.c_str());
  }
  const char* Name() const override { return name_.c_str(); }

 private:
  std::shared_ptr<const DurableWatermark> watermark_;
  const Duration ttl_;
  const Duration grace_;
  const std::string name_;
};

}  // namespace

std::shared_ptr<rocksdb::CompactionFilterFactory> NewExpiryFilterFactory(
    std::shared_ptr<const DurableWatermark> watermark, Duration ttl, Duration grace,
    std::string name) {
  return std::make_shared<ExpiryFilterFactory>(std::move(watermark), ttl, grace, std::move(name));
}

}  // namespace pagesieve::store
