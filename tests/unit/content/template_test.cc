// The same main text whatever the template: one article body put into
// different templates, with and without the boilerplate sites wrap around
// articles (credit lines, comments, newsletter boxes, cookie banners, share
// bars, ad slots, related articles, author bios), must normalize to the
// same text. Each template marks the boilerplate differently: one with
// telling class names, one with meaningless ones (the words are all there
// is to go by), one in an old table layout.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "content/content.h"

namespace pagesieve::content {
namespace {

enum class Lang { kEnglish, kGerman };

// The article: a title, paragraphs and a subheading.
struct Article {
  std::string title;
  std::vector<std::string> paragraphs;  // the fourth is preceded by `subheading`
  std::string subheading;
};

Article English() {
  return {"Library stays open on weekends",
          {"The council met on Tuesday to discuss the budget for the coming year, and after a "
           "long debate it agreed that the library would stay open on weekends.",
           "Opening hours had been cut twice since 2015, first on Sundays and then on Saturday "
           "afternoons, and the reading room had been closed for most of the winter.",
           "Residents collected more than four thousand signatures, and students from the "
           "nearby college held a study-in on the steps every Saturday in March.",
           "The extra hours will cost about 80,000 euros a year, which the council plans to "
           "take from the events budget, while volunteers will help at the desk.",
           "The head librarian said she was relieved, and that the first weekend would "
           "start with a reading for children and a repair café for old books."},
          "What it costs"};
}

Article German() {
  return {"Bibliothek bleibt am Wochenende geöffnet",
          {"Der Gemeinderat hat am Dienstag über den Haushalt für das kommende Jahr beraten und "
           "nach langer Debatte beschlossen, dass die Bibliothek am Wochenende geöffnet bleibt.",
           "Die Öffnungszeiten waren seit 2015 zweimal gekürzt worden, zuerst am Sonntag und "
           "dann am Samstagnachmittag, und der Lesesaal war fast den ganzen Winter geschlossen.",
           "Anwohner sammelten mehr als viertausend Unterschriften, und Studierende der nahen "
           "Hochschule lernten im März jeden Samstag demonstrativ auf den Stufen.",
           "Die zusätzlichen Stunden kosten etwa 80.000 Euro im Jahr, die der Rat aus dem "
           "Budget für Veranstaltungen nehmen will; Freiwillige helfen an der Ausleihe.",
           "Die Leiterin der Bibliothek zeigte sich erleichtert: Das erste Wochenende beginnt "
           "mit einer Lesung für Kinder und einem Reparaturcafé für alte Bücher."},
          "Was es kostet"};
}

// Boilerplate put into a page: at its top, inside the article body (after
// its second paragraph), at the end of the body, after the article.
struct Insert {
  std::string before;
  std::string inside;
  std::string end;
  std::string after;
};

using Template = std::function<std::string(const Article&, const Insert&)>;

std::string Body(const Article& a, const Insert& x) {
  std::string html;
  for (size_t i = 0; i < a.paragraphs.size(); ++i) {
    if (i == 3) html += "<h2>" + a.subheading + "</h2>";
    html += "<p>" + a.paragraphs[i] + "</p>";
    if (i == 1) html += x.inside;
  }
  return html + x.end;
}

std::string Nav() {
  return "<a href=\"/\">Home</a> <a href=\"/news\">News</a> <a href=\"/sport\">Sport</a> "
         "<a href=\"/culture\">Culture</a> <a href=\"/contact\">Contact</a>";
}

// HTML5 with telling class names.
std::string Semantic(const Article& a, const Insert& x) {
  return "<!doctype html><html><head><title>" + a.title + " | The Gazette</title></head><body>" +
         x.before + "<header class=\"site-header\"><nav>" + Nav() +
         "</nav></header><main><article><header><h1>" + a.title +
         "</h1></header><div class=\"article-body\">" + Body(a, x) + "</div></article>" + x.after +
         "</main><aside class=\"sidebar\"><h3>Most read</h3><p>" + Nav() +
         "</p></aside><footer class=\"site-footer\">© 2024 The Gazette</footer></body></html>";
}

// Divs with meaningless class names: only the words tell boilerplate.
std::string DivSoup(const Article& a, const Insert& x) {
  return "<html><head><title>" + a.title + "</title></head><body><div class=\"w1\">" + x.before +
         "<div class=\"r0\">" + Nav() + "</div><div class=\"c7\"><div class=\"c7a\"><h1>" +
         a.title + "</h1></div><div class=\"c7b\">" + Body(a, x) + "</div>" + x.after +
         "</div><div class=\"c9\">" + Nav() + "</div></div></body></html>";
}

// An old table layout.
std::string Tables(const Article& a, const Insert& x) {
  return "<html><head><title>" + a.title + "</title></head><body>" + x.before +
         "<table width=\"100%\"><tr><td colspan=\"2\">" + Nav() +
         "</td></tr><tr><td valign=\"top\"><h1>" + a.title + "</h1>" + Body(a, x) + x.after +
         "</td><td width=\"160\">" + Nav() + "</td></tr></table></body></html>";
}

const std::vector<std::pair<std::string, Template>>& Templates() {
  static const std::vector<std::pair<std::string, Template>> templates = {
      {"semantic", Semantic}, {"div soup", DivSoup}, {"tables", Tables}};
  return templates;
}

// What the fingerprinter hashes: the normalized blocks, joined.
std::string Normalized(const std::string& html) {
  Extractor extractor;
  std::string out;
  for (const TextBlock& block : extractor.Extract(html).blocks) {
    if (!out.empty()) out += ' ';
    out += NormalizeForHashing(block.text);
  }
  return out;
}

// Every template gives the article's text alone, with `insert` or without.
void ExpectSameText(const Insert& insert, Lang lang) {
  const Article article = lang == Lang::kEnglish ? English() : German();
  const std::string expected = Normalized(Semantic(article, {}));
  for (const std::string& p : article.paragraphs) {
    ASSERT_NE(expected.find(NormalizeForHashing(p)), std::string::npos) << expected;
  }
  for (const auto& [name, make] : Templates()) {
    EXPECT_EQ(Normalized(make(article, {})), expected) << name << ", plain";
    EXPECT_EQ(Normalized(make(article, insert)), expected) << name << ", with boilerplate";
  }
}

// A box with a telling class name, or a meaningless one.
std::string Box(bool semantic, const std::string& name, const std::string& content) {
  return "<div class=\"" + (semantic ? name : "x" + std::to_string(name.size())) + "\">" + content +
         "</div>";
}

bool De(Lang lang) { return lang == Lang::kGerman; }

// Runs `make` with either markup and both languages.
void ForEachVariant(const std::function<Insert(bool semantic, Lang lang)>& make) {
  for (bool semantic : {true, false}) {
    for (Lang lang : {Lang::kEnglish, Lang::kGerman}) {
      SCOPED_TRACE(std::string(semantic ? "telling" : "meaningless") + " classes, " +
                   (De(lang) ? "German" : "English"));
      ExpectSameText(make(semantic, lang), lang);
    }
  }
}

TEST(TemplateTest, CreditLines) {
  const std::vector<std::string> english = {
      "<p><em>This article first appeared on The Conversation and is republished under a "
      "Creative Commons license.</em></p>",
      "<p>Originally published at riverside-herald.example on 3 May 2024.</p>",
      "<p><i>Reprinted with permission from the Riverside Herald.</i></p>",
      "<p>This story was produced by The Hechinger Report, a nonprofit, independent news "
      "organization.</p>"};
  const std::vector<std::string> german = {
      "<p><em>Dieser Artikel erschien zuerst in der Wochenzeitung Der Freitag.</em></p>",
      "<p>Zuerst erschienen bei Zeit Online am 3. Mai 2024.</p>",
      "<p><i>Mit freundlicher Genehmigung des Riverside Herald.</i></p>",
      "<p>Nachdruck mit freundlicher Genehmigung der Redaktion.</p>"};
  for (size_t i = 0; i < english.size(); ++i) {
    ForEachVariant(
        [&](bool, Lang lang) { return Insert{.end = De(lang) ? german[i] : english[i]}; });
  }
}

Insert Comments(bool semantic, Lang lang) {
  const bool de = De(lang);
  std::string comments = "<h3>" + std::string(de ? "3 Kommentare" : "3 Comments") + "</h3>";
  for (const char* text :
       {"Great piece, thanks for writing it. I have been going to that library since I was a "
        "child and I am glad that it stays open, even if it costs the town a little more.",
        "I disagree with the second point: the events budget paid for the summer festival, "
        "which brought more people to the town centre than the library ever did in a year."}) {
    comments += "<div><p><b>anna</b> wrote:</p><p>" + std::string(text) + "</p></div>";
  }
  comments += std::string("<h3>") + (de ? "Schreibe einen Kommentar" : "Leave a Reply") +
              "</h3><p>" +
              (de ? "Deine E-Mail-Adresse wird nicht veröffentlicht."
                  : "Your email address will not be published.") +
              "</p><form><textarea></textarea><button>Post</button></form>";
  return Insert{.after = Box(semantic, "comments", comments)};
}

TEST(TemplateTest, CommentSections) { ForEachVariant(Comments); }

TEST(TemplateTest, NewsletterBoxes) {
  ForEachVariant([](bool semantic, Lang lang) {
    const std::string box =
        De(lang) ? "<h3>Newsletter</h3><p>Die wichtigsten Nachrichten jeden Freitag in Ihrem "
                   "Postfach.</p><form><input name=\"email\"><button>Anmelden</button></form>"
                 : "<h3>Newsletter</h3><p>Get the best stories of the week in your inbox every "
                   "Friday.</p><form><input name=\"email\"><button>Sign up</button></form>";
    return Insert{.inside = Box(semantic, "newsletter-signup", box)};
  });
}

TEST(TemplateTest, CookieBanners) {
  ForEachVariant([](bool semantic, Lang lang) {
    const std::string text =
        De(lang) ? "Wir verwenden Cookies, um Ihnen das beste Nutzererlebnis zu bieten. Mit der "
                   "Nutzung unserer Website stimmen Sie dem zu. <a href=\"/datenschutz\">"
                   "Datenschutz</a> <button>Alle akzeptieren</button>"
                 : "We use cookies to improve your experience. By using this site you agree to "
                   "our <a href=\"/privacy\">privacy policy</a>. <button>Accept all</button>";
    const std::string banner = Box(semantic, "cookie-consent", "<p>" + text + "</p>");
    return Insert{.before = banner, .after = banner};
  });
}

TEST(TemplateTest, ShareBarsWithCounts) {
  ForEachVariant([](bool semantic, Lang lang) {
    const std::string verb = De(lang) ? "Teilen" : "Share";
    const std::string bar =
        Box(semantic, "share-bar",
            "<p><span>" + verb +
                "</span> <span>1.2k</span> · <span>Tweet</span> <span>340</span>"
                " · <span>Pin</span> <span>57</span> · <a href=\"mailto:?\">Email</a> · "
                "<span>WhatsApp</span></p>");
    return Insert{.inside = bar, .end = bar};
  });
}

TEST(TemplateTest, InArticleAdSlots) {
  ForEachVariant([](bool semantic, Lang lang) {
    const std::string label = De(lang) ? "Anzeige" : "Advertisement";
    const std::string more =
        De(lang) ? "Weiterlesen nach der Anzeige" : "Story continues below advertisement";
    return Insert{
        .inside = Box(semantic, "ad-slot", "<span>" + label + "</span><div id=\"gpt-1\"></div>") +
                  "<p>" + more + "</p>"};
  });
}

Insert Related(bool semantic, Lang lang) {
  const bool de = De(lang);
  const std::string list =
      "<ul><li><a href=\"/a\">Council approves new bus lanes</a></li><li><a href=\"/b\">"
      "Museum extends its opening hours</a></li></ul>";
  const std::string inline_link = std::string("<p><strong>") +
                                  (de ? "Lesen Sie auch:" : "Read more:") +
                                  "</strong> <a href=\"/c\">How the budget was drawn up</a></p>";
  std::string teasers = std::string("<h2>") +
                        (de ? "Das könnte Sie auch interessieren" : "You might also like") +
                        "</h2>";
  for (const char* t : {"Swimming pool closes for six weeks of repairs",
                        "New cycle path links the station to the university"}) {
    teasers += "<div><a href=\"/t\"><h4>" + std::string(t) + "</h4></a><p>" + t + ".</p></div>";
  }
  return Insert{.inside = Box(semantic, "related-posts",
                              std::string("<h4>") + (de ? "Mehr zum Thema" : "Related articles") +
                                  "</h4>" + list) +
                          inline_link,
                .after = Box(semantic, "related-posts", teasers)};
}

TEST(TemplateTest, RelatedArticlesInsideAndAfter) { ForEachVariant(Related); }

TEST(TemplateTest, AuthorBioBoxes) {
  ForEachVariant([](bool semantic, Lang lang) {
    const std::string bio =
        De(lang) ? "<h4>Über die Autorin</h4><p>Jane Doe berichtet für die Gazette aus dem "
                   "Rathaus, über Schulen und Bibliotheken. Sie lebt seit zwanzig Jahren in "
                   "Riverside.</p>"
                 : "<h4>About the author</h4><p>Jane Doe is a reporter at the Gazette who "
                   "covers city hall, schools and libraries. She has lived in Riverside for "
                   "twenty years.</p>";
    return Insert{.after = Box(semantic, "author-box", bio)};
  });
}

TEST(TemplateTest, AllOfThemAtOnce) {
  ForEachVariant([](bool semantic, Lang lang) {
    const Insert comments = Comments(semantic, lang);
    const Insert related = Related(semantic, lang);
    return Insert{.before = related.before,
                  .inside = related.inside,
                  .end = De(lang) ? "<p>Zuerst erschienen bei Zeit Online.</p>"
                                  : "<p>Originally published at riverside-herald.example.</p>",
                  .after = related.after + comments.after};
  });
}

}  // namespace
}  // namespace pagesieve::content
