#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/prepared_record.h"
#include "store/origin.h"

namespace pagesieve::engine {

enum class VerdictKind { kUnique, kDuplicate, kSkipped };
// Which rule found the duplicate: the first of url, exact, near that matched.
enum class Tier { kUrl, kExact, kNear };

std::string_view VerdictKindName(VerdictKind kind);  // "unique", "duplicate", "skipped"
std::string_view TierName(Tier tier);                // "url", "exact", "near"

// What the rules decided for one record. Only the Decider makes one, so
// there is no half-decided state: a Decision always says what it is.
struct Decision {
  static Decision Unique() { return Decision(VerdictKind::kUnique); }
  static Decision Skipped() { return Decision(VerdictKind::kSkipped); }
  static Decision Duplicate(Tier tier, std::optional<store::Origin> of,
                            std::optional<int> distance) {
    Decision d(VerdictKind::kDuplicate);
    d.tier = tier;
    d.duplicate_of = std::move(of);
    d.distance = distance;
    return d;
  }
  // A near duplicate: `method` is how it was judged (kSimHash or kMinHash),
  // `similarity` the estimated Jaccard when both pages have sketches.
  // `containment` is set when the containment rule decided.
  static Decision Near(store::Origin of, int distance, std::optional<double> similarity,
                       NearMethod method, std::optional<double> containment = std::nullopt) {
    Decision d = Duplicate(Tier::kNear, std::move(of), distance);
    d.similarity = similarity;
    d.method = method;
    d.containment = containment;
    return d;
  }

  VerdictKind kind;
  std::optional<Tier> tier;                   // duplicates only
  std::optional<store::Origin> duplicate_of;  // duplicates, except url.mode = bloom
  std::optional<int> distance;                // exact: 0, near: Hamming distance
  std::optional<double> similarity;           // near: estimated Jaccard, when both have sketches
  std::optional<NearMethod> method;           // near: what judged it (simhash or minhash)
  std::optional<double> containment;          // near: set when the containment rule decided

  friend bool operator==(const Decision&, const Decision&) = default;

 private:
  explicit Decision(VerdictKind k) : kind(k) {}
};

// The answer for one input record, exactly one per record, in input order:
// the record as prepared, and what was decided.
struct Verdict {
  PreparedRecord record;
  Decision decision;
  // Routed dedup: the record came below its input partition's floor (more
  // than routing.max_lateness behind it) and was decided where it arrived,
  // not at its event time (docs/global-routing.md, "Bounded lateness").
  bool late = false;

  friend bool operator==(const Verdict&, const Verdict&) = default;
};

// One JSON object on one line, no trailing newline. Field order is fixed, so
// equal verdicts encode to equal bytes (tests compare runs byte for byte).
std::string EncodeVerdictJson(const Verdict& verdict);

}  // namespace pagesieve::engine
