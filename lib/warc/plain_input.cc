#include <cerrno>
#include <cstring>

#include "warc/byte_input.h"

namespace pagesieve::warc {
namespace {

class PlainFileInput final : public ByteInput {
 public:
  PlainFileInput(std::FILE* file, std::string name) : file_(file), name_(std::move(name)) {}

  StatusOr<size_t> Read(std::string* out, size_t max) override {
    const size_t old = out->size();
    out->resize(old + max);
    const size_t n = std::fread(out->data() + old, 1, max, file_);
    out->resize(old + n);
    if (n == 0 && std::ferror(file_)) {
      return Status::IoError("cannot read input '" + name_ + "': " + std::strerror(errno));
    }
    return n;
  }
  int64_t FileOffsetOf(int64_t pos) const override { return pos; }
  std::optional<Damage> NextDamage() const override { return std::nullopt; }
  void TakeDamage() override {}
  void Forget(int64_t) override {}

 private:
  std::FILE* const file_;
  const std::string name_;
};

}  // namespace

std::unique_ptr<ByteInput> PlainInput(std::FILE* file, std::string name) {
  return std::make_unique<PlainFileInput>(file, std::move(name));
}

}  // namespace pagesieve::warc
