#pragma once

#include "common/types.h"
#include "store/tier_stores.h"

namespace pagesieve::routing {

// Judges liveness in `stores` at one record's place in the order while it
// lives (store::TierStores::SetReadPoint): an owner works on records out of
// arrival order, so the watermark may already be past the record's time.
class ReadPointScope {
 public:
  ReadPointScope(store::TierStores& stores, EventTime t) : stores_(stores) {
    stores_.SetReadPoint(t);
  }
  ~ReadPointScope() { stores_.SetReadPoint(std::nullopt); }
  ReadPointScope(const ReadPointScope&) = delete;
  ReadPointScope& operator=(const ReadPointScope&) = delete;

 private:
  store::TierStores& stores_;
};

}  // namespace pagesieve::routing
