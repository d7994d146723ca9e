#include "run/changelog_probe.h"

#include <algorithm>

#include "store/changelog.h"

namespace pagesieve::run {

ChangelogProbe::ChangelogProbe(Offset low, Offset high)
    : low_(low), from_(std::max(low.value(), high.value() - kWindow)), to_(high) {}

Status ChangelogProbe::Add(std::string_view key, std::optional<std::string_view> value) {
  if (!value) return Status::Ok();  // a tombstone: an entry's, which says nothing here
  StatusOr<store::ChangelogKey> k = store::DecodeChangelogKey(key);
  // A record this probe cannot read is the restore's to refuse, if it comes
  // to one.
  if (!k.ok() || k->entry()) return Status::Ok();
  found_ = true;
  if (k->snapshot) {
    latest_.reset();
    return Status::Ok();
  }
  PS_ASSIGN_OR_RETURN(store::ChangelogMarker m, store::DecodeChangelogMarker(*value));
  if (!latest_ || m.next_offset > *latest_) latest_ = m.next_offset;
  return Status::Ok();
}

bool ChangelogProbe::WindowDone() {
  if (found_ || from_ <= low_) return true;
  window_ *= 2;
  to_ = from_;
  from_ = Offset(std::max(low_.value(), from_.value() - window_));
  return false;
}

}  // namespace pagesieve::run
