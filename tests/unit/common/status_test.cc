#include "common/status.h"

#include <gtest/gtest.h>

#include "common/status_or.h"

namespace pagesieve {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.ToString(), "OK");
  EXPECT_EQ(s.message(), "");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status s = Status::InvalidArgument("no url");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.ToString(), "invalid argument: no url");
}

TEST(StatusTest, CopiesAreIndependent) {
  Status a = Status::IoError("disk");
  Status b = a;
  a = Status::Ok();
  EXPECT_TRUE(a.ok());
  EXPECT_EQ(b, Status::IoError("disk"));
}

TEST(StatusTest, WithContextPrefixesTheMessageAndKeepsOkOk) {
  EXPECT_EQ(Status::Corruption("bad page").WithContext("shard t-3").message(),
            "shard t-3: bad page");
  EXPECT_TRUE(Status::Ok().WithContext("anything").ok());
}

StatusOr<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument("odd");
  return x / 2;
}

StatusOr<int> Quarter(int x) {
  PS_ASSIGN_OR_RETURN(int half, Half(x));
  PS_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

Status CheckEven(int x) {
  PS_RETURN_IF_ERROR(Half(x).status());
  return Status::Ok();
}

TEST(StatusOrTest, HoldsValueOrError) {
  StatusOr<int> good = Half(8);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 4);
  StatusOr<int> bad = Half(3);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "odd");
}

TEST(StatusOrTest, MacrosPropagateTheFirstError) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(6).status().message(), "odd");  // 6/2 = 3 is odd
  EXPECT_TRUE(CheckEven(4).ok());
  EXPECT_FALSE(CheckEven(5).ok());
}

TEST(StatusOrTest, MovesOutMoveOnlyValues) {
  StatusOr<std::unique_ptr<int>> p = std::make_unique<int>(7);
  std::unique_ptr<int> taken = std::move(p).value();
  EXPECT_EQ(*taken, 7);
}

}  // namespace
}  // namespace pagesieve

namespace pagesieve {
namespace {

TEST(StatusOrDeathTest, UsingTheValueOfAnErrorAbortsWithTheStatus) {
  StatusOr<int> bad = Status::NotFound("gone");
  EXPECT_DEATH((void)*bad, "value of a failed StatusOr used: not found: gone");
}

}  // namespace
}  // namespace pagesieve
