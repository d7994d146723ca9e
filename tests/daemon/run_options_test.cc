// The options' defaults in code are what config/pagesieve.toml (the
// compiled-in default configuration users read) says: a default changed in
// one place and not the other is how they drifted apart before.
#include "run/run_options.h"

#include <gtest/gtest.h>

#include "config/config.h"
#include "pipeline/pipeline.h"

namespace pagesieve::run {
namespace {

TEST(RunOptionsTest, TheDefaultsInCodeAreTheDocumentedConfigs) {
  StatusOr<Config> config = Config::Defaults();
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  StatusOr<RunOptions> documented = RunOptionsFromConfig(*config);
  ASSERT_TRUE(documented.ok()) << documented.status().ToString();
  const RunOptions in_code;
  // run.threads is not compared: 0 in the file means one per core.
  EXPECT_EQ(in_code.batch_records, documented->batch_records);
  EXPECT_EQ(in_code.batch_linger, documented->batch_linger);
  EXPECT_EQ(in_code.checkpoint_interval, documented->checkpoint_interval);
  EXPECT_EQ(in_code.max_pending_bytes, documented->max_pending_bytes);
  EXPECT_EQ(in_code.max_unacknowledged, documented->max_unacknowledged);
  EXPECT_EQ(in_code.shutdown_timeout, documented->shutdown_timeout);
  EXPECT_EQ(in_code.progress_interval, documented->progress_interval);
  EXPECT_EQ(in_code.sample_interval, documented->sample_interval);
  // The pipeline's own defaults (what its tests run with) are the daemon's.
  const pipeline::PipelineOptions pipeline;
  EXPECT_EQ(pipeline.max_pending_bytes, documented->max_pending_bytes);
  EXPECT_EQ(pipeline.max_unacknowledged, documented->max_unacknowledged);
}

}  // namespace
}  // namespace pagesieve::run
