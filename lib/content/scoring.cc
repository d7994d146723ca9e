#include "content/scoring.h"

#include <algorithm>

#include "content/class_hints.h"

namespace pagesieve::content {
namespace {

constexpr int kAncestorLevels = 5;
constexpr size_t kTopCandidates = 5;
constexpr int kMinAlternatives = 3;
constexpr float kSemanticBoost = 1.5f;
constexpr float kFullWeightChars = 250;
constexpr uint16_t kSiblingProseBlocks = 1;
constexpr uint32_t kArticleBodyChars = 250;
constexpr float kArticleGrowth = 2.0f;
constexpr double kArticleLinkDensity = 0.25;
constexpr float kParentGrowth = 1.05f;
constexpr double kParentLinkDensity = 0.2;
constexpr float kContainerShare = 0.5f;
constexpr uint16_t kContainerProseBlocks = 3;

float TagBonus(Tag tag) {
  switch (tag) {
    case Tag::kDiv:
      return 5;
    case Tag::kPre:
    case Tag::kTd:
    case Tag::kBlockquote:
      return 3;
    case Tag::kAddress:
    case Tag::kOl:
    case Tag::kUl:
    case Tag::kDl:
    case Tag::kDd:
    case Tag::kDt:
    case Tag::kLi:
    case Tag::kForm:
      return -3;
    case Tag::kH1:
    case Tag::kH2:
    case Tag::kH3:
    case Tag::kH4:
    case Tag::kH5:
    case Tag::kH6:
    case Tag::kTh:
      return -5;
    default:
      return 0;
  }
}

bool IsTop(const Document& doc, uint32_t i) {
  return i == 0 || doc.nodes[i].tag == Tag::kBody || doc.nodes[i].tag == Tag::kRoot;
}

class Scorer {
 public:
  Scorer(const Document& doc, const std::vector<NodeStats>& stats, const ScoringOptions& options,
         Scores* scores)
      : doc_(doc), stats_(stats), options_(options), scores_(*scores) {
    scores_.value.assign(doc.nodes.size(), 0.0f);
    scores_.scored.assign(doc.nodes.size(), 0);
  }

  std::vector<uint32_t> Select() {
    ScoreParagraphs();
    if (candidates_.empty()) return {};
    for (uint32_t c : candidates_) {
      scores_.value[c] *= (1.0f - float(stats_[c].LinkDensity())) * SemanticBoost(c);
    }
    uint32_t top = BestCandidate();
    // Content spread over the whole page (forums, mailing-list archives):
    // the body is the best container there is.
    if (IsTop(doc_, top)) return {doc_.body};
    top = LeaveDroppedBox(top);
    top = RaiseToCommonAncestor(top);
    top = RaiseWhileParentScoresBetter(top);
    top = RaiseThroughOnlyChildren(top);
    top = RaiseToArticle(top);
    top = RaiseWhileParentAddsLittle(top);
    top = PreferArticleBody(top);
    return WithSiblings(top);
  }

 private:
  // The largest element the page marks itemprop=articleBody (schema.org),
  // outside removed boilerplate; 0 when none has text enough.
  uint32_t LargestArticleBody() const {
    uint32_t best = 0;
    for (uint32_t i : doc_.article_bodies) {
      if (stats_[i].chars > (best ? stats_[best].chars : 0) && !InsideRemoved(i)) best = i;
    }
    if (best == 0 || stats_[best].chars < kArticleBodyChars || stats_[best].LinkDensity() > 0.5) {
      return 0;
    }
    return best;
  }

  bool InsideRemoved(uint32_t i) const {
    for (; i != 0; i = doc_.nodes[i].parent) {
      if (stats_[i].removed) return true;
    }
    return false;
  }

  // A page that says where its article body is, is believed over the
  // scores when the best candidate lies elsewhere or inside it (a gallery
  // of captioned photos beside a short article outscores it).
  uint32_t PreferArticleBody(uint32_t top) const {
    const uint32_t body = LargestArticleBody();
    if (body == 0 || Contains(top, body)) return top;
    return body;
  }

