#include "state/stats_report.h"

#include <cstdio>

#include "common/duration.h"

namespace pagesieve::state {
namespace {

std::string Percent(double fraction) {
  if (fraction == 0) return "0 %";
  if (fraction < 1e-5) return "< 0.001 %";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %%", fraction * 100);
  return buf;
}

std::string Field(const char* name, const std::string& value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "  %-21s", name);
  return buf + value + "\n";
}

std::string StoreLine(const char* name, const store::StoreFigures& f) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "    %-12s ~%-12llu", name,
                static_cast<unsigned long long>(f.estimated_entries));
  std::string line = buf;
  if (f.stored) line += " stored " + std::to_string(*f.stored);
  if (f.live) line += ", live " + std::to_string(*f.live);
  if (f.banded) line += " (" + std::to_string(*f.banded) + " with a sketch in the lsh bands)";
  if (f.whole && f.stored && *f.whole != *f.stored) {
    // A routed near owner: slim rows, and the entries it is the home of.
    line += ", " + std::to_string(*f.whole) + " kept whole";
  }
  line += (f.stored ? ", " : " ") + FormatBytes(f.sst_bytes) + " in SST files\n";
  if (f.index_rows) {
    // A routed near owner's share shows here: fewer rows than all.
    const store::StoreFigures::IndexRows& r = *f.index_rows;
    line += "    " + std::string(13, ' ') + "index rows held: " + std::to_string(r.simhash) +
            " of " + std::to_string(r.simhash_of) + " simhash, " + std::to_string(r.lsh) +
            " of " + std::to_string(r.lsh_of) + " lsh" +
            (r.simhash < r.simhash_of || r.lsh < r.lsh_of ? " (a routed near owner's share)"
                                                          : "") +
            "\n";
  }
  return line;
}

std::string LshText(const std::optional<store::LshFigures>& lsh) {
  if (!lsh) return Field("lsh bands", "none (near.minhash_slots = 0)");
  char threshold[32];
  std::snprintf(threshold, sizeof threshold, "%g", lsh->threshold);
  return Field("lsh bands", std::to_string(lsh->bands) + " of " + std::to_string(lsh->rows) +
                                " rows for jaccard " + threshold + " (" +
                                std::to_string(lsh->slots) + " slots of " +
                                std::to_string(lsh->bits) +
                                " bits; configured, rebuilt in memory at open)");
}

const char* KindName(store::FilterKind kind) {
  switch (kind) {
    case store::FilterKind::kCuckoo:
      return "cuckoo";
    case store::FilterKind::kFuse:
      return "fuse";
    case store::FilterKind::kBloom:
      break;
  }
  return "bloom";
}

std::string BloomText(const std::optional<store::BloomFigures>& bloom) {
  if (!bloom) return Field("url bloom filter", "none stored (no checkpoint yet)");
  const store::BloomFigures& b = *bloom;
  std::string text = Field("url bloom filter",
                           "fill " + Percent(b.fill_ratio) + ", estimated false positives " +
                               Percent(b.estimated_false_positive_rate) + ", " +
                               FormatBytes(b.memory_bytes) + " of memory in a running pagesieve");
  text += Field("", std::string(KindName(b.kind)) + " filter built for " +
                        std::to_string(b.options.expected_items) + " URLs at " +
                        Percent(b.options.false_positive_rate) + " over " +
                        FormatDuration(b.options.ttl) + ", " +
                        std::to_string(b.options.generations) + " generations");
  if (!b.matches_config) {
    text += Field("",
                  "differs from the url.* configuration: a pagesieve in url.mode = exact "
                  "rebuilds it when it next opens the shard");
  }
  return text;
}

