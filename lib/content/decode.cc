// DecodeToUtf8: pick the encoding (BOM, content type, <meta>), then either
// repair UTF-8 in place of copying it or convert with glibc iconv.

#include <errno.h>
#include <iconv.h>

#include <string>
#include <utility>
#include <vector>

#include "content/charset.h"
#include "content/content.h"
#include "content/media_type.h"
#include "content/utf8.h"

namespace pagesieve::content {
namespace {

// iconv descriptors are costly to open and not thread-safe, so each thread
// keeps the ones it has used (a handful at most: one per encoding seen).
class IconvCache {
 public:
  ~IconvCache() {
    for (auto& [name, cd] : open_) iconv_close(cd);
  }
  // nullptr when glibc cannot convert from `from`.
  iconv_t Get(const char* from) {
    for (auto& [name, cd] : open_) {
      if (name == from) {
        iconv(cd, nullptr, nullptr, nullptr, nullptr);  // reset shift state
        return cd;
      }
    }
    iconv_t cd = iconv_open("UTF-8", from);
    if (cd == reinterpret_cast<iconv_t>(-1)) return nullptr;
    open_.emplace_back(from, cd);
    return cd;
  }

 private:
  std::vector<std::pair<std::string, iconv_t>> open_;
};

// Converts with iconv; every byte it rejects becomes U+FFFD. False when the
// encoding is not available.
bool ConvertWithIconv(const char* from, std::string_view body, std::string* out) {
  thread_local IconvCache cache;
  iconv_t cd = cache.Get(from);
  if (cd == nullptr) return false;
  out->clear();
  out->resize(body.size() * 2 + 16);
  char* in = const_cast<char*>(body.data());
  size_t in_left = body.size();
  size_t written = 0;
  while (in_left > 0) {
    char* dst = out->data() + written;
    size_t out_left = out->size() - written;
    const size_t rc = iconv(cd, &in, &in_left, &dst, &out_left);
    written = out->size() - out_left;
    if (rc != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) {
      out->resize(out->size() * 2);
      continue;
    }
    // EILSEQ (invalid byte) or EINVAL (truncated sequence at the end).
    out->resize(std::max(out->size(), written + kReplacementChar.size() + 16));
    out->replace(written, kReplacementChar.size(), kReplacementChar);
    written += kReplacementChar.size();
    ++in;
    --in_left;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
  }
  out->resize(written);
  return true;
}

// The encoding of `body`, in order of precedence: BOM, the content type's
// charset, an HTML <meta> declaration, UTF-8.
const Encoding& ChooseEncoding(std::string_view body, std::string_view content_type,
                               size_t* bom_length) {
  if (const Encoding* bom = EncodingFromBom(body, bom_length)) return *bom;
  const MediaType media = ParseContentType(content_type);
  if (const Encoding* declared = EncodingForLabel(media.charset)) return *declared;
  // <meta> declarations count unless the type says the body is other text.
  const bool other_text = media.essence.starts_with("text/") && media.essence != "text/html";
  if (!other_text) {
    if (const Encoding* meta = EncodingFromMeta(body)) return *meta;
  }
  return Utf8Encoding();
}

}  // namespace

std::string DecodeToUtf8(std::string_view body, std::string_view content_type) {
  size_t bom_length = 0;
  const Encoding& encoding = ChooseEncoding(body, content_type, &bom_length);
  body.remove_prefix(bom_length);
  std::string out;
  if (encoding.iconv_name != nullptr && ConvertWithIconv(encoding.iconv_name, body, &out)) {
    // glibc emits valid UTF-8; checking costs little and keeps the promise.
    if (ValidUtf8PrefixLength(out) == out.size()) return out;
    body = out;
    std::string repaired;
    AppendRepairedUtf8(body, &repaired);
    return repaired;
  }
  out.reserve(body.size());
  AppendRepairedUtf8(body, &out);
  return out;
}

}  // namespace pagesieve::content
