#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "content/content.h"

namespace pagesieve::content {
namespace {

// A paragraph long enough to count as content.
std::string Para(const std::string& words) {
  return "<p>" + words +
         ", which is a sentence long enough to be scored as real prose by the extractor, and "
         "it goes on a little, with commas, to look like an article.</p>";
}

// An article of `n` paragraphs, each starting with "Body<i>".
std::string Article(int n) {
  std::string html;
  for (int i = 0; i < n; ++i) html += Para("Body" + std::to_string(i));
  return html;
}

std::string Page(const std::string& body) {
  return "<html><head><title>Page</title></head><body>" + body + "</body></html>";
}

std::string TextOf(const std::string& html, ExtractionOptions options = {}) {
  Extractor extractor(options);
  return extractor.Extract(html).Text();
}

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(ExtractorTest, KeepsTheArticleParagraphs) {
  const std::string text = TextOf(Page("<div>" + Article(4) + "</div>"));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(Contains(text, "Body" + std::to_string(i))) << text;
}

TEST(ExtractorTest, BoilerplateElementsAreRemoved) {
  const char* tags[] = {"nav",      "header",   "footer", "aside",  "form",
                        "noscript", "template", "button", "select", "iframe"};
  for (const char* tag : tags) {
    const std::string html = Page("<" + std::string(tag) + ">Boilerplate words here</" + tag +
                                  "><div>" + Article(3) + "</div>");
    const std::string text = TextOf(html);
    EXPECT_FALSE(Contains(text, "Boilerplate")) << tag << ": " << text;
    EXPECT_TRUE(Contains(text, "Body0")) << tag;
  }
}

TEST(ExtractorTest, BoilerplateInsideTheArticleIsRemovedToo) {
  const std::string html = Page("<div>" + Article(2) + "<aside>Inner aside text</aside>" +
                                "<nav>Inner nav text</nav>" + Article(2) + "</div>");
  const std::string text = TextOf(html);
  EXPECT_FALSE(Contains(text, "Inner aside")) << text;
  EXPECT_FALSE(Contains(text, "Inner nav")) << text;
}

TEST(ExtractorTest, BoilerplateRolesAreRemoved) {
  for (const char* role : {"navigation", "banner", "complementary", "contentinfo"}) {
    const std::string html = Page("<div>" + Article(2) + "<div role=\"" + role + "\">" +
                                  Para("Roled") + "</div>" + Article(2) + "</div>");
    EXPECT_FALSE(Contains(TextOf(html), "Roled")) << role;
  }
}

TEST(ExtractorTest, HiddenElementsAreRemoved) {
  for (const char* attrs : {"hidden", "aria-hidden=\"true\"", "style=\"display: none\"",
                            "style='color:red;VISIBILITY:hidden'"}) {
    const std::string html = Page("<div>" + Article(2) + "<div " + attrs + ">" + Para("Hidden") +
                                  "</div>" + Article(2) + "</div>");
    EXPECT_FALSE(Contains(TextOf(html), "Hidden")) << attrs;
  }
}

TEST(ExtractorTest, BoilerplateClassAndIdWordsAreRemoved) {
  for (const char* attrs :
       {"class=\"site-sidebar\"", "id=\"siteNav\"", "class=\"cookie-banner\"", "class=\"ad-slot\"",
        "class=\"share-buttons\"", "id=\"newsletter\"", "class=\"related-posts\"",
        "class=\"breadcrumb\"", "class=\"modal popup\"", "class=\"promo\"", "class=\"social\"",
        "id=\"comment-form\"", "class=\"topnav\""}) {
    const std::string html = Page("<div>" + Article(3) + "<div " + attrs + ">" + Para("Junk") +
                                  "</div>" + Article(2) + "</div>");
    EXPECT_FALSE(Contains(TextOf(html), "Junk")) << attrs;
  }
}

TEST(ExtractorTest, ClassWordsMatchWholeWordsNotSubstrings) {
  // "ad" inside "heading"/"download"/"shadow" and "nav" inside "canvas" are not boilerplate.
  for (const char* attrs : {"class=\"heading\"", "class=\"download\"", "class=\"shadowed\"",
                            "class=\"canvas-block\"", "id=\"leader\""}) {
    const std::string html =
        Page("<div>" + Article(2) + "<div " + attrs + ">" + Para("Kept") + "</div></div>");
    EXPECT_TRUE(Contains(TextOf(html), "Kept")) << attrs;
  }
}

TEST(ExtractorTest, LinkDenseBlocksAreRemoved) {
  std::string links = "<div>";
  for (int i = 0; i < 10; ++i) links += "<a href=\"/x\">Link number " + std::to_string(i) + "</a> ";
  links += "|</div>";
  const std::string html = Page("<div>" + Article(3) + links + Article(1) + "</div>");
  const std::string text = TextOf(html);
  EXPECT_FALSE(Contains(text, "Link number")) << text;
}

TEST(ExtractorTest, ProseWithSomeLinksIsKept) {
  const std::string html =
      Page("<div>" + Article(3) +
           "<p>Linked prose with <a href=\"/a\">one link</a> inside a paragraph that is otherwise "
           "plain text, long enough to matter, with commas, and more words.</p></div>");
  EXPECT_TRUE(Contains(TextOf(html), "Linked prose with one link inside")) << TextOf(html);
}

TEST(ExtractorTest, TheLinkDensityThresholdIsConfigurable) {
  // A block that is 60% link text: kept at the default 0.8, removed at 0.5.
  const std::string block =
      "<div class=\"x\"><a href=\"/a\">Sixty percent of this block is a link text</a> and the "
      "remaining forty percent is not.</div>";
  const std::string html = Page("<div>" + Article(3) + block + "</div>");
  ExtractionOptions strict;
  strict.link_density_max = 0.5;
  EXPECT_TRUE(Contains(TextOf(html), "Sixty percent"));
  EXPECT_FALSE(Contains(TextOf(html, strict), "Sixty percent"));
}

TEST(ExtractorTest, PicksTheBlockWithTheProseOverShortTeasers) {
  std::string teasers = "<div class=\"teasers\">";
  for (int i = 0; i < 6; ++i) teasers += "<div><h3>Teaser " + std::to_string(i) + "</h3></div>";
  teasers += "</div>";
  const std::string html = Page(teasers + "<div class=\"story\">" + Article(5) + "</div>");
  const std::string text = TextOf(html);
  EXPECT_TRUE(Contains(text, "Body4"));
  EXPECT_FALSE(Contains(text, "Teaser")) << text;
}

TEST(ExtractorTest, AContentClassDoesNotLiftTheWholePageOverTheArticle) {
  // The article's body and the page's main column both have a content-like
  // name; the column also holds a stream of teasers. The column's name must
  // not make it outscore the article it holds.
  std::string stream = "<div><ul>";
  for (int i = 0; i < 8; ++i) {
    stream += "<li><p>Teaser" + std::to_string(i) +
              " of another story, cut off mid-sentence as streams do, and</p></li>";
  }
  stream += "</ul></div>";
  const std::string html = Page("<div id=\"main\" class=\"content\"><div><div class=\"body\">" +
                                Article(6) + "</div><p>A caption.</p></div>" + stream + "</div>");
  const std::string text = TextOf(html);
  EXPECT_TRUE(Contains(text, "Body5")) << text;
  EXPECT_FALSE(Contains(text, "Teaser")) << text;
}

TEST(ExtractorTest, AGalleryWidgetInsideTheArticleIsNotTakenForIt) {
  // 30 captioned slides outscore the article's paragraphs, but they sit in
  // a box the page calls a widget, inside the article.
  std::string gallery = "<div class=\"widget-wrapper\"><div><ul>";
  for (int i = 0; i < 30; ++i) {
    gallery += "<li><h2>Slide " + std::to_string(i) + "</h2>" +
               Para("Caption" + std::to_string(i) + ", about one photo, its people, places") +
               "</li>";
  }
  gallery += "</ul></div></div>";
  const std::string text =
      TextOf(Page("<div class=\"story\">" + Article(3) + gallery + Article(6) + "</div>"));
  EXPECT_TRUE(Contains(text, "Body5")) << text;
  EXPECT_FALSE(Contains(text, "Caption")) << text;
}

TEST(ExtractorTest, AnArticleInAWidgetIsKeptWhenNothingAroundItIsProse) {
  // A shop puts the description in a tab widget; the box around it holds
  // only short lines.
  std::string lines;
  for (int i = 0; i < 10; ++i) {
    lines +=
        "<p>Line" + std::to_string(i) + ": delivery in two days, returns free for 30 days.</p>";
  }
  const std::string text = TextOf(Page("<div>" + lines + "<div class=\"tab-widget\"><div>" +
                                       Article(6) + "</div></div></div>"));
  EXPECT_TRUE(Contains(text, "Body5")) << text;
}

TEST(ExtractorTest, ASiblingWithANegativeClassWordDoesNotContinueTheArticle) {
  // A promotion after the article, hidden until a script shows it: its id
  // says "article", its class "hidden", so its weight is 0.
  const std::string html =
      Page("<div class=\"story\">" + Article(5) +
           "</div><div id=\"article-card\" class=\"hidden\">Venture into the unseen realms of "
           "nature with our new book about wild life, out this month <a href=\"/b\">Order "
           "now</a></div>");
  const std::string text = TextOf(html);
  EXPECT_TRUE(Contains(text, "Body4")) << text;
  EXPECT_FALSE(Contains(text, "Venture")) << text;
}

TEST(ExtractorTest, HeadingsAndParagraphsKeepTheirKindAndOrder) {
  Extractor extractor;
  const MainContent content =
      extractor.Extract(Page("<article><h1>Main  title</h1>" + Para("First") + "<h2>Section</h2>" +
                             Para("Second") + "</article>"));
  ASSERT_EQ(content.blocks.size(), 4u) << content.Text();
  EXPECT_EQ(content.blocks[0].kind, TextBlock::Kind::kHeading);
  EXPECT_EQ(content.blocks[0].text, "Main title");
  EXPECT_EQ(content.blocks[1].kind, TextBlock::Kind::kParagraph);
  EXPECT_TRUE(content.blocks[1].text.starts_with("First,"));
  EXPECT_EQ(content.blocks[2].kind, TextBlock::Kind::kHeading);
  EXPECT_EQ(content.blocks[2].text, "Section");
  EXPECT_TRUE(content.blocks[3].text.starts_with("Second,"));
}

TEST(ExtractorTest, LineBreaksSeparateBlocksAndInlineTagsDoNot) {
  Extractor extractor;
  const MainContent content = extractor.Extract(Page(
      "<div>" + Article(3) + "<p>One <b>bold</b>word<br>next line</p>" + Article(1) + "</div>"));
  ASSERT_EQ(content.blocks.size(), 6u);
  EXPECT_EQ(content.blocks[3].text, "One boldword");
  EXPECT_EQ(content.blocks[4].text, "next line");
}

TEST(ExtractorTest, ShortLinesAtTheEdgesAreTrimmed) {
  Extractor extractor;
  const MainContent content =
      extractor.Extract(Page("<article><h1>Title</h1><p>By A. Writer</p><p>12 May</p>" +
                             Article(3) + "<p>Share this</p><p>Tags</p></article>"));
  ASSERT_EQ(content.blocks.size(), 4u) << content.Text();
  EXPECT_EQ(content.blocks[0].text, "Title");
  EXPECT_TRUE(content.blocks[1].text.starts_with("Body0"));
  EXPECT_TRUE(content.blocks[3].text.starts_with("Body2"));
}

TEST(ExtractorTest, AListOfShortLinesAtAnEdgeIsKept) {
  std::string ingredients;
  for (const char* item : {"200 g Zucker", "3 Eier", "1 Prise Salz", "100 g Butter", "Mehl"}) {
    ingredients += "<p>" + std::string(item) + "</p>";
  }
  const std::string text = TextOf(Page("<article>" + Article(3) + ingredients + "</article>"));
  EXPECT_TRUE(Contains(text, "200 g Zucker")) << text;
  EXPECT_TRUE(Contains(text, "Mehl")) << text;
}

TEST(ExtractorTest, TextJoinsBlocksWithBlankLines) {
  MainContent content;
  content.blocks = {{TextBlock::Kind::kHeading, "H"}, {TextBlock::Kind::kParagraph, "P"}};
  EXPECT_EQ(content.Text(), "H\n\nP");
  EXPECT_EQ(MainContent{}.Text(), "");
}

TEST(ExtractorTest, WithoutScoredProseFallsBackToArticleMainRoleAndContentId) {
  const char* wrappers[][2] = {{"<article>", "</article>"},
                               {"<main>", "</main>"},
                               {"<div role=\"main\">", "</div>"},
                               {"<div id=\"content\">", "</div>"}};
  for (const auto& w : wrappers) {
    const std::string html =
        Page("<div>Other short bit</div>" + std::string(w[0]) + "Short main bit" + w[1]);
    const std::string text = TextOf(html);
    EXPECT_TRUE(Contains(text, "Short main bit")) << w[0] << ": " << text;
    EXPECT_FALSE(Contains(text, "Other short bit")) << w[0] << ": " << text;
  }
}

TEST(ExtractorTest, WithoutAnyHintFallsBackToTheLargestTextBlock) {
  // Both blocks are below the paragraph length, so nothing is scored.
  const std::string text = TextOf(Page("<div>tiny</div><div>largest short one</div>"));
  EXPECT_EQ(text, "largest short one");
}

TEST(ExtractorTest, ProseSpreadOverThePageKeepsTheBody) {
  // Forum-like: prose directly in several body-level blocks, none dominant.
  std::string html = "<body>";
  for (int i = 0; i < 4; ++i) {
    html += "<blockquote>Post" + std::to_string(i) + " " + Para("x").substr(3);
    html.resize(html.size() - 4);  // drop "</p>"
    html += "</blockquote>";
  }
  const std::string text = TextOf(html);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(Contains(text, "Post" + std::to_string(i))) << text;
}

TEST(ExtractorTest, BareTextFallsBackToTheBody) { EXPECT_EQ(TextOf("just words"), "just words"); }

TEST(ExtractorTest, ContentInsideABoilerplateClassIsFoundByTheRelaxedPass) {
  // The only prose sits in a "sidebar": the strict pass finds nothing.
  const std::string text = TextOf(Page("<div class=\"sidebar\">" + Article(5) + "</div>"));
  EXPECT_TRUE(Contains(text, "Body0"));
  EXPECT_TRUE(Contains(text, "Body4"));
}

TEST(ExtractorTest, APageWrappedInAFormIsStillExtracted) {
  const std::string text =
      TextOf(Page("<form id=\"aspnetForm\"><div>" + Article(12) + "</div></form>"));
  EXPECT_TRUE(Contains(text, "Body11")) << text;
}

TEST(ExtractorTest, CommentSectionsAreRemoved) {
  const std::string html = Page("<div>" + Article(4) + "</div><div id=\"comments\">" +
                                Para("Commenter") + Para("Commenter2") + "</div>");
  EXPECT_FALSE(Contains(TextOf(html), "Commenter"));
}

TEST(ExtractorTest, ACommentSectionLabelledInChineseIsRemoved) {
  // A blog's comment box without a telling class, headed "Comment list (42)".
  const std::string html =
      Page("<div><div>" + Article(4) +
           "</div><div class=\"user-post\"><h3><span>留言列表 (42)</span></h3>" +
           Para("Commenter") + Para("Commenter2") + "</div></div>");
  const std::string text = TextOf(html);
  EXPECT_FALSE(Contains(text, "Commenter")) << text;
  EXPECT_TRUE(Contains(text, "Body3")) << text;
}

TEST(ExtractorTest, FigureCaptionsAreRemoved) {
  const std::string html = Page("<div>" + Article(2) +
                                "<figure><img src=x><figcaption>Photo: Credit Agency</figcaption>"
                                "</figure>" +
                                Article(2) + "</div>");
  const std::string text = TextOf(html);
  EXPECT_FALSE(Contains(text, "Credit Agency")) << text;
  EXPECT_TRUE(Contains(text, "Body1"));
}

TEST(ExtractorTest, HeadingWhoseSectionWasRemovedIsDropped) {
  std::string related = "<h3>Related articles</h3><ul>";
  for (int i = 0; i < 5; ++i)
    related += "<li><a href=\"/r\">Teaser link " + std::to_string(i) + "</a></li>";
  related += "</ul>";
  const std::string html =
      Page("<div><h2>Intro</h2>" + Article(3) + related + "<h2>More</h2>" + Article(1) + "</div>");
  Extractor extractor;
  const MainContent content = extractor.Extract(html);
  const std::string text = content.Text();
  EXPECT_FALSE(Contains(text, "Related articles")) << text;
  EXPECT_TRUE(Contains(text, "Intro"));
  EXPECT_TRUE(Contains(text, "More"));
}

TEST(ExtractorTest, TeaserSummariesUnderTheirHeadlinesAreDroppedWhateverTheirLength) {
  // "Most popular": each item a section link, a headline link, a summary of
  // two lines and a byline. The summaries are as long as prose.
  std::string popular = "<section><h2>Most popular</h2><ol>";
  for (int i = 0; i < 4; ++i) {
    const std::string n = std::to_string(i);
    popular += "<li><a href=\"/t\">Transport</a><h3><a href=\"/s" + n + "\">Headline " + n +
               "</a></h3>" + Para("Summary" + n + " of another story") +
               "<a href=\"/w\">A. Writer</a></li>";
  }
  popular += "</ol></section>";
  const std::string text = TextOf(Page("<div>" + Article(4) + popular + "</div>"));
  EXPECT_TRUE(Contains(text, "Body3")) << text;
  EXPECT_FALSE(Contains(text, "Summary")) << text;
}

TEST(ExtractorTest, ProseListItemsAfterALabelAreContent) {
  // "Empfehlungen" heads the page's own advice here, not teasers: the items
  // are prose with a link inside, under no headline.
  std::string advice = "<h4>Empfehlungen</h4><ul>";
  for (int i = 0; i < 3; ++i) {
    advice +=
        "<li>Advice" + std::to_string(i) +
        ": read the <a href=\"/i\">information page</a> before you travel, which is a "
        "sentence long enough to be prose, with commas, and it goes on a little, as good advice "
        "on such pages does.</li>";
  }
  advice += "</ul>";
  const std::string text = TextOf(Page("<div>" + Article(4) + advice + "</div>"));
  EXPECT_TRUE(Contains(text, "Advice2")) << text;
}

TEST(ExtractorTest, HeadingFollowedBySubheadingAndTextIsKept) {
  Extractor extractor;
  const MainContent content =
      extractor.Extract(Page("<article><h1>Top</h1><h2>Sub</h2>" + Article(3) + "</article>"));
  ASSERT_GE(content.blocks.size(), 2u);
  EXPECT_EQ(content.blocks[0].text, "Top");
  EXPECT_EQ(content.blocks[1].text, "Sub");
}

TEST(ExtractorTest, APageOfHeadingsOnlyKeepsThem) {
  Extractor extractor;
  EXPECT_EQ(extractor.Extract(Page("<h1>Only a heading</h1>")).Text(), "Only a heading");
}

TEST(ExtractorTest, MathTextIsKeptAndSvgTextIsNot) {
  const std::string html =
      Page("<div>" + Article(2) + "<p>Solve <math><mi>x</mi><mo>=</mo><mn>42</mn></math> now, " +
           "said the teacher, in a sentence long enough to count as a paragraph.<svg><text>" +
           "icon label</text></svg></p>" + Article(1) + "</div>");
  const std::string text = TextOf(html);
  EXPECT_TRUE(Contains(text, "x=42")) << text;
  EXPECT_FALSE(Contains(text, "icon label")) << text;
}

TEST(ExtractorTest, NoscriptIsReadOnlyWhenThePageHasNothingElse) {
  // Content outside <noscript> wins; a page whose text is only in
  // <noscript> (a script renders it) still gives that text.
  const std::string with_content =
      Page("<noscript>" + Para("Fallback") + "</noscript><div>" + Article(4) + "</div>");
  EXPECT_FALSE(Contains(TextOf(with_content), "Fallback"));
  const std::string only_noscript =
      Page("<script>render()</script><noscript><div>" + Article(4) + "</div></noscript>");
  EXPECT_TRUE(Contains(TextOf(only_noscript), "Body3"));
}

TEST(ExtractorTest, ClassWordOfANeighbourDoesNotRemoveProse) {
  // "above-footer" names where the element sits, and it holds the article.
  const std::string text =
      TextOf(Page("<div class=\"above-footer\">" + Article(6) + "</div><div>short</div>"));
  EXPECT_TRUE(Contains(text, "Body5")) << text;
}

TEST(ExtractorTest, TitlePrefersOgTitle) {
  Extractor extractor;
  const MainContent content = extractor.Extract(
      "<head><title>Site | Other</title><meta property=\"og:title\" content=\"The &amp; Title\">"
      "</head><body>" +
      Article(2));
  EXPECT_EQ(content.title, "The & Title");
}

TEST(ExtractorTest, TitleDropsTheSiteNameSuffix) {
  Extractor extractor;
  EXPECT_EQ(extractor.Extract("<title>A long article title | Site</title>" + Article(2)).title,
            "A long article title");
  EXPECT_EQ(extractor.Extract("<title>Site - A long article title</title>" + Article(2)).title,
            "A long article title");
  EXPECT_EQ(extractor.Extract("<title>Short | Site</title>" + Article(2)).title, "Short | Site");
}

TEST(ExtractorTest, TitleKeepsTheShortPartTheH1Repeats) {
  // "Document" has too few words to be trusted on its own, but the page's
  // headline says it is the title: the rest is the site's name.
  Extractor extractor;
  EXPECT_EQ(extractor
                .Extract("<title>Document | Wikimedia Foundation, Inc.</title><h1>Document</h1>" +
                         Article(2))
                .title,
            "Document");
  EXPECT_EQ(
      extractor.Extract("<title>Big Site Name Here - Recipes</title><h1>recipes</h1>" + Article(2))
          .title,
      "Recipes");
}

TEST(ExtractorTest, TitleIgnoresAnH1ThatRepeatsNoPart) {
  Extractor extractor;
  EXPECT_EQ(extractor
                .Extract("<title>Document | Wikimedia Foundation, Inc.</title><h1>Other</h1>" +
                         Article(2))
                .title,
            "Wikimedia Foundation, Inc.");
}

TEST(ExtractorTest, TitleFallsBackToTheFirstH1) {
  Extractor extractor;
  EXPECT_EQ(
      extractor.Extract("<body><nav><h1>Menu</h1></nav><h1> The  h1 </h1>" + Article(2)).title,
      "The h1");
}

TEST(ExtractorTest, EmptyAndGarbageInputGiveEmptyContent) {
  Extractor extractor;
  EXPECT_TRUE(extractor.Extract("").blocks.empty());
  EXPECT_TRUE(extractor.Extract("<html><body></body></html>").blocks.empty());
  EXPECT_TRUE(extractor.Extract("<script>only script</script>").blocks.empty());
}

TEST(ExtractorTest, ReusingAnExtractorGivesTheSameResultAsAFreshOne) {
  const std::string a = Page("<div>" + Article(5) + "</div>");
  const std::string b = Page("<nav>n</nav><article>" + Article(2) + "</article>");
  Extractor reused;
  reused.Extract(a);
  const MainContent again = reused.Extract(b);
  Extractor fresh;
  EXPECT_EQ(again.Text(), fresh.Extract(b).Text());
  EXPECT_EQ(again.title, fresh.Extract(b).title);
}

TEST(ExtractorTest, DeeplyNestedPageIsExtracted) {
  std::string html = "<body>";
  for (int i = 0; i < 100000; ++i) html += "<div>";
  html += Article(3);
  Extractor extractor;
  const std::string text = extractor.Extract(html).Text();
  EXPECT_TRUE(Contains(text, "Body2"));
}

TEST(ExtractorTest, MultiMegabytePageIsExtracted) {
  const std::string html = Page("<div>" + Article(25000) + "</div>");  // ~4 MB
  ASSERT_GT(html.size(), 3u << 20);
  Extractor extractor;
  const MainContent content = extractor.Extract(html);
  EXPECT_EQ(content.blocks.size(), 25000u);
}

}  // namespace
}  // namespace pagesieve::content
