// Phrase pools and the grammar that strings them into local-news articles.
#include "demo/sample_text.h"

#include <cctype>
#include <string_view>

namespace pagesieve::demo {
namespace {

using Pool = std::vector<std::string>;

const Pool kFacilities = {
    "library",  "swimming pool", "footbridge",       "bus station",     "community centre",
    "sea wall", "market hall",   "cycle lane",       "primary school",  "museum",
    "car park", "skate park",    "recycling centre", "railway station", "harbour wall",
    "theatre",  "lido",          "ferry terminal",   "health centre",   "allotments"};
const Pool kOrgs = {"chamber of commerce",   "residents' association", "harbour trust",
                    "local history society", "rail users' group",      "parents' association",
                    "rowing club",           "allotment society",      "civic society",
                    "traders' guild"};
const Pool kFirstNames = {"Ana",   "Tomas", "Priya",  "Gareth", "Mei",   "Olu",   "Fiona",
                          "Rahul", "Ines",  "Callum", "Yusuf",  "Hanna", "Dario", "Niamh"};
const Pool kSurnames = {"Moreno", "Okafor",   "Lindqvist", "Hughes", "Chen",    "Patel",
                        "Byrne",  "Kowalski", "Nakamura",  "Fraser", "Adeyemi", "Rossi"};
const Pool kWeekdays = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
const Pool kStreets = {"Mill Lane",   "Quay Street", "Station Road", "Church Walk",
                       "High Street", "Bridge Row",  "Castle Hill",  "Water Lane"};
const Pool kShops = {"bakery",  "hardware shop", "café",     "bookshop",
                     "florist", "fishmonger",    "barber's", "bike repair shop"};

const Pool kSubjects = {"The {town} council",
                        "Residents of {town}",
                        "A spokesperson for the {org}",
                        "Local traders",
                        "Opposition councillors",
                        "The regional transport board",
                        "{person}, who chairs the {org},",
                        "Engineers working on the {facility}",
                        "Volunteers from the {org}",
                        "The county's planning committee",
                        "Members of the {org}"};
const Pool kVerbs = {"approved",   "criticised", "announced", "postponed", "welcomed",
                     "questioned", "defended",   "unveiled",  "rejected",  "backed"};
const Pool kObjects = {"plans for a new {facility}",        "the budget for the {facility}",
                       "a review of the {facility}",        "proposals to close the {facility}",
                       "a scheme to repair the {facility}", "a consultation on the {facility}",
                       "extra funding for the {facility}",  "a timetable for the {facility} works"};
const Pool kTails = {"after months of debate",
                     "despite objections from residents",
                     "at a meeting on {weekday}",
                     "following a public consultation",
                     "in a statement on {weekday} evening",
                     "ahead of the winter season",
                     "as costs continued to rise",
                     "citing safety concerns",
                     "with a narrow majority",
                     "before a packed public gallery"};
const Pool kQuoteOpen = {"We have listened carefully to what people told us",
                         "This was never going to be an easy decision",
                         "It is the right outcome for {town}",
                         "Nobody wanted it to come to this",
                         "We will keep pushing until the work is done",
                         "The figures we were given simply do not add up"};
const Pool kQuoteClose = {
    "and we expect work to begin in the spring",     "but the details still have to be settled",
    "and we hope people will see the benefits soon", "although there is still a lot to do",
    "so we will be asking for a second opinion",     "and the {org} will be watching closely"};
const Pool kBackground = {
    "The {facility} opened in {year} and has needed repairs for most of the last decade.",
    "Plans to replace the {facility} were first drawn up in {year} but never funded.",
    "Around {n} hundred people use the {facility} every week, according to the council.",
    "A petition calling for the {facility} to stay open gathered {n} thousand signatures.",
    "The {facility} was last refurbished in {year}, when it reopened after a long closure."};
const Pool kReactions = {
    "Not everyone is convinced. {person}, who runs a {shop} on {street}, called the plan "
    "rushed and said few traders had been asked for their views.",
    "{person}, who has lived on {street} for {n} decades, said the {facility} was part of the "
    "town's character and should not be allowed to decline.",
    "At a drop-in session on {weekday}, several residents asked why the {facility} could not "
    "be repaired rather than rebuilt.",
    "The {org} said it would study the proposals before deciding whether to object, and urged "
    "people to read the documents in full."};
const Pool kCosts = {
    "The project is expected to cost {n} million pounds and to take {m} months.",
    "Officials estimate the work will cost {n} million pounds, with the {org} raising part of "
    "the money.",
    "A report put the cost at {n} million pounds, {m} per cent more than first planned."};
// A correction notice as sites add them under an article. Short on purpose:
// in a block shorter than near.shingle_size it is one new shingle.
const Pool kCorrections = {"Updated.", "Corrected.", "Amended since publication.",
                           "Name corrected.", "Date corrected."};
const Pool kHeadlines = {
    "{town} council backs plan for new {facility}", "Residents fight closure of {town} {facility}",
    "Repairs to {facility} delayed again",          "Funding row threatens {town} {facility}",
    "{facility} works to start next spring",        "Questions over cost of {town} {facility}",
    "Campaigners win reprieve for {facility}",      "New chapter for {town}'s {facility}"};

// What one article is about; placeholders in the pools are filled from it,
// so an article keeps to one facility and one organisation throughout.
struct Topic {
  std::string town;
  std::string facility;
  std::string org;
};

std::string Person(SampleRng& rng) { return rng.Pick(kFirstNames) + " " + rng.Pick(kSurnames); }

std::string Fill(std::string_view pattern, const Topic& topic, SampleRng& rng) {
  std::string out;
  size_t i = 0;
  while (i < pattern.size()) {
    const size_t close = pattern[i] == '{' ? pattern.find('}', i) : std::string_view::npos;
    if (close == std::string_view::npos) {
      out += pattern[i++];
      continue;
    }
    const std::string_view name = pattern.substr(i + 1, close - i - 1);
    if (name == "town")
      out += topic.town;
    else if (name == "facility")
      out += topic.facility;
    else if (name == "org")
      out += topic.org;
    else if (name == "person")
      out += Person(rng);
    else if (name == "weekday")
      out += rng.Pick(kWeekdays);
    else if (name == "street")
      out += rng.Pick(kStreets);
    else if (name == "shop")
      out += rng.Pick(kShops);
    else if (name == "year")
      out += std::to_string(rng.Between(1958, 2019));
    else if (name == "n")
      out += std::to_string(rng.Between(2, 40));
    else if (name == "m")
      out += std::to_string(rng.Between(6, 48));
    i = close + 1;
  }
  return out;
}

std::string Capitalized(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::string Statement(const Topic& topic, SampleRng& rng) {
  std::string s = Fill(rng.Pick(kSubjects), topic, rng) + " " + rng.Pick(kVerbs) + " " +
                  Fill(rng.Pick(kObjects), topic, rng);
  if (rng.Percent(80)) s += " " + Fill(rng.Pick(kTails), topic, rng);
  return s + ".";
}

std::string Quote(const Topic& topic, SampleRng& rng) {
  return "\"" + Fill(rng.Pick(kQuoteOpen), topic, rng) + ", " +
         Fill(rng.Pick(kQuoteClose), topic, rng) + ",\" said " + Person(rng) + ".";
}

std::string Paragraph(const Topic& topic, SampleRng& rng) {
  std::string p;
  const int sentences = rng.Between(3, 5);
  for (int i = 0; i < sentences; ++i) {
    if (!p.empty()) p += " ";
    switch (rng.Below(5)) {
      case 0:
        p += Quote(topic, rng);
        break;
      case 1:
        p += Fill(rng.Pick(kBackground), topic, rng);
        break;
      case 2:
        p += Fill(rng.Pick(kCosts), topic, rng);
        break;
      default:
        p += Statement(topic, rng);
        break;
    }
  }
  return p;
}

std::string Slug(const std::string& headline) {
  std::string slug;
  for (char c : headline) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      slug += static_cast<char>(std::tolower(u));
    } else if (!slug.empty() && slug.back() != '-' && c != '\'') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

Topic NewTopic(SampleRng& rng, const std::string& town) {
  return Topic{town, rng.Pick(kFacilities), rng.Pick(kOrgs)};
}

Article Compose(const Topic& topic, SampleRng& rng, const std::string& date, int paragraphs) {
  Article a;
  a.headline = Capitalized(Fill(rng.Pick(kHeadlines), topic, rng));
  a.slug = Slug(a.headline) + "-" + std::to_string(rng.Between(10000, 99999));
  a.byline = "By " + Person(rng) + ", " + date;
  a.paragraphs.push_back(Statement(topic, rng) + " " + Statement(topic, rng));
  for (int i = 1; i < paragraphs; ++i) a.paragraphs.push_back(Paragraph(topic, rng));
  if (rng.Percent(50)) a.paragraphs.push_back(Fill(rng.Pick(kReactions), topic, rng));
  return a;
}

}  // namespace

Article WriteArticle(SampleRng& rng, const std::string& town, const std::string& date) {
  return Compose(NewTopic(rng, town), rng, date, rng.Between(11, 15));
}

Article EditOneWord(const Article& article, SampleRng& rng) {
  Article edited = article;
  std::string& p = edited.paragraphs[rng.Below(edited.paragraphs.size())];
  // A vowel of the paragraph's last word (often a name: "said Ana
  // Moreno.") changed, as when a misspelling is corrected.
  static const std::string kVowels = "aeiou";
  const size_t at = p.find_last_of(kVowels);
  if (at == std::string::npos) return AppendCorrection(article, rng);
  p[at] = kVowels[(kVowels.find(p[at]) + 1 + rng.Below(kVowels.size() - 1)) % kVowels.size()];
  return edited;
}

Article AppendCorrection(const Article& article, SampleRng& rng) {
  Article corrected = article;
  corrected.paragraphs.push_back(rng.Pick(kCorrections));
  return corrected;
}

Article FollowUp(const Article& earlier, SampleRng& rng, const std::string& town,
                 const std::string& date) {
  Article a = Compose(NewTopic(rng, town), rng, date, rng.Between(10, 14));
  a.paragraphs.insert(a.paragraphs.begin() + 1,
                      "As we reported earlier: " + earlier.paragraphs.front());
  return a;
}

std::string TeaserHeadline(SampleRng& rng, const std::string& town) {
  return Capitalized(Fill(rng.Pick(kHeadlines), NewTopic(rng, town), rng));
}

}  // namespace pagesieve::demo
