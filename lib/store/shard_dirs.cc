// FindShards: the shard directories under a state directory.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>
#include <tuple>

#include "store/shard_inspector.h"

namespace pagesieve::store {
namespace {

namespace fs = std::filesystem;

// RocksDB's pointer to the current manifest: every database has one.
bool HoldsDatabase(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "CURRENT", ec);
}

// "topic-12" → ("topic-", 12): partitions sort as numbers, so topic-10
// comes after topic-9. A name without trailing digits sorts by itself.
std::tuple<std::string_view, bool, uint64_t, std::string_view> SortKey(std::string_view name) {
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  const std::string_view number = name.substr(digits);
  if (number.empty() || number.size() > 18) return {name, false, 0, name};
  uint64_t n = 0;
  for (char c : number) n = n * 10 + static_cast<uint64_t>(c - '0');
  return {name.substr(0, digits), true, n, name};
}

}  // namespace

StatusOr<std::vector<ShardDirEntry>> FindShards(const std::string& state_dir) {
  std::error_code ec;
  if (!fs::is_directory(state_dir, ec)) {
    return Status::NotFound("state directory " + state_dir + " does not exist");
  }
  std::vector<ShardDirEntry> shards;
  if (HoldsDatabase(state_dir)) {
    const fs::path p = fs::path(state_dir).lexically_normal();
    std::string name = (p.has_filename() ? p : p.parent_path()).filename().string();
    shards.push_back({name.empty() ? state_dir : name, state_dir});
    return shards;
  }
  for (fs::directory_iterator it(state_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code dir_ec;
    if (it->is_directory(dir_ec) && HoldsDatabase(it->path())) {
      shards.push_back({it->path().filename().string(), it->path().string()});
    }
  }
  if (ec) return Status::IoError("cannot list " + state_dir + ": " + ec.message());
  std::sort(shards.begin(), shards.end(), [](const ShardDirEntry& a, const ShardDirEntry& b) {
    return SortKey(a.name) < SortKey(b.name);
  });
  return shards;
}

}  // namespace pagesieve::store
