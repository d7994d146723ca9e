// MainContent::article_found: whether the extractor found the page's
// article or only what a page shares with the rest of its site.

#include <gtest/gtest.h>

#include <string>

#include "content/content.h"

namespace pagesieve::content {
namespace {

std::string Paragraph(const std::string& lead) {
  return "<p>" + lead +
         " The council met on Tuesday to discuss the budget for the coming year, and after a "
         "long debate it agreed that the library would stay open on weekends.</p>";
}

std::string Page(const std::string& body) {
  return "<html><head><title>Page</title></head><body>" + body + "</body></html>";
}

std::string LinkList(int n) {
  std::string html = "<ul>";
  for (int i = 0; i < n; ++i) {
    html += "<li><a href=\"/topic/" + std::to_string(i) + "\">Forum topic number " +
            std::to_string(i) + " about gardening</a></li>";
  }
  return html + "</ul>";
}

MainContent Extract(const std::string& html) {
  Extractor extractor;
  return extractor.Extract(html);
}

TEST(ArticleFoundTest, AnArticleIsFound) {
  const MainContent content =
      Extract(Page("<article>" + Paragraph("One.") + Paragraph("Two.") + "</article>"));
  EXPECT_TRUE(content.article_found) << content.Text();
}

TEST(ArticleFoundTest, AShortButRealParagraphIsAnArticle) {
  EXPECT_TRUE(Extract(Page("<div>" + Paragraph("Brief.") + "</div>")).article_found);
}

TEST(ArticleFoundTest, AFewWordsAreNoArticle) {
  const MainContent content = Extract(Page("<div>Thanks, that worked for me!</div>"));
  EXPECT_FALSE(content.blocks.empty());
  EXPECT_FALSE(content.article_found);
}

TEST(ArticleFoundTest, AnEmptyPageHasNoArticle) {
  EXPECT_FALSE(Extract("").article_found);
  EXPECT_FALSE(Extract(Page("<script>render()</script>")).article_found);
}

TEST(ArticleFoundTest, ALinkListIsNoArticle) {
  // Topics with their reply counts: mostly link text, yet not dense enough
  // to be removed as navigation; the page's only text, so it is what the
  // extractor gives. Not an article, however long.
  std::string topics = "<div>";
  for (int i = 0; i < 40; ++i) {
    topics += "<p><a href=\"/t/" + std::to_string(i) + "\">Forum topic number " +
              std::to_string(i) + " about gardening</a> (12 replies, 3 today)</p>";
  }
  const MainContent content = Extract(Page(topics + "</div>"));
  EXPECT_FALSE(content.blocks.empty());
  EXPECT_FALSE(content.article_found) << content.Text();
}

TEST(ArticleFoundTest, TextFoundOnlyInASidebarIsNoArticle) {
  // The posts are rendered by a script; only the sidebar has text, and only
  // the passes that ignore class names take it.
  const std::string sidebar =
      "<div class=\"sidebar\"><h3>About this forum</h3><p>A friendly place to talk about "
      "gardening, compost and the weather, since 2004. Be kind to each other.</p>" +
      LinkList(3) + "</div>";
  const MainContent content =
      Extract(Page("<div id=\"posts\"></div><script>load()</script>" + sidebar));
  EXPECT_FALSE(content.blocks.empty());
  EXPECT_FALSE(content.article_found) << content.Text();
}

TEST(ArticleFoundTest, AnArticleInAMisnamedElementIsStillFound) {
  // Plenty of prose in an element whose class says sidebar: an article.
  std::string prose;
  for (int i = 0; i < 6; ++i) prose += Paragraph("Part " + std::to_string(i) + ".");
  const MainContent content = Extract(Page("<div class=\"sidebar\">" + prose + "</div>"));
  EXPECT_TRUE(content.article_found) << content.Text();
}

}  // namespace
}  // namespace pagesieve::content
