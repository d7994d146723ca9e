#include "files/dedup_runner.h"

#include <cstdio>
#include <filesystem>

#include "files/file_sink.h"
#include "files/file_source.h"
#include "pipeline/decide_stage.h"
#include "pipeline/pipeline.h"
#include "store/state_env.h"

namespace pagesieve::files {
namespace {

// A directory that exists for the run and is removed afterwards.
class ScratchDir {
 public:
  StatusOr<std::string> Create() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pagesieve-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return Status::IoError("cannot create a temporary state directory");
    }
    path_ = pattern;
    return path_;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }

 private:
  std::string path_;
};

// Prints "dedup: N records, R/s: <counts>" every few seconds.
class Progress {
 public:
  Progress(bool enabled, const Clock& clock)
      : enabled_(enabled), clock_(clock), start_(clock.SteadyNow()), last_(start_) {}
  void Maybe(const engine::VerdictCounts& counts) {
    const auto now = clock_.SteadyNow();
    if (!enabled_ || now - last_ < std::chrono::seconds(5)) return;
    const double secs = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "dedup: %lld records, %.0f/s: %s\n",
                 static_cast<long long>(counts.records), counts.records / secs,
                 counts.Summary().c_str());
    last_ = now;
  }

 private:
  const bool enabled_;
  const Clock& clock_;
  const Clock::SteadyTime start_;
  Clock::SteadyTime last_;
};

pipeline::PipelineOptions FilePipelineOptions(const DedupRunOptions& run) {
  pipeline::PipelineOptions o;
  o.input_name = "input";
  o.threads = run.threads;
  o.lane.batch_records = run.batch_records;
  // Batches go out full; the last one when the input ends (the pipeline
  // flushes a lane at its end), so no linger.
  o.lane.batch_linger = std::chrono::hours(24);
  o.lane.checkpoint = {std::nullopt, run.checkpoint_every};
  // Enough read ahead to keep every worker busy while this thread decides;
  // bounded, so memory is too.
  o.max_pending_bytes = (size_t{32} << 20) * static_cast<size_t>(run.threads + 1);
  return o;
}

}  // namespace

StatusOr<engine::VerdictCounts> DedupRunner::Run() {
  // Before any state or output exists: an input that is not WARC or JSONL
  // is refused with its name, not turned into a file of dead letters.
  PS_RETURN_IF_ERROR(CheckInputs(run_.inputs, run_.input.format));
  ScratchDir scratch;
  if (run_.state_dir) {
    state_.dir = *run_.state_dir;
  } else {
    PS_ASSIGN_OR_RETURN(state_.dir, scratch.Create());
  }
  std::error_code ec;
  std::filesystem::create_directories(state_.dir, ec);
  PS_ASSIGN_OR_RETURN(auto env, store::StateEnv::Create(state_));
  // Opened now, before any output is written: a state directory another
  // process holds stops the run at once.
  StatusOr<std::unique_ptr<store::Shard>> opened =
      env->OpenShardAt((std::filesystem::path(state_.dir) / "dedup").string(), engine_.shard);
  if (!opened.ok()) return opened.status().WithContext("state " + state_.dir);
  std::unique_ptr<store::Shard> shard = std::move(opened).value();

  FileSink sink;
  PS_RETURN_IF_ERROR(sink.Open(run_.output, run_.dead_letters));
  const FileFormat format;
  pipeline::DecideStage stage(engine_, clock_, format);
  FileSource source(run_.inputs, run_.batch_records, clock_, run_.input);
  pipeline::Pipeline pipeline(
      source, sink, stage,
      [&shard](PartitionId) -> StatusOr<std::unique_ptr<store::Shard>> {
        if (!shard) return Status::Internal("the file run has one lane");
        return std::move(shard);
      },
      FilePipelineOptions(run_), clock_);
  Progress progress(run_.progress, clock_);
  while (!pipeline.Done()) {
    PS_RETURN_IF_ERROR(pipeline.Step());
    progress.Maybe(pipeline.counts());
  }
  PS_RETURN_IF_ERROR(sink.Close());
  warc_counts_ = source.warc_counts();
  return pipeline.counts();
}

}  // namespace pagesieve::files
