#include "dataset.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace pagesieve::content::bench {
namespace {

namespace fs = std::filesystem;

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("cannot read " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};

}  // namespace

std::string DefaultDataDir() { return PAGESIEVE_SOURCE_DIR "/../shared/data/extraction"; }

StatusOr<std::string> ReadGzipFile(const std::string& path) {
  std::unique_ptr<gzFile_s, GzCloser> file(gzopen(path.c_str(), "rb"));
  if (!file) return Status::IoError("cannot open " + path);
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(file.get(), buf, sizeof(buf))) > 0) out.append(buf, n);
  if (n < 0) return Status::Corruption("bad gzip data in " + path);
  return out;
}

StatusOr<std::vector<Page>> LoadTrafilaturaEval(const std::string& dir) {
  PS_ASSIGN_OR_RETURN(std::string json_text, ReadFile(dir + "/evaldata.json"));
  nlohmann::json index = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!index.is_object()) return Status::Corruption("evaldata.json is not a JSON object");
  std::vector<Page> pages;
  for (const auto& [url, entry] : index.items()) {
    Page page;
    page.name = entry.value("file", "");
    std::string path = dir + "/eval/" + page.name + ".gz";
    if (!fs::exists(path)) path = dir + "/cache/" + page.name + ".gz";
    PS_ASSIGN_OR_RETURN(page.html, ReadGzipFile(path));
    page.with = entry.value("with", std::vector<std::string>{});
    page.without = entry.value("without", std::vector<std::string>{});
    pages.push_back(std::move(page));
  }
  std::sort(pages.begin(), pages.end(),
            [](const Page& a, const Page& b) { return a.name < b.name; });
  return pages;
}

StatusOr<std::vector<Page>> LoadReadabilityPages(const std::string& dir) {
  std::vector<fs::path> folders;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir + "/pages", ec)) folders.push_back(e.path());
  if (ec) return Status::IoError("cannot list " + dir + "/pages: " + ec.message());
  std::sort(folders.begin(), folders.end());
  std::vector<Page> pages;
  for (const fs::path& folder : folders) {
    Page page;
    page.name = folder.filename().string();
    PS_ASSIGN_OR_RETURN(page.html, ReadGzipFile((folder / "source.html.gz").string()));
    PS_ASSIGN_OR_RETURN(page.expected_html, ReadGzipFile((folder / "expected.html.gz").string()));
    auto meta = ReadFile((folder / "expected-metadata.json").string());
    if (meta.ok()) {
      nlohmann::json m = nlohmann::json::parse(*meta, nullptr, false);
      if (m.is_object() && m["title"].is_string()) page.expected_title = m["title"];
    }
    pages.push_back(std::move(page));
  }
  return pages;
}

}  // namespace pagesieve::content::bench
