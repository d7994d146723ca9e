"""One measured run each of `pagesieve dedup`, of `pagesieve run` over a
backlog, and of `pagesieve run` under a steady input rate (latency)."""

import datetime
import json
import os
import time

import bench_kafka
import bench_metrics
import bench_proc


class RunResult:
    """One run: what it processed, how long, how much CPU and memory."""

    def __init__(self, kind, threads, usage, wall_s, verdicts, dead_letters):
        self.kind = kind
        self.threads = threads
        self.usage = usage
        self.wall_s = wall_s          # the throughput window (see each runner)
        self.verdicts = verdicts      # event_id -> (verdict, tier, duplicate_of event_id)
        self.dead_letters = dead_letters


def verdict_identity(verdict):
    of = verdict.get("duplicate_of") or {}
    return (verdict.get("verdict"), verdict.get("tier"), of.get("event_id"))


def run_dedup(pagesieve, stream, threads, workdir, tag):
    """`pagesieve dedup` over the stream file, from start to exit."""
    out = os.path.join(workdir, tag + ".verdicts.jsonl")
    dlq = os.path.join(workdir, tag + ".dlq.jsonl")
    child = bench_proc.Child(
        [pagesieve, "dedup", "-q", "--threads", str(threads), "-i", stream.path, "-o", out,
         "--dlq", dlq, "--state-dir", os.path.join(workdir, tag + ".state")],
        os.path.join(workdir, tag + ".log"))
    usage = child.wait(timeout_s=1800)
    if usage.exit_code != 0:
        raise RuntimeError("dedup exited %d:\n%s" % (usage.exit_code, child.stderr_tail()))
    verdicts = {}
    with open(out, encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            verdicts[v["event_id"]] = verdict_identity(v)
    with open(dlq, encoding="utf-8") as f:
        dead = sum(1 for line in f if line.strip())
    return RunResult("dedup", threads, usage, usage.wall_s, verdicts, dead)


class DaemonTopics:
    def __init__(self, group, input_topic, output_topic, state_dir):
        self.group = group
        self.input = input_topic
        self.output = output_topic
        self.state_dir = state_dir


# Further `--set key=value` settings for every daemon run (daemon_bench.py's
# --daemon-set), e.g. changelog.enabled=false to measure the changelog's cost.
DAEMON_SETS = []


def daemon_argv(pagesieve, broker, topics, threads, extra):
    """`pagesieve run` on its own group, state and output topic (verdicts of
    every kind and dead letters all go to the one output topic)."""
    sets = ["kafka.bootstrap_servers=" + broker.bootstrap, "kafka.group_id=" + topics.group,
            "kafka.input_topic=" + topics.input, "state.dir=" + topics.state_dir,
            "run.threads=%d" % threads] + DAEMON_SETS
    for key in ("unique", "duplicate", "skipped", "dead_letter"):
        sets.append("output.%s=%s" % (key, topics.output))
    argv = [pagesieve, "run", "--from", "earliest"] + extra
    for s in sets:
        argv += ["--set", s]
    return argv


def log_entry(line):
    """(epoch seconds, message) of a log line, text or JSON (log.format), or
    None for lines that are not log lines (librdkafka's own, the summary)."""
    try:
        if line.startswith("{"):
            entry = json.loads(line)
            stamp, msg = entry["time"], entry.get("msg", "")
        else:
            stamp, _, msg = line.split(" ", 2)
        t = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")
    except (ValueError, KeyError):
        return None
    return t.replace(tzinfo=datetime.timezone.utc).timestamp(), msg


def is_assignment(line):
    entry = log_entry(line)
    return entry is not None and entry[1].startswith("assigned ")


def parse_output(lines):
    """kcat lines `timestamp_ms TAB value`: verdicts by source position, and
    the dead-letter count (a dead letter's value is the original event)."""
    by_position, dead = {}, 0
    for line in lines:
        stamp, _, value = line.partition("\t")
        record = json.loads(value)
        if "verdict" not in record:
            dead += 1
            continue
        src = record["source"]
        by_position[(src["partition"], src["offset"])] = (int(stamp), record)
    return by_position, dead


def run_daemon_backlog(pagesieve, broker, topics, threads, workdir, tag):
    """`pagesieve run --until end` over the produced backlog. The throughput
    window runs from the first partition assignment (its log line) to the
    broker timestamp of the last verdict (CreateTime: when the daemon handed
    it to its producer)."""
    child = bench_proc.Child(
        daemon_argv(pagesieve, broker, topics, threads, ["--until", "end"]),
        os.path.join(workdir, tag + ".log"))
    usage = child.wait(timeout_s=1800)
    if usage.exit_code != 0:
        raise RuntimeError("pagesieve run exited %d:\n%s" % (usage.exit_code, child.stderr_tail()))
    assigned = [log_entry(line)[0] for _, line in child.lines if is_assignment(line)]
    if not assigned:
        raise RuntimeError("pagesieve run logged no assignment:\n" + child.stderr_tail())
    by_position, dead = parse_output(broker.read_all(topics.output, "%T\t%s\n"))
    if not by_position:
        raise RuntimeError("pagesieve run published no verdict")
    last_ms = max(stamp for stamp, _ in by_position.values())
    verdicts = {r["event_id"]: verdict_identity(r) for _, r in by_position.values()}
    return RunResult("run", threads, usage, last_ms / 1000.0 - min(assigned), verdicts, dead)


class LatencyResult:
    def __init__(self, rate, sent, usage, to_appended_ms, to_consumed_ms, dead_letters,
                 appended_at_s):
        self.rate = rate
        self.sent = sent
        self.usage = usage
        # Both topics stamp LogAppendTime: verdict appended - input appended.
        self.to_appended_ms = to_appended_ms
        self.to_consumed_ms = to_consumed_ms   # verdict read by a consumer - input appended
        self.dead_letters = dead_letters
        # When each record of to_appended_ms was appended, in seconds after
        # the first input record: where in the run the slow ones were.
        self.appended_at_s = appended_at_s
        self.commits = None  # scrape_commits(), when the daemon answered


# The daemon's /metrics (metrics.listen's default: the benchmark sets none).
METRICS_URL = "http://127.0.0.1:9464/metrics"


def scrape_commits(url=METRICS_URL):
    """The exactly-once commits so far, from pagesieve_commit_seconds: how
    many, their mean, and how many took longer than the first bucket at or
    above 50 ms. No lane decides while one runs, so a slow commit is a slow
    verdict. None when the daemon does not answer."""
    text = bench_metrics.fetch(url)
    if text is None:
        return None
    total, count, buckets = 0.0, 0, []
    for name, labels, value in bench_metrics.samples(text):
        if name == "pagesieve_commit_seconds_sum":
            total = value
        elif name == "pagesieve_commit_seconds_count":
            count = int(value)
        elif name == "pagesieve_commit_seconds_bucket" and labels.get("le") != "+Inf":
            buckets.append((float(labels["le"]), int(value)))
    if count == 0:
        return None
    slow_le, within = min((b for b in buckets if b[0] >= 0.05), default=(None, count))
    return {"count": count, "mean_ms": 1000.0 * total / count,
            "over_ms": None if slow_le is None else 1000.0 * slow_le,
            "over": count - within}


def run_latency(pagesieve, broker, topics, threads, partitions, stream, rate, count, workdir,
                settle_s=0):
    """A running daemon fed `count` events at `rate` per second, from
    `settle_s` after its partitions are assigned."""
    child = bench_proc.Child(daemon_argv(pagesieve, broker, topics, threads, []),
                             os.path.join(workdir, "latency.log"))
    reader = None
    try:
        if not child.wait_for_lines(is_assignment, partitions, 120):
            raise RuntimeError("the daemon was not assigned its partitions:\n" +
                               child.stderr_tail())
        time.sleep(settle_s)
        reader = bench_kafka.LiveReader(broker, topics.output, "%T\t%s\n")
        cpu = bench_proc.CpuWindow(child.proc.pid)
        cpu.start()
        # Open loop: a slow daemon does not slow the producer down. The
        # topic's LogAppendTime, which the producer reports back for every
        # record, starts each record's clock.
        landings = broker.produce_paced(topics.input, stream.keyed_path, rate, count)
        complete = reader.wait_for(count, 120)
        cpu.stop()
        commits = scrape_commits()
    finally:
        received = reader.stop() if reader else []
        child.terminate()
        usage = child.wait(timeout_s=60)
    if not complete:
        raise RuntimeError("only %d of %d verdicts arrived" % (len(received), count))
    if any(kind != "L" for _, _, _, kind in landings):
        raise RuntimeError("the input topic does not stamp LogAppendTime")
    appended_at = {(p, o): t for p, o, t, _ in landings}
    by_position, dead = parse_output(line for _, line in received)
    read_at = {}
    for when, line in received:
        record = json.loads(line.partition("\t")[2])
        if "verdict" in record:
            src = record["source"]
            read_at.setdefault((src["partition"], src["offset"]), when)
    to_appended, to_consumed, sent_at = [], [], []
    first = min(appended_at.values())
    for position, (stamp, _) in by_position.items():
        sent = appended_at[position]
        to_appended.append(stamp - sent)
        to_consumed.append(read_at[position] * 1000.0 - sent)
        sent_at.append((sent - first) / 1000.0)
    result = LatencyResult(rate, count, usage, to_appended, to_consumed, dead, sent_at)
    result.commits = commits
    result.daemon_cores = cpu.process_cores
    result.daemon_cpu_s = cpu.process_cpu
    result.machine_busy = cpu.machine_busy
    return result
