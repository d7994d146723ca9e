#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "routing/order_key.h"

namespace pagesieve::routing {

// An owner partition's queue of records (docs/global-routing.md, "The
// stages"). Records arrive in any order; one leaves (is released to be
// worked on) when
//   - it is ready: its key is below the stage's frontier (every record
//     before it has arrived, progress_tracker.h), and
//   - no record before it that shares one of its keys is still unfinished.
// A released record holds its keys until Finish(): a later record with the
// same content digest waits until the earlier one's outcome is known,
// while records with other keys overtake it. Since a record only ever waits
// for earlier ones, the earliest unfinished record never waits.
//
// Keys are 64-bit (a digest's first 8 bytes, a table prefix with its table
// number mixed in): two different keys that collide only make a record wait
// longer, never decide differently.
//
// Not thread-safe: one stage partition's thread.
template <typename Item>
class KeyedSequencer {
 public:
  struct Released {
    OrderKey key;
    Item item;
  };

  // Adds a record. False (and nothing added) when a record with this key is
  // already there, unfinished: a redelivery.
  bool Add(const OrderKey& key, std::vector<uint64_t> keys, Item item) {
    auto [it, added] = records_.try_emplace(key);
    if (!added) return false;
    Record& r = it->second;
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    r.keys = std::move(keys);
    r.item = std::move(item);
    for (uint64_t k : r.keys) holders_[k].insert(key);
    waiting_.insert(key);
    return true;
  }

  // Adds a record already released before a restart (docs/global-routing.md,
  // "Durable owner state"): it holds its keys until Finish(), as it did.
  // False when a record with this key is there.
  bool AddReleased(const OrderKey& key, std::vector<uint64_t> keys) {
    if (!Add(key, std::move(keys), Item{})) return false;
    records_.at(key).item.reset();
    waiting_.erase(key);
    return true;
  }

  // Every record that may leave now, in order. Records before `frontier`
  // that must wait for an earlier one stay.
  std::vector<Released> Release(const std::optional<OrderKey>& frontier) {
    std::vector<Released> out;
    if (!frontier) return out;
    for (auto it = waiting_.begin(); it != waiting_.end() && *it < *frontier;) {
      Record& r = records_.at(*it);
      if (!FirstHolderOfEveryKey(*it, r)) {
        ++it;
        continue;
      }
      out.push_back({*it, std::move(*r.item)});
      r.item.reset();
      it = waiting_.erase(it);
    }
    return out;
  }

  // The released record at `key` is done: its keys no longer hold anyone.
  // False when no released, unfinished record has that key.
  bool Finish(const OrderKey& key) {
    auto it = records_.find(key);
    if (it == records_.end() || it->second.item) return false;
    for (uint64_t k : it->second.keys) {
      auto h = holders_.find(k);
      h->second.erase(key);
      if (h->second.empty()) holders_.erase(h);
    }
    records_.erase(it);
    return true;
  }

  // The unfinished records before `key` that share one of its keys: what
  // it waits for (for logs and test failures).
  std::vector<OrderKey> Blockers(const OrderKey& key) const {
    std::vector<OrderKey> out;
    auto it = records_.find(key);
    if (it == records_.end()) return out;
    for (uint64_t k : it->second.keys) {
      for (const OrderKey& holder : holders_.at(k)) {
        if (holder < key) out.push_back(holder);
      }
    }
    return out;
  }

  // The first record added and not yet finished (released or not), if any.
  std::optional<OrderKey> EarliestUnfinished() const {
    if (records_.empty()) return std::nullopt;
    return records_.begin()->first;
  }

  // The first record added and not yet released, if any.
  std::optional<OrderKey> EarliestWaiting() const {
    if (waiting_.empty()) return std::nullopt;
    return *waiting_.begin();
  }
  // Added and not yet released.
  size_t waiting() const { return waiting_.size(); }
  // Released and not yet finished.
  size_t in_progress() const { return records_.size() - waiting_.size(); }

 private:
  struct Record {
    std::vector<uint64_t> keys;
    std::optional<Item> item;  // empty once released
  };

  bool FirstHolderOfEveryKey(const OrderKey& key, const Record& r) const {
    for (uint64_t k : r.keys) {
      if (*holders_.at(k).begin() != key) return false;
    }
    return true;
  }

  std::map<OrderKey, Record> records_;  // added and not finished
  std::set<OrderKey> waiting_;          // added and not released
  std::unordered_map<uint64_t, std::set<OrderKey>> holders_;
};

}  // namespace pagesieve::routing
