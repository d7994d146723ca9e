#include "commands/canonicalize_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_process.h"

namespace pagesieve::commands {
namespace {

using ::testing::HasSubstr;

// Runs CanonicalizeLines over `input`; returns what it wrote.
std::string RunLines(const url::Canonicalizer& canonicalizer, const std::string& input,
                     size_t* errors = nullptr) {
  std::FILE* in = fmemopen(const_cast<char*>(input.data()), input.size(), "r");
  if (input.empty()) in = std::tmpfile();  // fmemopen refuses a size of 0
  char* data = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  StatusOr<size_t> result = CanonicalizeLines(canonicalizer, in, out);
  std::fclose(in);
  std::fclose(out);
  std::string output(data, size);
  std::free(data);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (errors != nullptr && result.ok()) *errors = *result;
  return output;
}

struct BinaryRun {
  int exit_code;
  std::string output;  // standard output, then standard error
};

// Runs the built binary: `pagesieve canonicalize <args>` with `input` on stdin.
BinaryRun RunBinary(std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), "canonicalize");
  const pagesieve::testing::ProcessResult run = pagesieve::testing::RunPagesieve(args, input);
  return {run.exit_code, run.out + run.err};
}

TEST(CanonicalizeLinesTest, AnswersEachLineInOrderGoodOrBad) {
  const url::Canonicalizer canonicalizer({});
  size_t errors = 0;
  const std::string output = RunLines(canonicalizer,
                                      "HTTP://Example.com/b/../a?utm_source=x\n"
                                      "ftp://example.com/\n"
                                      "\n"
                                      "http://example.com:80\r\n"
                                      "http://[::1/\n"
                                      "https://xn--bcher-kva.de/?b=2&a=1",
                                      &errors);
  EXPECT_EQ(output,
            "http://example.com/a\n"
            "!error: unsupported scheme\n"
            "!error: missing scheme\n"
            "http://example.com/\n"
            "!error: invalid IPv6 address\n"
            "https://xn--bcher-kva.de/?a=1&b=2\n");
  EXPECT_EQ(errors, 3u);
}

TEST(CanonicalizeLinesTest, EmptyInputGivesNoOutput) {
  EXPECT_EQ(RunLines(url::Canonicalizer({}), ""), "");
}

TEST(CanonicalizeLinesTest, KeepsOneLinePerInputAcrossBlockBoundaries) {
  // More than one 1 MiB read block, so lines are cut between reads.
  const url::Canonicalizer canonicalizer({});
  std::string input;
  std::string expected;
  for (int i = 0; i < 18000; ++i) {
    if (i % 7 == 3) {
      input += "mailto:someone" + std::to_string(i) + "@example.com\n";
      expected += "!error: unsupported scheme\n";
    } else {
      const std::string page = "/a-somewhat-longer-path/page/" + std::to_string(i);
      input += "http://Example.com" + page + "?utm_medium=feed&id=" + std::to_string(i) + "\n";
      expected += "http://example.com" + page + "?id=" + std::to_string(i) + "\n";
    }
  }
  ASSERT_GT(input.size(), size_t{1} << 20);
  EXPECT_EQ(RunLines(canonicalizer, input), expected);
}

TEST(CanonicalizeLinesTest, AnswersAHugeLineWithAnErrorAndGoesOn) {
  const url::Canonicalizer canonicalizer({});
  const std::string huge = "http://example.com/" + std::string(3 << 20, 'a');
  EXPECT_EQ(RunLines(canonicalizer, "http://a.com\n" + huge + "\nhttp://b.com\n" + huge),
            "http://a.com/\n"
            "!error: URL longer than url.max_length\n"
            "http://b.com/\n"
            "!error: URL longer than url.max_length\n");
}

TEST(CanonicalizeCommandTest, BinaryAnswersEachLine) {
  const BinaryRun run = RunBinary({}, "http://A.com/./x\nnot a url\n");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.output, "http://a.com/x\n!error: missing scheme\n");
}

TEST(CanonicalizeCommandTest, SetTakesEffect) {
  const std::string input = "http://www.example.com/\n";
  EXPECT_EQ(RunBinary({}, input).output, "http://www.example.com/\n");
  const BinaryRun run = RunBinary({"--set", "url.strip_www=true"}, input);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.output, "http://example.com/\n");
}

TEST(CanonicalizeCommandTest, ConfigFileTakesEffect) {
  const std::filesystem::path config =
      std::filesystem::path(::testing::TempDir()) / "canonicalize_test_config.toml";
  std::ofstream(config) << "[url]\nfold_scheme = true\n";
  const BinaryRun run = RunBinary({"--config", config.string()}, "http://example.com/\n");
  std::filesystem::remove(config);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.output, "https://example.com/\n");
}

TEST(CanonicalizeCommandTest, BadSetExitsTwoWithAClearMessage) {
  const BinaryRun unknown = RunBinary({"--set", "url.strip_wwww=true"}, "http://a.com/\n");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.output, HasSubstr("url.strip_wwww"));
  EXPECT_EQ(unknown.output.find("http://a.com/"), std::string::npos);  // nothing was done

  const BinaryRun out_of_range = RunBinary({"--set", "url.max_length=1"}, "http://a.com/\n");
  EXPECT_EQ(out_of_range.exit_code, 2);
  EXPECT_THAT(out_of_range.output, HasSubstr("url.max_length"));
  EXPECT_EQ(std::count(out_of_range.output.begin(), out_of_range.output.end(), '\n'), 1);
}

}  // namespace
}  // namespace pagesieve::commands