  // The <article> around the best candidate holds the rest of it (the
  // lead, a second section) when the candidate already holds most of its
  // text: a page's other articles (teasers) are not that close in size.
  uint32_t RaiseToArticle(uint32_t top) const {
    for (uint32_t p = doc_.nodes[top].parent; !IsTop(doc_, p); p = doc_.nodes[p].parent) {
      const Node& node = doc_.nodes[p];
      // Emission drops negatively classed blocks inside the content: the
      // candidate would go with it.
      if (node.class_weight < 0) break;
      if (node.tag != Tag::kArticle) continue;
      const NodeStats& st = stats_[p];
      if (st.chars <= kArticleGrowth * stats_[top].chars &&
          st.LinkDensity() < kArticleLinkDensity) {
        return p;
      }
      break;
    }
    return top;
  }

  // A parent with little more text than the candidate holds the rest of
  // the content (a lead, a date line, a last short paragraph), not another
  // part of the page.
  uint32_t RaiseWhileParentAddsLittle(uint32_t top) const {
    const float limit = kParentGrowth * stats_[top].chars;
    for (uint32_t p = doc_.nodes[top].parent; !IsTop(doc_, p); p = doc_.nodes[p].parent) {
      const NodeStats& st = stats_[p];
      if (doc_.nodes[p].class_weight < 0 || st.chars > limit ||
          st.LinkDensity() >= kParentLinkDensity) {
        break;
      }
      top = p;
    }
    return top;
  }

  // Pages that mark their content with <main> or <article> mostly mean it.
  float SemanticBoost(uint32_t i) const {
    const Node& node = doc_.nodes[i];
    const bool semantic =
        (node.flags & kInArticle) || node.tag == Tag::kMain || node.tag == Tag::kArticle;
    return semantic ? kSemanticBoost : 1.0f;
  }

  // A positive class counts in full only on an element with some text: a
  // one-line box called "content-teaser" must not outscore the article.
  float ClassWeight(uint32_t i) const {
    const float weight = doc_.nodes[i].class_weight;
    if (weight <= 0) return weight;
    return weight * std::min(1.0f, float(stats_[i].chars) / kFullWeightChars);
  }

  void Touch(uint32_t i) {
    if (scores_.scored[i]) return;
    scores_.scored[i] = 1;
    const Node& node = doc_.nodes[i];
    scores_.value[i] = TagBonus(node.tag) + (options_.weight_classes ? ClassWeight(i) : 0);
    candidates_.push_back(i);
  }

  void ScoreParagraphs() {
    const size_t n = doc_.nodes.size();
    for (uint32_t i = 1; i < n;) {
      const Node& node = doc_.nodes[i];
      const NodeStats& st = stats_[i];
      if (st.removed) {
        i = node.end;
        continue;
      }
      // Lines split by <br> are judged by their average length: a column
      // of names or links with commas is not prose.
      const uint32_t line_chars = st.inline_chars / (st.inline_breaks + 1u);
      if (HasTrait(node.tag, kBlock) && !IsTop(doc_, i) &&
          line_chars >= static_cast<uint32_t>(options_.min_paragraph_chars)) {
        // Text split by pairs of <br> holds several paragraphs (Readability
        // turns <br><br> into paragraphs before scoring).
        const uint32_t units = 1 + st.inline_breaks / 2;
        const uint32_t unit_chars = st.inline_chars / units;
        const float score =
            units * (1.0f + std::min<uint32_t>(unit_chars / 100, 3)) + st.inline_commas;
        // Text beside block children is an anonymous paragraph inside this
        // element (Readability wraps it in a <p>); otherwise the element is
        // the paragraph and its parent holds it.
        uint32_t holder = (node.flags & kHasBlockChild) ? i : node.parent;
        for (int level = 0; level < kAncestorLevels; ++level) {
          Touch(holder);
          const float divider = level == 0 ? 1.0f : level == 1 ? 2.0f : level * 3.0f;
          scores_.value[holder] += score / divider;
          if (holder == 0) break;
          holder = doc_.nodes[holder].parent;
        }
      }
      ++i;
    }
  }

