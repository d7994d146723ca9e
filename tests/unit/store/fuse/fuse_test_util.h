#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "store/fuse/time_decayed_fuse.h"

namespace pagesieve::store::testing {

// What the shard's bloom column family would hold: the last header and the
// last copy of each page; the filter reads its key logs back from it. Its
// pages may be read from a background rebuild's thread while a checkpoint
// writes, as RocksDB's are.
struct FusePages {
  std::string header;
  std::map<uint32_t, std::string> pages;  // guarded by mu
  mutable std::mutex mu;

  class Store final : public FilterPageStore {
   public:
    explicit Store(const FusePages* owner) : owner_(owner) {}
    StatusOr<std::string> Read(uint32_t id) const override {
      std::lock_guard<std::mutex> lock(owner_->mu);
      auto it = owner_->pages.find(id);
      if (it == owner_->pages.end()) return Status::NotFound("no page");
      return it->second;
    }

   private:
    const FusePages* owner_;
  };

  std::unique_ptr<TimeDecayedFuse> Create(const BloomOptions& o) {
    auto f = TimeDecayedFuse::Create(o);
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    (*f)->AttachPageStore(std::make_unique<Store>(this));
    return std::move(*f);
  }
  void Checkpoint(TimeDecayedFuse& f) {
    header = f.EncodeHeader();
    std::lock_guard<std::mutex> lock(mu);
    f.ForEachDirtyPage([this](uint32_t id, std::string_view bytes) { pages[id] = bytes; });
    f.ClearDirty();
  }
  std::unique_ptr<TimeDecayedFuse> Reopen() {
    auto f = TimeDecayedFuse::Restore(header);
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    (*f)->AttachPageStore(std::make_unique<Store>(this));
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [id, bytes] : pages) {
      if (id >= (*f)->LoadedPageEnd()) break;
      EXPECT_TRUE((*f)->LoadPage(id, bytes).ok());
    }
    return std::move(*f);
  }
};

inline constexpr int64_t kHourMs = 3'600'000;

inline EventTime At(int64_t ms) { return EventTimeFromMillis(ms); }

// 8 hours of TTL: generations of one hour.
inline BloomOptions EightHourOptions(uint64_t expected) {
  BloomOptions o;
  o.expected_items = expected;
  o.false_positive_rate = 0.01;
  o.generations = 8;
  o.ttl = Duration(8 * kHourMs);
  o.page_bytes = 64;
  return o;
}

}  // namespace pagesieve::store::testing
