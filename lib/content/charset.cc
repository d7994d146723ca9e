#include "content/charset.h"

#include <string>
#include <unordered_map>

#include "content/html_tokenizer.h"
#include "content/media_type.h"

namespace pagesieve::content {
namespace {

// The encodings we decode; glibc iconv does the work for all but UTF-8.
const Encoding kUtf8{"utf-8", nullptr};
// clang-format off
const Encoding kEncodings[] = {
    {"ibm866", "IBM866"},           {"iso-8859-2", "ISO-8859-2"},   {"iso-8859-3", "ISO-8859-3"},
    {"iso-8859-4", "ISO-8859-4"},   {"iso-8859-5", "ISO-8859-5"},   {"iso-8859-6", "ISO-8859-6"},
    {"iso-8859-7", "ISO-8859-7"},   {"iso-8859-8", "ISO-8859-8"},   {"iso-8859-10", "ISO-8859-10"},
    {"iso-8859-13", "ISO-8859-13"}, {"iso-8859-14", "ISO-8859-14"}, {"iso-8859-15", "ISO-8859-15"},
    {"iso-8859-16", "ISO-8859-16"}, {"koi8-r", "KOI8-R"},           {"koi8-u", "KOI8-U"},
    {"macintosh", "MACINTOSH"},     {"windows-874", "CP874"},       {"windows-1250", "CP1250"},
    {"windows-1251", "CP1251"},     {"windows-1252", "CP1252"},     {"windows-1253", "CP1253"},
    {"windows-1254", "CP1254"},     {"windows-1255", "CP1255"},     {"windows-1256", "CP1256"},
    {"windows-1257", "CP1257"},     {"windows-1258", "CP1258"},     {"x-mac-cyrillic", "MAC-CYRILLIC"},
    {"gbk", "GBK"},                 {"gb18030", "GB18030"},         {"big5", "BIG5-HKSCS"},
    {"euc-jp", "EUC-JP"},           {"iso-2022-jp", "ISO-2022-JP"}, {"shift_jis", "CP932"},
    {"euc-kr", "CP949"},            {"utf-16be", "UTF-16BE"},       {"utf-16le", "UTF-16LE"},
};
// clang-format on

const Encoding* Named(std::string_view name) {
  if (name == kUtf8.name) return &kUtf8;
  for (const Encoding& e : kEncodings) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// WHATWG Encoding Standard labels (the common ones) → encoding names.
const std::unordered_map<std::string_view, std::string_view>& Labels() {
  // clang-format off
  static const std::unordered_map<std::string_view, std::string_view> labels{
      {"unicode-1-1-utf-8", "utf-8"}, {"unicode11utf8", "utf-8"}, {"unicode20utf8", "utf-8"},
      {"utf-8", "utf-8"}, {"utf8", "utf-8"}, {"x-unicode20utf8", "utf-8"},
      {"866", "ibm866"}, {"cp866", "ibm866"}, {"csibm866", "ibm866"}, {"ibm866", "ibm866"},
      {"iso-8859-2", "iso-8859-2"}, {"iso8859-2", "iso-8859-2"}, {"iso88592", "iso-8859-2"},
      {"iso_8859-2", "iso-8859-2"}, {"latin2", "iso-8859-2"}, {"l2", "iso-8859-2"},
      {"iso-8859-3", "iso-8859-3"}, {"iso8859-3", "iso-8859-3"}, {"latin3", "iso-8859-3"},
      {"iso-8859-4", "iso-8859-4"}, {"iso8859-4", "iso-8859-4"}, {"latin4", "iso-8859-4"},
      {"iso-8859-5", "iso-8859-5"}, {"iso8859-5", "iso-8859-5"}, {"cyrillic", "iso-8859-5"},
      {"iso-8859-6", "iso-8859-6"}, {"iso8859-6", "iso-8859-6"}, {"arabic", "iso-8859-6"},
      {"iso-8859-7", "iso-8859-7"}, {"iso8859-7", "iso-8859-7"}, {"greek", "iso-8859-7"},
      {"iso-8859-8", "iso-8859-8"}, {"iso8859-8", "iso-8859-8"}, {"hebrew", "iso-8859-8"},
      {"iso-8859-8-i", "iso-8859-8"}, {"logical", "iso-8859-8"}, {"visual", "iso-8859-8"},
      {"iso-8859-10", "iso-8859-10"}, {"latin6", "iso-8859-10"}, {"iso-8859-13", "iso-8859-13"},
      {"iso-8859-14", "iso-8859-14"}, {"iso-8859-15", "iso-8859-15"}, {"iso8859-15", "iso-8859-15"},
      {"iso_8859-15", "iso-8859-15"}, {"latin9", "iso-8859-15"}, {"l9", "iso-8859-15"},
      {"iso-8859-16", "iso-8859-16"}, {"koi8-r", "koi8-r"}, {"koi8r", "koi8-r"}, {"koi", "koi8-r"},
      {"koi8", "koi8-r"}, {"koi8-u", "koi8-u"}, {"koi8-ru", "koi8-u"}, {"macintosh", "macintosh"},
      {"mac", "macintosh"}, {"x-mac-roman", "macintosh"}, {"csmacintosh", "macintosh"},
      {"windows-874", "windows-874"}, {"tis-620", "windows-874"}, {"iso-8859-11", "windows-874"},
      {"dos-874", "windows-874"}, {"cp1250", "windows-1250"}, {"windows-1250", "windows-1250"},
      {"x-cp1250", "windows-1250"}, {"cp1251", "windows-1251"}, {"windows-1251", "windows-1251"},
      {"x-cp1251", "windows-1251"}, {"ansi_x3.4-1968", "windows-1252"}, {"ascii", "windows-1252"},
      {"cp1252", "windows-1252"}, {"cp819", "windows-1252"}, {"csisolatin1", "windows-1252"},
      {"ibm819", "windows-1252"}, {"iso-8859-1", "windows-1252"}, {"iso-ir-100", "windows-1252"},
      {"iso8859-1", "windows-1252"}, {"iso88591", "windows-1252"}, {"iso_8859-1", "windows-1252"},
      {"iso_8859-1:1987", "windows-1252"}, {"l1", "windows-1252"}, {"latin1", "windows-1252"},
      {"us-ascii", "windows-1252"}, {"windows-1252", "windows-1252"}, {"x-cp1252", "windows-1252"},
      {"x-user-defined", "windows-1252"}, {"cp1253", "windows-1253"}, {"windows-1253", "windows-1253"},
      {"cp1254", "windows-1254"}, {"windows-1254", "windows-1254"}, {"iso-8859-9", "windows-1254"},
      {"iso8859-9", "windows-1254"}, {"latin5", "windows-1254"}, {"l5", "windows-1254"},
      {"cp1255", "windows-1255"}, {"windows-1255", "windows-1255"}, {"cp1256", "windows-1256"},
      {"windows-1256", "windows-1256"}, {"cp1257", "windows-1257"}, {"windows-1257", "windows-1257"},
      {"cp1258", "windows-1258"}, {"windows-1258", "windows-1258"},
      {"x-mac-cyrillic", "x-mac-cyrillic"}, {"x-mac-ukrainian", "x-mac-cyrillic"},
      {"chinese", "gbk"}, {"csgb2312", "gbk"}, {"gb2312", "gbk"}, {"gb_2312", "gbk"},
      {"gb_2312-80", "gbk"}, {"gbk", "gbk"}, {"iso-ir-58", "gbk"}, {"x-gbk", "gbk"},
      {"gb18030", "gb18030"}, {"big5", "big5"}, {"big5-hkscs", "big5"}, {"cn-big5", "big5"},
      {"csbig5", "big5"}, {"x-x-big5", "big5"}, {"euc-jp", "euc-jp"}, {"cseucpkdfmtjapanese", "euc-jp"},
      {"x-euc-jp", "euc-jp"}, {"iso-2022-jp", "iso-2022-jp"}, {"csiso2022jp", "iso-2022-jp"},
      {"shift_jis", "shift_jis"}, {"shift-jis", "shift_jis"}, {"sjis", "shift_jis"},
      {"ms932", "shift_jis"}, {"ms_kanji", "shift_jis"}, {"windows-31j", "shift_jis"},
      {"x-sjis", "shift_jis"}, {"csshiftjis", "shift_jis"}, {"euc-kr", "euc-kr"},
      {"cseuckr", "euc-kr"}, {"ks_c_5601-1987", "euc-kr"}, {"ks_c_5601-1989", "euc-kr"},
      {"korean", "euc-kr"}, {"windows-949", "euc-kr"}, {"ksc5601", "euc-kr"},
      {"utf-16be", "utf-16be"}, {"unicodefffe", "utf-16be"}, {"utf-16", "utf-16le"},
      {"utf-16le", "utf-16le"}, {"unicode", "utf-16le"}, {"ucs-2", "utf-16le"},
  };
  // clang-format on
  return labels;
}

}  // namespace

const Encoding& Utf8Encoding() { return kUtf8; }

const Encoding* EncodingForLabel(std::string_view label) {
  label = TrimAsciiSpace(label);
  if (label.empty() || label.size() > 32) return nullptr;
  std::string lower;
  for (char c : label) lower.push_back(AsciiLower(c));
  const auto& labels = Labels();
  const auto it = labels.find(lower);
  return it == labels.end() ? nullptr : Named(it->second);
}

const Encoding* EncodingFromBom(std::string_view body, size_t* bom_length) {
  *bom_length = 0;
  if (body.starts_with("\xEF\xBB\xBF")) {
    *bom_length = 3;
    return &kUtf8;
  }
  if (body.starts_with("\xFE\xFF")) {
    *bom_length = 2;
    return Named("utf-16be");
  }
  if (body.starts_with("\xFF\xFE")) {
    *bom_length = 2;
    return Named("utf-16le");
  }
  return nullptr;
}

std::string_view CharsetFromContentAttribute(std::string_view content) {
  for (size_t at = 0; (at = content.find_first_of("cC", at)) != std::string_view::npos; ++at) {
    if (!StartsWithIgnoreCase(content.substr(at), "charset")) continue;
    std::string_view rest = content.substr(at + 7);
    while (!rest.empty() && IsAsciiSpace(rest.front())) rest.remove_prefix(1);
    if (rest.empty() || rest.front() != '=') continue;
    rest.remove_prefix(1);
    while (!rest.empty() && IsAsciiSpace(rest.front())) rest.remove_prefix(1);
    if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) {
      const char quote = rest.front();
      rest.remove_prefix(1);
      return rest.substr(0, rest.find(quote));
    }
    size_t end = 0;
    while (end < rest.size() && !IsAsciiSpace(rest[end]) && rest[end] != ';') ++end;
    return rest.substr(0, end);
  }
  return {};
}

const Encoding* EncodingFromMeta(std::string_view body) {
  HtmlTokenizer tokenizer(body.substr(0, 1024));
  HtmlToken token;
  for (tokenizer.Next(&token); token.kind != HtmlToken::Kind::kEnd; tokenizer.Next(&token)) {
    if (token.kind != HtmlToken::Kind::kStartTag || token.tag != Tag::kMeta) continue;
    std::string_view value;
    std::string_view label;
    if (token.FindAttribute("charset", &value)) {
      label = value;
    } else if (token.FindAttribute("http-equiv", &value) &&
               EqualsIgnoreCase(TrimAsciiSpace(value), "content-type") &&
               token.FindAttribute("content", &value)) {
      label = CharsetFromContentAttribute(value);
    }
    if (label.empty()) continue;
    const Encoding* encoding = EncodingForLabel(label);
    if (encoding == nullptr) continue;
    if (encoding->name.starts_with("utf-16")) return &kUtf8;
    return encoding;
  }
  return nullptr;
}

}  // namespace pagesieve::content