  uint32_t BestCandidate() {
    const size_t k = std::min(kTopCandidates, candidates_.size());
    std::partial_sort(candidates_.begin(), candidates_.begin() + k, candidates_.end(),
                      [&](uint32_t a, uint32_t b) {
                        if (scores_.value[a] != scores_.value[b]) {
                          return scores_.value[a] > scores_.value[b];
                        }
                        return a < b;
                      });
    candidates_.resize(k);
    return candidates_[0];
  }

  bool Contains(uint32_t ancestor, uint32_t node) const {
    return node >= ancestor && node < doc_.nodes[ancestor].end;
  }

  // Whether emission's conditional cleaning drops `i` for its negative
  // class and score (DropsConditionally's first test).
  bool DroppedByItsClass(uint32_t i) const {
    const float weight = options_.weight_classes ? doc_.nodes[i].class_weight : 0;
    return weight < 0 && scores_.Has(i) && weight + scores_.value[i] < 0;
  }

  // The best candidate inside a box the page calls a widget (a gallery's
  // 50 captions outscore the article around it), under a container that
  // scores at least half as much and holds prose of its own besides the
  // box: the container is the article, and the box is an insert that
  // emission drops from it. Without the article's itemprop=articleBody to
  // hold on to, the captions alone were taken for the article.
  uint32_t LeaveDroppedBox(uint32_t top) const {
    uint32_t box = doc_.nodes[top].parent;
    while (!IsTop(doc_, box) && !DroppedByItsClass(box)) box = doc_.nodes[box].parent;
    if (IsTop(doc_, box)) return top;
    const float enough = kContainerShare * scores_.value[top];
    for (uint32_t p = doc_.nodes[box].parent; !IsTop(doc_, p); p = doc_.nodes[p].parent) {
      if (!scores_.Has(p) || scores_.value[p] < enough) continue;
      const bool prose_outside =
          stats_[p].prose_blocks >= stats_[box].prose_blocks + kContainerProseBlocks;
      return prose_outside ? p : top;
    }
    return top;
  }

  // When several near-best candidates sit under one ancestor, the content is
  // split across them: take the ancestor.
  uint32_t RaiseToCommonAncestor(uint32_t top) const {
    const float top_score = scores_.value[top];
    std::vector<uint32_t> alternatives;
    for (size_t i = 1; i < candidates_.size(); ++i) {
      if (scores_.value[candidates_[i]] >= 0.75f * top_score) {
        alternatives.push_back(candidates_[i]);
      }
    }
    if (static_cast<int>(alternatives.size()) < kMinAlternatives) return top;
    for (uint32_t p = doc_.nodes[top].parent; !IsTop(doc_, p); p = doc_.nodes[p].parent) {
      const int inside = static_cast<int>(std::count_if(
          alternatives.begin(), alternatives.end(), [&](uint32_t a) { return Contains(p, a); }));
      if (inside >= kMinAlternatives) return p;
    }
    return top;
  }

  // What the text below `i` gives its score, without the bonus of a
  // positive class or id ("content", "main").
  float TextScore(uint32_t i) const {
    if (!options_.weight_classes) return scores_.value[i];
    const float bonus = std::max(0.0f, ClassWeight(i));
    return scores_.value[i] - bonus * (1.0f - float(stats_[i].LinkDensity())) * SemanticBoost(i);
  }

  // Readability's climb: a parent that outscores the candidate holds more
  // of the content. Only its text counts here: a page's main column called
  // "content" outscored the article it holds by its name alone, and took
  // the page's video player and teaser stream with it.
  uint32_t RaiseWhileParentScoresBetter(uint32_t top) const {
    float last = scores_.value[top];
    const float threshold = last / 3;
    for (uint32_t p = doc_.nodes[top].parent; !IsTop(doc_, p); p = doc_.nodes[p].parent) {
      if (!scores_.Has(p)) continue;
      const float score = TextScore(p);
      if (score < threshold) break;
      if (score > last) return p;
      last = score;
    }
    return top;
  }

  uint32_t RaiseThroughOnlyChildren(uint32_t top) const {
    for (uint32_t p = doc_.nodes[top].parent; !IsTop(doc_, p); p = doc_.nodes[p].parent) {
      int children = 0;
      ForEachChild(doc_, p, [&](uint32_t c) {
        children += doc_.nodes[c].tag != Tag::kText && !stats_[c].removed;
      });
      if (children != 1) break;
      top = p;
    }
    return top;
  }

