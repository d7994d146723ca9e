#include "content/html_tags.h"

#include <array>
#include <cstring>

#include "content/media_type.h"

namespace pagesieve::content {
namespace {

constexpr size_t kTagCount = static_cast<size_t>(Tag::kCount);

constexpr std::array<std::string_view, kTagCount> kNames = {"", "#text", "#root",
#define PAGESIEVE_TAG_NAME(id, name) name,
                                                            PAGESIEVE_HTML_TAGS(PAGESIEVE_TAG_NAME)
#undef PAGESIEVE_TAG_NAME
};

struct TraitEntry {
  Tag tag;
  uint16_t traits;
};

constexpr uint16_t kBlockP = kBlock | kClosesP;

// clang-format off
constexpr TraitEntry kTraitTable[] = {
    {Tag::kArea, kVoid}, {Tag::kBase, kVoid}, {Tag::kBr, kVoid}, {Tag::kCol, kVoid},
    {Tag::kEmbed, kVoid | kBoilerplate | kEmbedded}, {Tag::kHr, kVoid | kBlockP},
    {Tag::kImg, kVoid}, {Tag::kInput, kVoid | kBoilerplate}, {Tag::kKeygen, kVoid},
    {Tag::kLink, kVoid}, {Tag::kMeta, kVoid}, {Tag::kParam, kVoid}, {Tag::kSource, kVoid},
    {Tag::kTrack, kVoid}, {Tag::kWbr, kVoid}, {Tag::kFrame, kVoid},
    {Tag::kScript, kRawText | kBoilerplate}, {Tag::kStyle, kRawText | kBoilerplate},
    {Tag::kNoscript, kBlock | kBoilerplate}, {Tag::kIframe, kRawText | kBoilerplate},
    {Tag::kNoembed, kRawText | kBoilerplate}, {Tag::kNoframes, kRawText | kBoilerplate},
    {Tag::kXmp, kRawText | kBlockP}, {Tag::kPlaintext, kRawText | kBlockP},
    {Tag::kTitle, kEscapableRaw | kBoilerplate}, {Tag::kTextarea, kEscapableRaw | kBoilerplate},
    {Tag::kTemplate, kBoilerplate | kScope}, {Tag::kSvg, kBoilerplate | kScope},
    {Tag::kMath, kScope}, {Tag::kForm, kBoilerplate | kBlockP}, {Tag::kButton, kBoilerplate | kScope},
    {Tag::kSelect, kBoilerplate}, {Tag::kOption, kBoilerplate}, {Tag::kOptgroup, kBoilerplate},
    {Tag::kNav, kBoilerplate | kBlockP}, {Tag::kHeader, kBoilerplate | kBlockP},
    {Tag::kFooter, kBoilerplate | kBlockP}, {Tag::kAside, kBoilerplate | kBlockP},
    {Tag::kHead, kBoilerplate}, {Tag::kDialog, kBoilerplate | kBlockP},
    {Tag::kObject, kBoilerplate | kScope | kEmbedded}, {Tag::kApplet, kBoilerplate | kScope},
    {Tag::kCanvas, kBoilerplate}, {Tag::kAudio, kBoilerplate | kEmbedded},
    {Tag::kVideo, kBoilerplate | kEmbedded}, {Tag::kMap, kBoilerplate},
    {Tag::kH1, kBlockP | kHeading}, {Tag::kH2, kBlockP | kHeading}, {Tag::kH3, kBlockP | kHeading},
    {Tag::kH4, kBlockP | kHeading}, {Tag::kH5, kBlockP | kHeading}, {Tag::kH6, kBlockP | kHeading},
    {Tag::kAddress, kBlockP}, {Tag::kArticle, kBlockP}, {Tag::kBlockquote, kBlockP},
    {Tag::kCenter, kBlockP}, {Tag::kDetails, kBlockP}, {Tag::kDir, kBlockP}, {Tag::kDiv, kBlockP},
    {Tag::kDl, kBlockP}, {Tag::kFieldset, kBlockP}, {Tag::kFigcaption, kBlockP | kBoilerplate},
    {Tag::kFigure, kBlockP}, {Tag::kHgroup, kBlockP}, {Tag::kMain, kBlockP}, {Tag::kMenu, kBlockP},
    {Tag::kOl, kBlockP}, {Tag::kP, kBlockP}, {Tag::kPre, kBlockP}, {Tag::kListing, kBlockP},
    {Tag::kSection, kBlockP}, {Tag::kSummary, kBlockP}, {Tag::kTable, kBlockP | kScope},
    {Tag::kUl, kBlockP}, {Tag::kLi, kBlockP | kListItem}, {Tag::kDd, kBlockP | kListItem},
    {Tag::kDt, kBlockP | kListItem}, {Tag::kCaption, kBlock | kScope}, {Tag::kThead, kBlock},
    {Tag::kTbody, kBlock}, {Tag::kTfoot, kBlock}, {Tag::kTr, kBlock},
    {Tag::kTd, kBlock | kScope | kTableCell}, {Tag::kTh, kBlock | kScope | kTableCell},
    {Tag::kHtml, kBlock | kScope}, {Tag::kBody, kBlock}, {Tag::kFrameset, kBlock},
    {Tag::kLegend, kBlock}, {Tag::kMarquee, kScope}, {Tag::kRoot, kBlock | kScope},
};
// clang-format on

constexpr std::array<uint16_t, kTagCount> MakeTraits() {
  std::array<uint16_t, kTagCount> traits{};
  for (const TraitEntry& e : kTraitTable) traits[static_cast<size_t>(e.tag)] = e.traits;
  return traits;
}
constexpr std::array<uint16_t, kTagCount> kTraits = MakeTraits();

// Open addressing over the lowercased name; built once, read-only after.
constexpr size_t kSlots = 512;
constexpr size_t kMaxNameLength = 10;

constexpr uint32_t Hash(std::string_view lower) {
  uint32_t h = 2166136261u;
  for (char c : lower) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

constexpr std::array<Tag, kSlots> MakeSlots() {
  std::array<Tag, kSlots> slots{};
  for (size_t t = static_cast<size_t>(Tag::kRoot) + 1; t < kTagCount; ++t) {
    size_t i = Hash(kNames[t]) % kSlots;
    while (slots[i] != Tag::kUnknown) i = (i + 1) % kSlots;
    slots[i] = static_cast<Tag>(t);
  }
  return slots;
}
constexpr std::array<Tag, kSlots> kSlotsTable = MakeSlots();

}  // namespace

Tag LookupTag(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) return Tag::kUnknown;
  char lower[kMaxNameLength];
  for (size_t i = 0; i < name.size(); ++i) lower[i] = AsciiLower(name[i]);
  const std::string_view key(lower, name.size());
  for (size_t i = Hash(key) % kSlots;; i = (i + 1) % kSlots) {
    const Tag tag = kSlotsTable[i];
    if (tag == Tag::kUnknown) return Tag::kUnknown;
    if (kNames[static_cast<size_t>(tag)] == key) return tag;
  }
}

std::string_view TagName(Tag tag) { return kNames[static_cast<size_t>(tag)]; }
uint16_t Traits(Tag tag) { return kTraits[static_cast<size_t>(tag)]; }

}  // namespace pagesieve::content
