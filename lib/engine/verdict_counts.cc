#include "engine/verdict_counts.h"

namespace pagesieve::engine {

void VerdictCounts::Add(const Verdict& verdict) {
  const Decision& v = verdict.decision;
  ++records;
  if (verdict.record.truncated) ++truncated;
  switch (v.kind) {
    case VerdictKind::kUnique:
      ++unique;
      return;
    case VerdictKind::kSkipped:
      ++skipped;
      return;
    case VerdictKind::kDuplicate:
      if (v.tier == Tier::kUrl) ++duplicate_url;
      if (v.tier == Tier::kExact) ++duplicate_exact;
      if (v.tier == Tier::kNear) ++duplicate_near;
      return;
  }
}

std::string VerdictCounts::Summary() const {
  if (rekeyed > 0) {  // the re-keying stage decides nothing
    return std::to_string(rekeyed) + " re-keyed, " + std::to_string(dead_letters) + " dead letters";
  }
  std::string s = std::to_string(unique) + " unique, " + std::to_string(duplicates()) +
                  " duplicate (url " + std::to_string(duplicate_url) + ", exact " +
                  std::to_string(duplicate_exact) + ", near " + std::to_string(duplicate_near) +
                  "), " + std::to_string(skipped) + " skipped, " + std::to_string(dead_letters) +
                  " dead letters";
  if (truncated > 0) s += ", " + std::to_string(truncated) + " truncated";
  return s;
}

}  // namespace pagesieve::engine
