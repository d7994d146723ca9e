#include "commands/canonicalize_command.h"

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "cli/command.h"

namespace pagesieve::commands {
namespace {

constexpr size_t kBlock = size_t{1} << 20;

// Collects output lines and writes them in large blocks.
class BlockWriter {
 public:
  explicit BlockWriter(std::FILE* out) : out_(out) { buffer_.reserve(kBlock + 64 * 1024); }

  void Line(std::string_view a, std::string_view b = {}) {
    buffer_.append(a);
    buffer_.append(b);
    buffer_.push_back('\n');
    if (buffer_.size() >= kBlock) Flush();
  }

  bool Flush() {
    if (!buffer_.empty() &&
        std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size()) {
      ok_ = false;
    }
    buffer_.clear();
    return ok_;
  }

  bool ok() const { return ok_; }

 private:
  std::FILE* out_;
  std::string buffer_;
  bool ok_ = true;
};

struct LineCounts {
  size_t errors = 0;
};

void Answer(const url::Canonicalizer& canonicalizer, std::string_view line, BlockWriter* writer,
            LineCounts* counts) {
  StatusOr<url::CanonicalUrl> canonical = canonicalizer.Canonicalize(line);
  if (canonical.ok()) {
    writer->Line(canonical->spec);
  } else {
    ++counts->errors;
    writer->Line("!error: ", canonical.status().message());
  }
}

}  // namespace

StatusOr<size_t> CanonicalizeLines(const url::Canonicalizer& canonicalizer, std::FILE* in,
                                   std::FILE* out) {
  const size_t max_line = kBlock + canonicalizer.options().max_length;
  BlockWriter writer(out);
  LineCounts counts;
  std::string pending;    // the start of a line cut by a block boundary
  bool overlong = false;  // skipping the rest of a line that is too long
  auto buffer = std::make_unique<char[]>(kBlock);
  size_t got;
  while ((got = std::fread(buffer.get(), 1, kBlock, in)) > 0) {
    std::string_view block(buffer.get(), got);
    while (!block.empty()) {
      const size_t newline = block.find('\n');
      const std::string_view piece = block.substr(0, newline);
      if (!overlong) pending.append(piece);
      if (pending.size() > max_line) {
        overlong = true;
        pending.clear();
      }
      if (newline == std::string_view::npos) break;
      block.remove_prefix(newline + 1);
      if (overlong) {
        ++counts.errors;
        writer.Line("!error: URL longer than url.max_length");
      } else {
        Answer(canonicalizer, pending, &writer, &counts);
      }
      pending.clear();
      overlong = false;
    }
    if (!writer.ok()) break;
  }
  if (std::ferror(in)) return Status::IoError("cannot read standard input");
  if (overlong) {
    ++counts.errors;
    writer.Line("!error: URL longer than url.max_length");
  } else if (!pending.empty()) {
    Answer(canonicalizer, pending, &writer, &counts);
  }
  if (!writer.Flush() || std::fflush(out) != 0) {
    return Status::IoError("cannot write standard output");
  }
  return counts.errors;
}

Command RegisterCanonicalizeCommand(CLI::App& app) {
  auto flags = std::make_shared<cli::ConfigFlags>();
  CLI::App* sub = app.add_subcommand(
      "canonicalize",
      "Read URLs, one per line, from standard input; write each one's canonical form (or "
      "\"!error: <reason>\") on its own line");
  flags->AddTo(*sub);
  return Command{sub, [flags]() {
                   StatusOr<Config> config = flags->Load();
                   if (!config.ok()) {
                     cli::PrintError(config.status());
                     return cli::kExitUsage;
                   }
                   StatusOr<url::CanonicalizerOptions> options =
                       url::CanonicalizerOptionsFromConfig(*config);
                   if (!options.ok()) {
                     cli::PrintError(options.status());
                     return cli::kExitUsage;
                   }
                   const url::Canonicalizer canonicalizer(std::move(*options));
                   StatusOr<size_t> errors = CanonicalizeLines(canonicalizer, stdin, stdout);
                   if (!errors.ok()) {
                     cli::PrintError(errors.status());
                     return cli::kExitFailure;
                   }
                   return cli::kExitOk;  // lines that are errors are answered, not failures
                 }};
}

}  // namespace pagesieve::commands