std::string ShardText(const NamedReport& s) {
  const store::ShardReport& r = s.report;
  std::string text = "shard " + s.name + "  (" + r.dir + ")\n";
  text += Field("watermark", r.checkpointed_offset ? FormatTime(r.watermark) : "none");
  text += Field("checkpointed offset",
                r.checkpointed_offset
                    ? std::to_string(r.checkpointed_offset->value()) + " (next input offset)"
                    : "none: never checkpointed");
  text += Field("fingerprint version", std::to_string(r.identity.fingerprint_version));
  text += Field("simhash tables", std::to_string(r.identity.near_tables) + " for max distance " +
                                      std::to_string(r.identity.near_max_distance) + " (" +
                                      std::to_string(r.identity.near_blocks) + " blocks)");
  text += LshText(r.lsh);
  text += Field("disk", FormatBytes(r.dir_bytes) + " in the directory, " +
                            FormatBytes(r.sst_bytes) + " of it live SST files");
  const bool counted = r.url.stored.has_value();
  text += counted ? "  entries (~RocksDB estimate; stored and live counted by a scan):\n"
                  : "  entries (~RocksDB estimates: expired entries count until compacted):\n";
  text += StoreLine("url", r.url) + StoreLine("exact", r.exact) + StoreLine("near", r.near);
  return text + BloomText(r.bloom);
}

Json StoreJson(const store::StoreFigures& f) {
  Json j{{"estimated_entries", f.estimated_entries}, {"sst_bytes", f.sst_bytes}};
  if (f.stored) j["stored"] = *f.stored;
  if (f.live) j["live"] = *f.live;
  if (f.banded) j["banded"] = *f.banded;
  if (f.whole) j["whole"] = *f.whole;
  if (f.index_rows) {
    j["index_rows"] = {{"simhash", f.index_rows->simhash},
                       {"simhash_of", f.index_rows->simhash_of},
                       {"lsh", f.index_rows->lsh},
                       {"lsh_of", f.index_rows->lsh_of}};
  }
  return j;
}

Json BloomJson(const std::optional<store::BloomFigures>& bloom) {
  if (!bloom) return nullptr;
  return Json{{"filter", KindName(bloom->kind)},
              {"expected_items", bloom->options.expected_items},
              {"false_positive_rate", bloom->options.false_positive_rate},
              {"generations", bloom->options.generations},
              {"ttl", FormatDuration(bloom->options.ttl)},
              {"matches_config", bloom->matches_config},
              {"memory_bytes", bloom->memory_bytes},
              {"fill_ratio", bloom->fill_ratio},
              {"estimated_false_positive_rate", bloom->estimated_false_positive_rate},
              {"live_generations", bloom->live_generations}};
}

Json ShardJson(const NamedReport& s) {
  const store::ShardReport& r = s.report;
  Json j{{"name", s.name}, {"dir", r.dir}};
  j["watermark"] = r.checkpointed_offset ? Json(FormatTime(r.watermark)) : Json(nullptr);
  j["checkpointed_offset"] =
      r.checkpointed_offset ? Json(r.checkpointed_offset->value()) : Json(nullptr);
  j["fingerprint_version"] = r.identity.fingerprint_version;
  j["format_version"] = r.identity.format_version;
  j["simhash_tables"] = {{"max_distance", r.identity.near_max_distance},
                         {"blocks", r.identity.near_blocks},
                         {"tables", r.identity.near_tables}};
  j["lsh_bands"] = r.lsh ? Json{{"bands", r.lsh->bands},
                                {"rows", r.lsh->rows},
                                {"jaccard", r.lsh->threshold},
                                {"slots", r.lsh->slots},
                                {"bits", r.lsh->bits}}
                         : Json(nullptr);
  j["disk_bytes"] = r.dir_bytes;
  j["sst_bytes"] = r.sst_bytes;
  j["entries"] = {
      {"url", StoreJson(r.url)}, {"exact", StoreJson(r.exact)}, {"near", StoreJson(r.near)}};
  j["url_bloom"] = BloomJson(r.bloom);
  return j;
}

}  // namespace

std::string StatsText(const std::vector<NamedReport>& shards) {
  std::string text;
  for (size_t i = 0; i < shards.size(); ++i) {
    if (i > 0) text += "\n";
    text += ShardText(shards[i]);
  }
  return text;
}

Json StatsJson(const std::string& state_dir, const std::vector<NamedReport>& shards) {
  Json list = Json::array();
  for (const NamedReport& s : shards) list.push_back(ShardJson(s));
  return Json{{"state_dir", state_dir}, {"shards", std::move(list)}};
}

}  // namespace pagesieve::state
