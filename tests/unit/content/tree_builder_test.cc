#include "content/tree_builder.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace pagesieve::content {
namespace {

// The tree as "tag(child child)" with text in quotes; shallow trees only.
std::string Render(const Document& doc, uint32_t i) {
  const Node& node = doc.nodes[i];
  if (node.tag == Tag::kText) return "\"" + std::string(doc.TextOf(node)) + "\"";
  std::string out = i == 0 ? "#root" : std::string(TagName(node.tag));
  if (node.tag == Tag::kUnknown) out = "?";
  if (node.end == i + 1) return out;
  out += "(";
  bool first = true;
  for (uint32_t c = i + 1; c < node.end; c = doc.nodes[c].end) {
    if (!first) out += " ";
    out += Render(doc, c);
    first = false;
  }
  return out + ")";
}

std::string Build(std::string_view html, int max_depth = 256) {
  TreeBuilder builder(max_depth);
  Document doc;
  builder.Build(html, &doc);
  return Render(doc, doc.body);
}

// Every subtree range is nested in its parent's, in preorder.
void ExpectWellFormed(const Document& doc) {
  ASSERT_FALSE(doc.nodes.empty());
  EXPECT_EQ(doc.nodes[0].end, doc.nodes.size());
  for (uint32_t i = 1; i < doc.nodes.size(); ++i) {
    const Node& n = doc.nodes[i];
    const Node& p = doc.nodes[n.parent];
    ASSERT_LT(n.parent, i);
    ASSERT_GT(n.end, i);
    ASSERT_LE(n.end, p.end);
  }
}

TEST(TreeBuilderTest, BuildsNestedElementsWithText) {
  EXPECT_EQ(Build("<html><body><div><p>Hello <b>world</b></p></div></body></html>"),
            "body(div(p(\"Hello \" b(\"world\"))))");
}

TEST(TreeBuilderTest, TextIsDecodedAndWhitespaceCollapsed) {
  EXPECT_EQ(Build("<body><p>  a \n\t &amp;  b&nbsp;c </p>"),
            "body(p(\" a & b\xC2\xA0"
            "c \"))");
}

TEST(TreeBuilderTest, NewParagraphClosesTheOpenOne) {
  EXPECT_EQ(Build("<body><p>a<p>b<div>c</div>"), "body(p(\"a\") p(\"b\") div(\"c\"))");
}

TEST(TreeBuilderTest, ListItemsCloseSiblingsButNotOuterItems) {
  EXPECT_EQ(Build("<body><ul><li>a<ul><li>b<li>c</ul><li>d</ul>"),
            "body(ul(li(\"a\" ul(li(\"b\") li(\"c\"))) li(\"d\")))");
}

TEST(TreeBuilderTest, TableCellsAndRowsCloseImplicitly) {
  EXPECT_EQ(Build("<body><table><tr><td>a<td>b<tr><td>c</table>"),
            "body(table(tr(td(\"a\") td(\"b\")) tr(td(\"c\"))))");
}

TEST(TreeBuilderTest, StrayEndTagsAreIgnored) {
  EXPECT_EQ(Build("<body></div></p>a<div>b</span>c</div>"), "body(\"a\" div(\"bc\"))");
}

TEST(TreeBuilderTest, InlineEndTagDoesNotCloseAnEnclosingBlock) {
  EXPECT_EQ(Build("<body><span><div>a</span>b</div>c"), "body(span(div(\"ab\") \"c\"))");
}

TEST(TreeBuilderTest, BlockEndTagClosesOpenInlineElements) {
  EXPECT_EQ(Build("<body><div><b><i>a</div>b"), "body(div(b(i(\"a\"))) \"b\")");
}

TEST(TreeBuilderTest, ScriptsAndStylesLeaveNoText) {
  EXPECT_EQ(Build("<body><script>var a = '<p>x</p>';</script><style>p{}</style>t"), "body(\"t\")");
}

TEST(TreeBuilderTest, HeadContentIsNotBodyText) {
  TreeBuilder builder(256);
  Document doc;
  builder.Build(
      "<html><head><title>T &amp; U</title><meta property=og:title content='O&amp;G'>"
      "</head><body><p>x",
      &doc);
  EXPECT_EQ(doc.title, "T & U");
  EXPECT_EQ(doc.og_title, "O&G");
  EXPECT_EQ(Render(doc, doc.body), "body(p(\"x\"))");
}

TEST(TreeBuilderTest, SvgTitleIsNotThePageTitle) {
  TreeBuilder builder(256);
  Document doc;
  builder.Build("<body><svg><title>icon</title><path/></svg><p>x</p>", &doc);
  EXPECT_EQ(doc.title, "");
  EXPECT_EQ(Render(doc, doc.body), "body(svg(?(\"icon\") ?) p(\"x\"))");
}

TEST(TreeBuilderTest, MissingBodyTagStillGivesContent) {
  TreeBuilder builder(256);
  Document doc;
  builder.Build("<title>t</title><p>a", &doc);
  EXPECT_EQ(doc.body, 0u);
  EXPECT_EQ(Render(doc, 0), "#root(p(\"a\"))");
}

TEST(TreeBuilderTest, NestingBeyondTheCapIsFlattened) {
  std::string html = "<body>";
  for (int i = 0; i < 10; ++i) html += "<div>";
  html += "deep";
  EXPECT_EQ(Build(html, 4), "body(div(div(div(\"deep\"))))");
}

TEST(TreeBuilderTest, HundredThousandNestedElementsStayBounded) {
  std::string html = "<body>";
  for (int i = 0; i < 100000; ++i) html += "<div><span>";
  html += "bottom";
  for (int i = 0; i < 100000; ++i) html += "</span></div>";
  TreeBuilder builder(256);
  Document doc;
  builder.Build(html, &doc);
  ExpectWellFormed(doc);
  EXPECT_LE(doc.nodes.size(), 300u);
  EXPECT_NE(doc.text.find("bottom"), std::string::npos);
}

TEST(TreeBuilderTest, RandomTagSoupAlwaysGivesAWellFormedTree) {
  const char* pieces[] = {
      "<div>",   "</div>",   "<p>",       "</p>",    "<li>",  "<ul>",       "</ul>",  "<table>",
      "<td>",    "<tr>",     "</table>",  "<b>",     "</b>",  "<a href=x>", "</a>",   "<svg>",
      "</svg>",  "<g/>",     "<br>",      "</br>",   "text ", "&amp;",      "<",      "<!--",
      "-->",     "<script>", "</script>", "<title>", "<h2>",  "</h3>",      "<head>", "<body>",
      "</body>", "<x-y>",    "</x-y>",    "\"",      "'",     ">"};
  std::mt19937 rng(7);
  TreeBuilder builder(64);
  Document doc;
  for (int round = 0; round < 200; ++round) {
    std::string html;
    const int n = 1 + static_cast<int>(rng() % 400);
    for (int i = 0; i < n; ++i) html += pieces[rng() % std::size(pieces)];
    builder.Build(html, &doc);
    ExpectWellFormed(doc);
  }
}

TEST(TreeBuilderTest, RandomBytesNeverBreakTheBuilder) {
  std::mt19937 rng(11);
  TreeBuilder builder(256);
  Document doc;
  for (int round = 0; round < 20; ++round) {
    std::string bytes(1 + rng() % 50000, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() % 4 == 0 ? '<' : rng());
    builder.Build(bytes, &doc);
    ExpectWellFormed(doc);
  }
}

}  // namespace
}  // namespace pagesieve::content
