#include "store/fuse/fuse_rebuild.h"

#include <cstring>
#include <string>

#include "store/bloom/bloom_format.h"
#include "store/bloom/probe.h"

namespace pagesieve::store::fuse {
namespace {

// The keys of one generation: its committed chunks, then those not yet
// written. A chunk must be there, stamped with this filter and generation:
// anything else means the store lost or mixed up pages.
Status ReadLog(const LogSnapshot& log, uint32_t param_tag, const FilterPageStore* store,
               std::vector<uint64_t>* out) {
  if (log.stored.chunks > 0 && store == nullptr) {
    return Status::FailedPrecondition("fuse: key log to read but no page store attached");
  }
  for (uint32_t c = 0; c < log.stored.chunks; ++c) {
    const uint32_t id = LogPageId(log.slot, c);
    PS_ASSIGN_OR_RETURN(std::string page, store->Read(id));
    if (page.size() < bloom::kPagePrefixBytes ||
        (page.size() - bloom::kPagePrefixBytes) % sizeof(uint64_t) != 0) {
      return Status::Corruption("fuse key log chunk " + std::to_string(id) + ": bad length");
    }
    PS_ASSIGN_OR_RETURN(bloom::PagePrefix prefix,
                        bloom::DecodePagePrefix(page, page.size() - bloom::kPagePrefixBytes));
    if (prefix.tag != param_tag || prefix.page_id != id ||
        prefix.generation != log.stored.generation) {
      return Status::Corruption("fuse key log chunk " + std::to_string(id) +
                                ": of another filter or generation");
    }
    const size_t n = (page.size() - bloom::kPagePrefixBytes) / sizeof(uint64_t);
    const size_t at = out->size();
    out->resize(at + n);
    std::memcpy(out->data() + at, page.data() + bloom::kPagePrefixBytes, n * sizeof(uint64_t));
  }
  out->insert(out->end(), log.pending.begin(), log.pending.end());
  return Status::Ok();
}

Status Build(const RebuildPlan& plan, const FilterPageStore* store, RebuiltFilters* out) {
  std::vector<uint64_t> sealed_keys;
  std::vector<uint64_t> open_keys;
  for (const LogSnapshot& log : plan.logs) {
    PS_RETURN_IF_ERROR(ReadLog(log, plan.param_tag, store, log.open ? &open_keys : &sealed_keys));
  }
  PS_ASSIGN_OR_RETURN(out->sealed,
                      BinaryFuse::Build(&sealed_keys, plan.geometry.fingerprint_bits));
  PS_ASSIGN_OR_RETURN(out->open, bloom::BitArena::Allocate(plan.geometry.open_bytes()));
  for (uint64_t key : open_keys) {
    out->open_bits_set += static_cast<uint64_t>(
        InsertIntoOpenBlocks(out->open.data(), plan.geometry, key));
  }
  return Status::Ok();
}

}  // namespace

int InsertIntoOpenBlocks(char* blocks, const FuseGeometry& geometry, uint64_t key_hash) {
  uint64_t* block = reinterpret_cast<uint64_t*>(blocks) +
                    bloom::BlockIndex(key_hash, geometry.open_blocks) * 8;
  return bloom::BlockInsert(block, bloom::MakeProbeMask(key_hash, geometry.open_probes));
}

RebuiltFilters BuildFilters(const RebuildPlan& plan, const FilterPageStore* store) {
  RebuiltFilters out;
  out.oldest = plan.oldest;
  out.newest = plan.newest;
  out.status = Build(plan, store, &out);
  return out;
}

}  // namespace pagesieve::store::fuse
