#include "store/simhash_index.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace pagesieve::store {
namespace {

// Floor division: event times before the epoch get negative generations.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

}  // namespace

SimHashIndex::SimHashIndex(const NearLayout* layout, Duration width)
    : layout_(layout),
      width_ms_(std::max<int64_t>(1, width.count())),
      max_bits_(std::min(layout->min_prefix_bits(), kMaxBucketBits)),
      first_id_(std::numeric_limits<int64_t>::min()) {}

int64_t SimHashIndex::GenerationOf(EventTime t) const { return FloorDiv(ToMillis(t), width_ms_); }

SimHashIndex::Generation& SimHashIndex::GetOrCreate(int64_t id) {
  // Nearly every add goes to the newest generation.
  for (auto it = generations_.rbegin(); it != generations_.rend(); ++it) {
    if (it->id == id) return *it;
    if (it->id < id) {
      auto inserted = generations_.insert(it.base(), Generation{});
      inserted->id = id;
      inserted->buckets.resize(static_cast<size_t>(layout_->tables()));
      return *inserted;
    }
  }
  generations_.insert(generations_.begin(), Generation{});
  Generation& g = generations_.front();
  g.id = id;
  g.buckets.resize(static_cast<size_t>(layout_->tables()));
  return g;
}

void SimHashIndex::Add(uint64_t simhash, EventTime indexed_at) {
  const int64_t id = GenerationOf(indexed_at);
  if (id < first_id_) return;
  Generation& g = GetOrCreate(id);
  if (g.bits < max_bits_ && g.size >= kTargetPerBucket << g.bits) Grow(g);
  for (int t = 0; t < layout_->tables(); ++t) {
    const uint64_t permuted = layout_->Permute(t, simhash);
    g.buckets[(static_cast<size_t>(t) << g.bits) | Bucket(g, permuted)].push_back(permuted);
  }
  ++g.size;
}

// One more bit per bucket: bucket b splits into 2b and 2b + 1 by the next
// bit of the permuted value, so the order within a table is kept.
void SimHashIndex::Grow(Generation& g) const {
  const int bits = g.bits + 1;
  std::vector<std::vector<uint64_t>> grown(static_cast<size_t>(layout_->tables()) << bits);
  for (size_t old = 0; old < g.buckets.size(); ++old) {
    const size_t table = old >> g.bits;
    for (uint64_t v : g.buckets[old]) {
      const size_t b = static_cast<size_t>(v >> (64 - bits));
      grown[(table << bits) | b].push_back(v);
    }
    std::vector<uint64_t>().swap(g.buckets[old]);  // free as we go: peak memory stays ~2x one table
  }
  g.buckets = std::move(grown);
  g.bits = bits;
}

void SimHashIndex::DropBefore(EventTime oldest) {
  // Generation id holds times below (id + 1) * width: drop it when that is <= oldest.
  const int64_t keep_from = FloorDiv(ToMillis(oldest), width_ms_);
  if (keep_from <= first_id_) return;
  first_id_ = keep_from;
  auto keep = std::find_if(generations_.begin(), generations_.end(),
                           [&](const Generation& g) { return g.id >= keep_from; });
  generations_.erase(generations_.begin(), keep);
}

void SimHashIndex::Collect(uint64_t simhash, int max_distance, std::vector<Candidate>* out) const {
  for (int t = 0; t < layout_->tables(); ++t) {
    const uint64_t query = layout_->Permute(t, simhash);
    for (const Generation& g : generations_) {
      const std::vector<uint64_t>& bucket =
          g.buckets[(static_cast<size_t>(t) << g.bits) | Bucket(g, query)];
      for (uint64_t v : bucket) {
        // Permuting moves bits around, so it keeps Hamming distances.
        const int d = std::popcount(v ^ query);
        if (d <= max_distance) out->push_back({d, layout_->Unpermute(t, v)});
      }
    }
  }
}

size_t SimHashIndex::size() const {
  size_t n = 0;
  for (const Generation& g : generations_) n += g.size;
  return n;
}

size_t SimHashIndex::MemoryBytes() const {
  size_t bytes = generations_.capacity() * sizeof(Generation);
  for (const Generation& g : generations_) {
    bytes += g.buckets.capacity() * sizeof(std::vector<uint64_t>);
    for (const std::vector<uint64_t>& b : g.buckets) {
      // The allocator's own header (glibc: 16 bytes) counts too.
      if (b.capacity() > 0) bytes += b.capacity() * sizeof(uint64_t) + 16;
    }
  }
  return bytes;
}

}  // namespace pagesieve::store
