#include "engine/fetched_event.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/time_format.h"

namespace pagesieve::engine {
namespace {

using ::testing::HasSubstr;

StatusOr<FetchedEvent> Parse(std::string_view json) { return ParseFetchedEvent(json, {}); }

TEST(FetchedEventTest, ParsesEveryField) {
  StatusOr<FetchedEvent> e = Parse(R"({"url": "https://a.example/x", "fetched_at":
      "2026-11-20T10:00:00Z", "status": 203, "content_type": "text/html", "body": "<p>hi</p>",
      "text": "hi", "event_id": "e-1", "key": "k"})");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->url, "https://a.example/x");
  EXPECT_EQ(e->fetched_at, *ParseRfc3339("2026-11-20T10:00:00Z"));
  EXPECT_EQ(e->status, 203);
  EXPECT_EQ(e->content_type, "text/html");
  EXPECT_EQ(e->body, "<p>hi</p>");
  EXPECT_EQ(e->text, "hi");
  EXPECT_EQ(e->event_id, "e-1");
  EXPECT_EQ(e->key, "k");
}

TEST(FetchedEventTest, DefaultsWhenOptionalFieldsAreMissingOrNull) {
  StatusOr<FetchedEvent> e = Parse(R"({"url": "http://a.example/", "text": null})");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->status, 200);
  EXPECT_FALSE(e->fetched_at.has_value());
  EXPECT_FALSE(e->text.has_value());
  EXPECT_EQ(e->body, "");
  EXPECT_EQ(e->event_id, "");
}

TEST(FetchedEventTest, ReadsEpochMillisNumericIdsAndStatusStrings) {
  StatusOr<FetchedEvent> e =
      Parse(R"({"url": "http://a/", "fetched_at": 1795168800000, "event_id": 42, "status": "404"})");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(ToMillis(*e->fetched_at), 1795168800000);
  EXPECT_EQ(e->event_id, "42");
  EXPECT_EQ(e->status, 404);
}

TEST(FetchedEventTest, DecodesBodyBase64AndPrefersItOverBody) {
  StatusOr<FetchedEvent> e =
      Parse(R"({"url": "http://a/", "body": "text", "body_base64": "/wAB"})");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->body, std::string("\xff\x00\x01", 3));
}

TEST(FetchedEventTest, UnescapesJsonStrings) {
  StatusOr<FetchedEvent> e = Parse(R"({"url": "http://a/\u00e9", "body": "a\"b\\c\n\u20ac"})");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->url, "http://a/\xc3\xa9");
  EXPECT_EQ(e->body, "a\"b\\c\n\xe2\x82\xac");
}

TEST(FetchedEventTest, IgnoresUnknownFields) {
  StatusOr<FetchedEvent> e =
      Parse(R"({"crawler": {"name": "x", "ids": [1,2]}, "url": "http://a/", "extra": true})");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->url, "http://a/");
}

TEST(FetchedEventTest, UsesConfiguredFieldNames) {
  EventFieldNames names;
  names.url = "page_url";
  names.body = "html";
  StatusOr<FetchedEvent> e =
      ParseFetchedEvent(R"({"page_url": "http://a/", "html": "<b>x</b>", "url": "ignored"})",
                        names);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->url, "http://a/");
  EXPECT_EQ(e->body, "<b>x</b>");
}

struct BadCase {
  const char* json;
  const char* reason;
};

TEST(FetchedEventTest, RejectsBadEventsWithAReason) {
  const BadCase cases[] = {
      {"", "not a JSON object"},
      {"not json", "not a JSON object"},
      {"[1, 2]", "not a JSON object"},
      {R"({"url": "http://a/")", "invalid JSON"},
      {R"({"url": "http://a/"} trailing)", "invalid JSON"},
      {R"({"body": "x"})", "no 'url' field"},
      {R"({"url": ""})", "no 'url' field"},
      {R"({"url": 5})", "'url' must be a string"},
      {R"({"url": "http://a/", "fetched_at": "yesterday"})", "fetched_at"},
      {R"({"url": "http://a/", "fetched_at": 1.5})", "fetched_at"},
      {R"({"url": "http://a/", "status": "ok"})", "'status' must be an integer"},
      {R"({"url": "http://a/", "status": 70000})", "not an HTTP status"},
      {R"({"url": "http://a/", "body_base64": "%%%%"})", "invalid base64"},
      {"{\"url\": \"http://a/\xff\"}", "invalid JSON"},  // invalid UTF-8
  };
  for (const BadCase& c : cases) {
    StatusOr<FetchedEvent> e = Parse(c.json);
    ASSERT_FALSE(e.ok()) << c.json;
    EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument) << c.json;
    EXPECT_THAT(e.status().message(), HasSubstr(c.reason)) << c.json;
  }
}

TEST(FetchedEventTest, FieldNamesComeFromConfig) {
  StatusOr<Config> config = Config::FromToml("[event.fields]\nurl = \"u\"\n", "test");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  StatusOr<EventFieldNames> names = EventFieldNamesFromConfig(*config);
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->url, "u");
  EXPECT_EQ(names->body, "body");
  StatusOr<Config> empty = Config::FromToml("[event.fields]\nurl = \"\"\n", "test");
  EXPECT_FALSE(EventFieldNamesFromConfig(*empty).ok());
}

}  // namespace
}  // namespace pagesieve::engine
