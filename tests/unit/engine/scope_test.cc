#include "engine/scope.h"

#include <gtest/gtest.h>

namespace pagesieve::engine {
namespace {

TEST(ScopeTest, RegisteredDomainGroupsASite) {
  EXPECT_EQ(ScopeOf(ScopeKey::kRegisteredDomain, "news.bbc.co.uk", std::nullopt), "bbc.co.uk");
  EXPECT_EQ(ScopeOf(ScopeKey::kRegisteredDomain, "www.bbc.co.uk", std::nullopt), "bbc.co.uk");
  EXPECT_EQ(ScopeOf(ScopeKey::kRegisteredDomain, "192.0.2.1", std::nullopt), "192.0.2.1");
}

TEST(ScopeTest, OtherKeys) {
  EXPECT_EQ(ScopeOf(ScopeKey::kHost, "news.bbc.co.uk", std::nullopt), "news.bbc.co.uk");
  EXPECT_EQ(ScopeOf(ScopeKey::kGlobal, "news.bbc.co.uk", std::nullopt), "*");
  EXPECT_EQ(ScopeOf(ScopeKey::kRecordKey, "news.bbc.co.uk", "tenant-7"), "tenant-7");
  // No key: the record is still compared within its site.
  EXPECT_EQ(ScopeOf(ScopeKey::kRecordKey, "news.bbc.co.uk", std::nullopt), "bbc.co.uk");
}

TEST(ScopeTest, ParsesNamesAndRejectsOthers) {
  EXPECT_EQ(*ParseScopeKey("host"), ScopeKey::kHost);
  EXPECT_EQ(*ParseScopeKey("global"), ScopeKey::kGlobal);
  EXPECT_FALSE(ParseScopeKey("domain").ok());
}

}  // namespace
}  // namespace pagesieve::engine
