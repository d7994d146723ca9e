// Kills a writer process (SIGKILL) at random instants and checks that the
// reopened shard is always exactly one of its checkpoints, with that
// checkpoint's offset. Also: a shard held by another process refuses to open.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "crash_records.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::CrashRecordOf;

// A child process running the crash writer, its stdout read line by line.
class Writer {
 public:
  explicit Writer(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> argv;
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    fd_ = fds[0];
  }
  ~Writer() { Kill(); }

  // The next line, or nothing once the writer has exited.
  std::optional<std::string> ReadLine() {
    while (true) {
      const size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      char chunk[4096];
      const ssize_t n = read(fd_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

  void Kill() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
};

class CrashTest : public ::testing::Test {
 protected:
  void SetUp() override { root_ = storetest::MakeTempDir(); }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  std::unique_ptr<Shard> OpenShard() {
    env_ = StateEnv::Create(storetest::TestEnvOptions(root_)).value();
    return env_->OpenShard("crash", PartitionId(0), storetest::TestShardOptions()).value();
  }
  // Checks the shard holds exactly records [0, next) and returns next.
  int64_t CheckOneCheckpoint(std::mt19937_64& rng);

  std::filesystem::path root_;
  std::unique_ptr<StateEnv> env_;
};

void ExpectPresent(Shard& shard, int64_t i) {
  const storetest::CrashRecord r = CrashRecordOf(i);
  UrlLookup url = shard.LookupUrl(r.scope, r.url).value();
  ASSERT_TRUE(url.entry.has_value()) << "record " << i;
  EXPECT_EQ(url.entry->origin, r.origin);
  std::optional<ContentEntry> content = shard.LookupContent(r.scope, r.content).value();
  ASSERT_TRUE(content.has_value()) << "record " << i;
  EXPECT_EQ(content->origin, r.origin);
  // Found by its SimHash and by its sketch's bands, with the sketch.
  std::vector<NearCandidate> near = shard.FindNear(r.scope, {r.simhash, 0, r.sketch}).value();
  ASSERT_EQ(near.size(), 1u) << "record " << i;
  EXPECT_EQ(near[0].origin, r.origin);
  EXPECT_TRUE(near[0].in_tables && near[0].in_bands) << "record " << i;
  EXPECT_EQ(near[0].sketch, r.sketch);
  // The bands alone find it too: they were rebuilt from the entries.
  near = shard.FindNear(r.scope, {~r.simhash, 0, r.sketch}).value();
  ASSERT_EQ(near.size(), 1u) << "record " << i;
  EXPECT_TRUE(near[0].in_bands && !near[0].in_tables);
}

void ExpectAbsent(Shard& shard, int64_t i) {
  const storetest::CrashRecord r = CrashRecordOf(i);
  EXPECT_FALSE(shard.LookupUrl(r.scope, r.url).value().seen) << "record " << i;
  EXPECT_FALSE(shard.LookupContent(r.scope, r.content).value().has_value()) << "record " << i;
  EXPECT_TRUE(shard.FindNear(r.scope, {r.simhash, 0, r.sketch}).value().empty()) << "record " << i;
}

int64_t CrashTest::CheckOneCheckpoint(std::mt19937_64& rng) {
  std::unique_ptr<Shard> shard = OpenShard();
  const int64_t next = shard->checkpointed_offset().value_or(Offset(0)).value();
  if (next > 0) {
    EXPECT_TRUE(storetest::CheckpointsAfter(next - 1)) << next << " is not a checkpoint offset";
    EXPECT_EQ(shard->watermark(), CrashRecordOf(next - 1).origin.event_time);
  } else {
    EXPECT_EQ(shard->watermark(), EventTimeFromMillis(0));
  }
  for (int64_t i = std::max<int64_t>(0, next - 20); i < next; ++i) ExpectPresent(*shard, i);
  for (int k = 0; k < 20 && next > 0; ++k)
    ExpectPresent(*shard, static_cast<int64_t>(rng() % next));
  for (int64_t i = next; i < next + 40; ++i) ExpectAbsent(*shard, i);
  return next;
}

TEST_F(CrashTest, EveryKillLeavesExactlyOneCheckpoint) {
  std::mt19937_64 rng(20240601);
  int64_t last = 0;
  for (int iteration = 0; iteration < 30; ++iteration) {
    Writer writer({STORE_CRASH_WRITER, "write", root_.string()});
    // Half the kills follow a random line (mid-record or mid-batch), half a
    // "checkpoint" line, so that they land while the batch is being written.
    const int lines = 1 + static_cast<int>(rng() % 60);
    const bool at_checkpoint = rng() % 2 == 0;
    for (int k = 0; k < lines || at_checkpoint; ++k) {
      std::optional<std::string> line = writer.ReadLine();
      ASSERT_TRUE(line.has_value()) << "the writer stopped early (see its stderr)";
      if (k >= lines && line->starts_with("checkpoint")) break;
    }
    writer.Kill();
    const int64_t next = CheckOneCheckpoint(rng);
    ASSERT_FALSE(HasFailure()) << "after kill " << iteration;
    EXPECT_GE(next, last) << "a kill moved the checkpoint back";
    last = next;
  }
  EXPECT_GT(last, 100) << "the writers made too little progress to test anything";
}

TEST_F(CrashTest, ShardHeldByAnotherProcessRefusesToOpen) {
  Writer holder({STORE_CRASH_WRITER, "hold", root_.string()});
  ASSERT_EQ(holder.ReadLine(), std::optional<std::string>("ready"));
  env_ = StateEnv::Create(storetest::TestEnvOptions(root_)).value();
  StatusOr<std::unique_ptr<Shard>> shard =
      env_->OpenShard("crash", PartitionId(0), storetest::TestShardOptions());
  ASSERT_FALSE(shard.ok());
  EXPECT_EQ(shard.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(shard.status().message().find("in use"), std::string::npos);
  holder.Kill();  // a dead holder leaves no stale lock behind
  EXPECT_TRUE(env_->OpenShard("crash", PartitionId(0), storetest::TestShardOptions()).ok());
}

}  // namespace
}  // namespace pagesieve::store