  bool ParagraphLooksLikeContent(uint32_t c) const {
    const NodeStats& st = stats_[c];
    if (doc_.nodes[c].tag != Tag::kP || st.chars == 0) return false;
    const double density = st.LinkDensity();
    if (st.chars > 80) return density < 0.25;
    if (density > 0) return false;
    // A short paragraph counts when it reads as a sentence.
    for (uint32_t i = c + 1; i < doc_.nodes[c].end; ++i) {
      const std::string_view t = doc_.TextOf(doc_.nodes[i]);
      if (t.find(". ") != std::string_view::npos || t.ends_with('.')) return true;
    }
    return false;
  }

  // A sibling made of prose paragraphs continues the article (sites split
  // long articles into sections), whatever its score. Not one whose class
  // has a negative word ("hidden", "meta", "widget") that a positive one
  // only cancels out (id="articleBody__interrupt-card" class="hidden": a
  // book promotion after the article); a boilerplate word beside the
  // positive one is a part of the article ("article-header").
  bool HoldsProse(uint32_t c) const {
    const NodeStats& st = stats_[c];
    return st.prose_blocks >= kSiblingProseBlocks && st.LinkDensity() < 0.1 &&
           doc_.nodes[c].class_weight >= 0 &&
           (doc_.nodes[c].class_hints & (kHintNegative | kHintBoilerplate)) != kHintNegative;
  }

  std::vector<uint32_t> WithSiblings(uint32_t top) const {
    const uint32_t parent = doc_.nodes[top].parent;
    if (!options_.include_siblings) return {top};
    const float threshold = std::max(10.0f, scores_.value[top] * 0.2f);
    std::vector<uint32_t> roots;
    ForEachChild(doc_, parent, [&](uint32_t c) {
      if (doc_.nodes[c].tag == Tag::kText || stats_[c].removed) return;
      if (c == top || (scores_.Has(c) && scores_.value[c] >= threshold) ||
          ParagraphLooksLikeContent(c) || HoldsProse(c)) {
        roots.push_back(c);
      }
    });
    return roots;
  }

  const Document& doc_;
  const std::vector<NodeStats>& stats_;
  const ScoringOptions& options_;
  Scores& scores_;
  std::vector<uint32_t> candidates_;
};

uint32_t FirstMatching(const Document& doc, const std::vector<NodeStats>& stats,
                       bool (*match)(const Node&)) {
  const size_t n = doc.nodes.size();
  for (uint32_t i = 1; i < n;) {
    if (stats[i].removed) {
      i = doc.nodes[i].end;
      continue;
    }
    if (match(doc.nodes[i]) && stats[i].chars > 0) return i;
    ++i;
  }
  return 0;
}

}  // namespace

std::vector<uint32_t> SelectByScore(const Document& doc, const std::vector<NodeStats>& stats,
                                    const ScoringOptions& options, Scores* scores) {
  return Scorer(doc, stats, options, scores).Select();
}

uint32_t SelectFallback(const Document& doc, const std::vector<NodeStats>& stats) {
  using Match = bool (*)(const Node&);
  const Match chain[] = {
      [](const Node& n) { return n.tag == Tag::kArticle; },
      [](const Node& n) { return n.tag == Tag::kMain; },
      [](const Node& n) { return (n.flags & kRoleMain) != 0; },
      [](const Node& n) { return (n.flags & kIdContent) != 0; },
  };
  for (Match match : chain) {
    if (const uint32_t found = FirstMatching(doc, stats, match)) return found;
  }
  uint32_t best = 0;
  uint32_t best_chars = 0;
  for (uint32_t i = 1; i < doc.nodes.size();) {
    if (stats[i].removed) {
      i = doc.nodes[i].end;
      continue;
    }
    if (doc.nodes[i].tag != Tag::kText && stats[i].inline_chars > best_chars) {
      best = i;
      best_chars = stats[i].inline_chars;
    }
    ++i;
  }
  if (best != 0) return best;
  return doc.body;
}

}  // namespace pagesieve::content
