#include "pipeline/batch_queue.h"

#include <algorithm>
#include <iterator>

namespace pagesieve::pipeline {

void BatchQueue::Add(SourceRecord record) {
  if (open_.empty()) open_since_ = clock_.SteadyNow();
  open_.push_back(std::move(record));
}

std::unique_ptr<engine::PrepareBatch> BatchQueue::Take(bool flush, uint64_t* seq) {
  if (open_.empty()) return nullptr;
  const bool full = open_.size() >= batch_records_;
  const bool old = clock_.SteadyNow() - open_since_ >= linger_;
  if (!full && !old && !flush) return nullptr;

  *seq = next_seq_++;
  // At most batch_records: the rest waits for the next call, already old.
  const size_t n = std::min(open_.size(), batch_records_);
  auto records = std::make_shared<std::vector<SourceRecord>>(
      std::make_move_iterator(open_.begin()),
      std::make_move_iterator(open_.begin() + static_cast<ptrdiff_t>(n)));
  open_.erase(open_.begin(), open_.begin() + static_cast<ptrdiff_t>(n));
  auto prepare = std::make_unique<engine::PrepareBatch>();
  prepare->records.reserve(n);
  for (const SourceRecord& r : *records) prepare->records.push_back(r.AsInput());
  prepare->owner = records;
  in_flight_[*seq].records = std::move(records);
  return prepare;
}

void BatchQueue::Prepared(uint64_t seq, std::unique_ptr<engine::PrepareBatch> batch) {
  auto it = in_flight_.find(seq);
  if (it != in_flight_.end()) it->second.prepared = std::move(batch);
}

BatchQueue::Batch* BatchQueue::Next() {
  auto it = in_flight_.find(next_to_decide_);
  if (it == in_flight_.end() || !it->second.prepared) return nullptr;
  return &it->second;
}

void BatchQueue::PopNext() {
  in_flight_.erase(next_to_decide_);
  ++next_to_decide_;
}

bool BatchQueue::next_prepared() const {
  auto it = in_flight_.find(next_to_decide_);
  return it != in_flight_.end() && it->second.prepared != nullptr;
}

bool BatchQueue::waiting_for_pool() const {
  return std::any_of(in_flight_.begin(), in_flight_.end(),
                     [](const auto& entry) { return !entry.second.prepared; });
}

}  // namespace pagesieve::pipeline
