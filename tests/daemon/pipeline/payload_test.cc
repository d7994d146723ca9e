#include "pipeline/payload.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

namespace pagesieve::pipeline {
namespace {

TEST(PayloadTest, ABorrowedPayloadKeepsItsBufferAliveAndPointsIntoIt) {
  auto buffer = std::make_shared<std::string>(5000, 'x');
  std::weak_ptr<std::string> watch = buffer;
  const char* bytes = buffer->data();
  Payload p = Payload::Borrowed(*buffer, buffer);
  buffer.reset();
  ASSERT_FALSE(watch.expired());  // the payload holds it
  EXPECT_EQ(p.data(), bytes);     // no copy
  Payload moved = std::move(p);
  EXPECT_EQ(moved.data(), bytes);  // moving does not move the bytes
  EXPECT_EQ(moved.size(), 5000u);
  moved = Payload();
  EXPECT_TRUE(watch.expired());  // and lets go of them with the last holder
}

TEST(PayloadTest, AnOwnedShortStringSurvivesAMove) {
  // A short string lives inside the std::string object itself: a view
  // taken before the move would dangle after it.
  Payload p(std::string("{\"a\":1}"));
  Payload moved = std::move(p);
  EXPECT_EQ(moved, "{\"a\":1}");
  Payload copy = moved;
  EXPECT_EQ(copy.view(), moved.view());
  EXPECT_NE(copy.data(), moved.data());
}

}  // namespace
}  // namespace pagesieve::pipeline
