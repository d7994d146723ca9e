// What the near tier sees of each labelled duplicate in a crawlgen stream:
// a diagnostic for missed copies (not a benchmark).
//
//   near_pairs STREAM.jsonl [--variant NAME] [--set key=value]...
//
// Fingerprints every event of the stream with the default configuration
// (and --set changes) and prints, for each event labelled a duplicate (of
// the variant, if given), one tab-separated line: variant, its event id,
// its original's, both token counts, both sketches' set sizes, the
// estimated Jaccard, the estimated containment (how much of the smaller set
// the larger holds), the SimHash distance and both titles. "-" where a page
// has no sketch. This is how the syndicated copies that `scope.key =
// global` missed were sorted into causes (docs/engine.md, "Containment").

#include <bit>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.h"
#include "engine/base64.h"
#include "fingerprint/fingerprinter.h"

namespace pagesieve::fingerprint::bench {
namespace {

struct Page {
  std::string variant;
  std::string of;
  PageFingerprint fp;
};

std::string Size(const PageFingerprint& fp) {
  return fp.minhash ? std::to_string(fp.minhash->set_size()) : "-";
}

void PrintPair(const std::string& id, const Page& copy, const Page& orig) {
  std::string jaccard = "-", containment = "-", distance = "-";
  if (copy.fp.minhash && orig.fp.minhash) {
    StatusOr<double> j = EstimateJaccard(*copy.fp.minhash, *orig.fp.minhash);
    if (j.ok()) {
      jaccard = std::to_string(*j).substr(0, 5);
      std::optional<double> c =
          EstimateContainment(*j, copy.fp.minhash->set_size(), orig.fp.minhash->set_size());
      if (c) containment = std::to_string(*c).substr(0, 5);
    }
  }
  if (copy.fp.simhash && orig.fp.simhash) {
    distance = std::to_string(std::popcount(*copy.fp.simhash ^ *orig.fp.simhash));
  }
  std::printf("%s\t%s\t%s\t%u/%u\t%s/%s\tJ=%s\tC=%s\td=%s\t%s\t%s\n", copy.variant.c_str(),
              id.c_str(), copy.of.c_str(), orig.fp.tokens, copy.fp.tokens, Size(orig.fp).c_str(),
              Size(copy.fp).c_str(), jaccard.c_str(), containment.c_str(), distance.c_str(),
              orig.fp.title.c_str(), copy.fp.title.c_str());
}

int Run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: near_pairs STREAM.jsonl [--variant NAME] [--set key=value]...\n");
    return 2;
  }
  std::string variant;
  std::vector<std::string> sets;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--variant") variant = argv[i + 1];
    if (flag == "--set") sets.emplace_back(argv[i + 1]);
  }
  StatusOr<Config> config = Config::Load(std::nullopt, sets);
  if (!config.ok()) {
    std::fprintf(stderr, "near_pairs: %s\n", config.status().ToString().c_str());
    return 2;
  }
  StatusOr<FingerprintOptions> options = FingerprintOptionsFromConfig(*config);
  if (!options.ok()) {
    std::fprintf(stderr, "near_pairs: %s\n", options.status().ToString().c_str());
    return 2;
  }
  Fingerprinter fingerprinter(*options);
  std::ifstream in(argv[1]);
  std::map<std::string, Page> pages;
  std::vector<std::string> duplicates;  // in stream order
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json e = nlohmann::json::parse(line);
    const nlohmann::json& label = e["label"];
    const std::string id = e["event_id"];
    std::string body = e.value("body", "");
    if (e.contains("body_base64")) {
      StatusOr<std::string> raw = engine::DecodeBase64(e["body_base64"].get<std::string>());
      if (raw.ok()) body = std::move(raw).value();
    }
    const std::string type = e.value("content_type", "");
    StatusOr<PageFingerprint> fp = fingerprinter.Fingerprint({e["url"].get<std::string>(), type,
                                                              body, std::nullopt});
    if (!fp.ok()) continue;
    Page page{label["variant"], label["of"].is_string() ? label["of"].get<std::string>() : "",
              std::move(fp).value()};
    if (!page.of.empty() && (variant.empty() || page.variant == variant)) duplicates.push_back(id);
    pages.emplace(id, std::move(page));
  }
  for (const std::string& id : duplicates) {
    const Page& copy = pages.at(id);
    auto orig = pages.find(copy.of);
    if (orig != pages.end()) PrintPair(id, copy, orig->second);
  }
  return 0;
}

}  // namespace
}  // namespace pagesieve::fingerprint::bench

int main(int argc, char** argv) { return pagesieve::fingerprint::bench::Run(argc, argv); }
