// The process the crash test kills. Modes:
//   crash_writer write <state dir>   resume at the shard's checkpoint and apply
//                                    crash records forever, printing
//                                    "record <i>" after each and
//                                    "checkpoint <next>" before each checkpoint
//   crash_writer hold <state dir>    open the shard, print "ready", wait
// Lines go straight to fd 1, so the parent sees them as they happen.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "crash_records.h"
#include "store/state_env.h"
#include "store_test_util.h"

namespace {

using namespace pagesieve;
using namespace pagesieve::store;
namespace storetest = pagesieve::store::storetest;

void Say(const std::string& line) {
  const std::string out = line + "\n";
  if (write(1, out.data(), out.size()) < 0) _exit(3);
}

int Fail(const Status& s) {
  std::fprintf(stderr, "crash_writer: %s\n", s.ToString().c_str());
  return 2;
}

int Run(const std::string& mode, const std::string& dir) {
  StatusOr<std::unique_ptr<StateEnv>> env = StateEnv::Create(storetest::TestEnvOptions(dir));
  if (!env.ok()) return Fail(env.status());
  StatusOr<std::unique_ptr<Shard>> opened =
      (*env)->OpenShard("crash", PartitionId(0), storetest::TestShardOptions());
  if (!opened.ok()) return Fail(opened.status());
  Shard& shard = **opened;
  if (mode == "hold") {
    Say("ready");
    pause();
    return 0;
  }
  for (int64_t i = shard.checkpointed_offset().value_or(Offset(0)).value();; ++i) {
    if (Status s = storetest::ApplyCrashRecord(shard, i); !s.ok()) return Fail(s);
    Say("record " + std::to_string(i));
    if (storetest::CheckpointsAfter(i)) {
      Say("checkpoint " + std::to_string(i + 1));  // a kill on this line lands mid-write
      if (Status s = shard.Checkpoint(Offset(i + 1)); !s.ok()) return Fail(s);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "write") != 0 && std::strcmp(argv[1], "hold") != 0)) {
    std::fprintf(stderr, "usage: crash_writer write|hold <state dir>\n");
    return 1;
  }
  return Run(argv[1], argv[2]);
}
