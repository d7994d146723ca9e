#!/usr/bin/env python3
"""Global dedup on Kafka: routed by fingerprint against one partition.

Builds the real-page crawl stream (bench/crawlgen, as daemon_bench does),
then, with scope.key = "global", times `pagesieve run` over it as a backlog:

  scope          today's global mode: the input on one partition, one shard
                 decides everything (scope.routing = "scope")
  fingerprint N  the input on 4 partitions, routed by fingerprint over N
                 partitions of each internal topic (scope.routing =
                 "fingerprint"), a flush record per input partition after the
                 stream (its event time lifts the floors past every page)

For each run: wall time from start to the last verdict, process CPU
(wait4), peak RSS; CPU by stage from /proc/<pid>/task just before the
stop (threads are named ps-route, ps-url, ps-content, ps-near; rdk:* are
librdkafka's, rocksdb:* RocksDB's); messages and bytes per record on the
internal topics by kind, from /metrics. Every run's verdicts are compared
with `pagesieve dedup` over the same records in the run's order (routed:
event time, then partition and offset; one partition: its offsets), which
differ where pages share an event time.

Standard library only; drives kcat and the pagesieve binary.
Usage: bench/routed/routed_bench.py --pagesieve build/pagesieve [--partitions 1,2,4]
"""

import argparse
import json
import os
import re
import shutil
import socket
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "bench", "daemon"))
import bench_kafka  # noqa: E402
import bench_metrics  # noqa: E402
import bench_proc  # noqa: E402
import bench_runs  # noqa: E402
import bench_stream  # noqa: E402

INPUT_PARTITIONS = 4
STAGES = ("route", "url", "content", "near")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pagesieve", default=os.path.join(REPO, "build", "pagesieve"))
    ap.add_argument("--partitions", default="1,2,4",
                    help="routing.partitions to measure, comma-separated")
    ap.add_argument("--runs", type=int, default=1, help="runs of each mode")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sites", type=int, default=0)
    ap.add_argument("--bootstrap", default="127.0.0.1:" + os.environ.get("PAGESIEVE_KAFKA_PORT",
                                                                          "9092"))
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting for every run")
    ap.add_argument("--keep", action="store_true")
    return ap.parse_args()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def thread_cpu(pid):
    """CPU seconds of the process's threads so far, summed by thread name
    (librdkafka's and RocksDB's by their prefix)."""
    ticks = os.sysconf("SC_CLK_TCK")
    by_name = {}
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return by_name
    for tid in tasks:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid), encoding="ascii",
                      errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        for prefix in ("rdk:", "rocksdb:"):
            if name.startswith(prefix):
                name = prefix + "*"
        by_name[name] = by_name.get(name, 0.0) + cpu
    return by_name


def scrape(port):
    """The routed message counters of every stage: {(stage, kind): (messages, bytes)}."""
    text = bench_metrics.fetch("http://127.0.0.1:%d/metrics" % port)
    if text is None:
        raise RuntimeError("the daemon's /metrics on port %d did not answer" % port)
    out = {}
    pattern = re.compile(
        r'^pagesieve_(?:(url|content|near)_owners_)?routed_(messages|message_bytes)_total$')
    for name, labels, value in bench_metrics.samples(text):
        m = pattern.match(name)
        if not m or "kind" not in labels:
            continue
        stage = m.group(1) or "route"
        counts = out.setdefault((stage, labels["kind"]), [0.0, 0.0])
        counts[0 if m.group(2) == "messages" else 1] += value
    return out


def flush_lines(stream):
    """One flush event per input partition a day after the last page, as
    `partition TAB value` lines."""
    last = 0
    with open(stream.path, encoding="utf-8") as f:
        for line in f:
            last = max(last, json.loads(line).get("fetched_at", 0))
    return [json.dumps({"url": "https://flush.example/p%d" % p, "fetched_at": last + 86_400_000,
                        "status": 200, "text": "flush %d" % p}) for p in range(INPUT_PARTITIONS)]


def produce_flush(broker, topic, lines):
    import subprocess
    for p, value in enumerate(lines):
        subprocess.run(["kcat", "-P", "-b", broker.bootstrap, "-t", topic, "-p", str(p),
                        "-K", "\t"], input="flush\t" + value + "\n", text=True, check=True)


def committed_output(broker, topic):
    """The verdicts (event_id -> identity) and the dead-letter count a
    read_committed reader of `topic` sees now."""
    import subprocess
    text = subprocess.run(["kcat", "-C", "-b", broker.bootstrap, "-t", topic, "-o", "beginning",
                           "-e", "-q", "-X", "isolation.level=read_committed", "-X",
                           "fetch.message.max.bytes=16777216", "-f", "%s\n"],
                          capture_output=True, check=True).stdout
    verdicts, dead = {}, 0
    for line in text.decode("utf-8", errors="replace").split("\n"):
        if not line:
            continue
        try:
            v = json.loads(line)
        except ValueError:
            dead += 1  # a dead letter quotes its record, which may be anything
            continue
        if isinstance(v, dict) and "verdict" in v and "event_id" in v:
            verdicts[v["event_id"]] = bench_runs.verdict_identity(v)
        else:
            dead += 1
    return verdicts, dead


def in_order_verdicts(args, broker, topic, workdir, tag):
    """What `pagesieve dedup` gives over the input read back from `topic`,
    in the routed order: event time, then partition and offset (one
    partition: its order). The flush records are left out."""
    import subprocess
    # Split on newlines alone: a page may hold other line separators.
    text = subprocess.run(["kcat", "-C", "-b", broker.bootstrap, "-t", topic, "-o", "beginning",
                           "-e", "-q", "-X", "fetch.message.max.bytes=16777216", "-f",
                           "%p\t%o\t%k\t%s\n"], capture_output=True, check=True).stdout
    rows = []
    for line in text.decode("utf-8", errors="replace").split("\n"):
        if not line:
            continue
        p, o, key, value = line.split("\t", 3)
        if key == "flush":
            continue
        event = json.loads(value)
        rows.append(((event.get("fetched_at", 0), int(p), int(o)), value))
    rows.sort(key=lambda r: r[0])
    path = os.path.join(workdir, tag + ".ordered.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for _, value in rows:
            f.write(value + "\n")
    out = os.path.join(workdir, tag + ".dedup.jsonl")
    subprocess.run([args.pagesieve, "dedup", "-q", "--set", "scope.key=global", "-i", path, "-o",
                    out, "--dlq", os.devnull, "--state-dir", os.path.join(workdir, tag + ".dedup")],
                   check=True)
    verdicts = {}
    with open(out, encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            verdicts[v["event_id"]] = bench_runs.verdict_identity(v)
    return verdicts


def one_run(args, broker, stream, workdir, mode, partitions, tag):
    inputs = 1 if mode == "scope" else INPUT_PARTITIONS
    topic_in, topic_out = tag + "-in", tag + "-out"
    broker.create_topics([topic_in], inputs)
    broker.create_topics([topic_out], 4)
    broker.produce_file(topic_in, stream.keyed_path)
    if mode == "fingerprint":
        produce_flush(broker, topic_in, flush_lines(stream))
    port = free_port()
    sets = ["kafka.bootstrap_servers=" + broker.bootstrap, "kafka.group_id=" + tag,
            "kafka.input_topic=" + topic_in, "state.dir=" + os.path.join(workdir, tag),
            "run.threads=%d" % args.threads, "scope.key=global", "scope.routing=" + mode,
            "metrics.listen=127.0.0.1:%d" % port]
    if mode == "fingerprint":
        sets += ["routing.partitions=%d" % partitions, "routing.max_lateness=1h",
                 "routing.idle_timeout=0s"]
    for key in ("unique", "duplicate", "skipped", "dead_letter"):
        sets.append("output.%s=%s" % (key, topic_out))
    argv = [args.pagesieve, "run", "--from", "earliest"]
    for s in sets + args.set:
        argv += ["--set", s]
    child = bench_proc.Child(argv, os.path.join(workdir, tag + ".log"))
    deadline = time.monotonic() + 900
    threads = {}
    # The end offsets count transaction markers too: read what is committed.
    verdicts, dead = {}, 0
    while len(verdicts) + dead < stream.events:
        if child.exited() or time.monotonic() > deadline:
            raise RuntimeError("%s: no verdict for every page:\n%s" % (tag, child.stderr_tail()))
        threads = thread_cpu(child.proc.pid)
        verdicts, dead = committed_output(broker, topic_out)
        time.sleep(0.2)
    wall = time.monotonic() - child.started
    threads = thread_cpu(child.proc.pid)
    sent = scrape(port)
    child.terminate()
    usage = child.wait(timeout_s=120)
    expected = in_order_verdicts(args, broker, topic_in, workdir, tag)
    differ = sum(1 for k, v in expected.items() if verdicts.get(k) != v)
    shown = 0
    for k, v in sorted(expected.items()):
        if verdicts.get(k) != v and shown < 8:
            shown += 1
            print("routed_bench: %s %s: dedup %s, run %s" % (tag, k, v, verdicts.get(k)),
                  file=sys.stderr)
    return {"differ": differ, "expected": len(expected), "mode": mode, "partitions": partitions,
            "wall_s": wall, "cpu_s": usage.cpu_s,
            # VmHWM as sampled: wait4's ru_maxrss starts from this process's
            # own size at the fork, which reading the pages back made large.
            "rss_mib": usage.vmhwm_kib / 1024, "threads": threads,
            "sent": sent, "verdicts": verdicts, "exit": usage.exit_code}


def report(results, events):
    print("%d events, scope.key = global, %s" % (events, time.strftime("%Y-%m-%d %H:%M")))
    print("%-14s %7s %8s %7s %10s %8s  %s" % ("mode", "wall s", "pages/s", "CPU s",
                                              "pages/CPU-s", "RSS MiB", "CPU ms per page by thread"))
    for r in results:
        name = r["mode"] if r["mode"] == "scope" else "fingerprint %d" % r["partitions"]
        by = ", ".join("%s %.2f" % (k, v * 1000 / events)
                       for k, v in sorted(r["threads"].items(), key=lambda kv: -kv[1]) if v > 0)
        print("%-14s %7.2f %8.0f %7.2f %10.0f %8.0f  %s" % (
            name, r["wall_s"], events / r["wall_s"], r["cpu_s"], events / r["cpu_s"],
            r["rss_mib"], by))
        if r["sent"]:
            kinds = {}
            for (stage, kind), (n, b) in r["sent"].items():
                kinds.setdefault(kind, [0.0, 0.0])
                kinds[kind][0] += n
                kinds[kind][1] += b
            total_n = sum(v[0] for v in kinds.values())
            total_b = sum(v[1] for v in kinds.values())
            print("    per page: %.2f messages, %.0f bytes on the internal topics (%s)" % (
                total_n / events, total_b / events,
                ", ".join("%s %.2f" % (k, v[0] / events) for k, v in sorted(kinds.items()))))
        print("    verdicts differing from pagesieve dedup over the same records in the "
              "run's order: %d of %d" % (r["differ"], r["expected"]))


def main():
    args = parse_args()
    broker = bench_kafka.Broker(REPO, args.bootstrap)
    workdir = tempfile.mkdtemp(prefix="pagesieve-routed-bench-")
    stream = bench_stream.build(REPO, workdir, args.seed, args.sites)
    runs = [("scope", 1)] + [("fingerprint", int(n)) for n in args.partitions.split(",")]
    results = []
    stamp = "%d-%d" % (int(time.time()), os.getpid())
    for i in range(args.runs):
        for mode, n in runs:
            tag = "bench-routed-%s-%s-%d-%d" % (stamp, mode, n, i)
            print("routed_bench: %s (load %s)" % (tag, " ".join("%.2f" % x for x in os.getloadavg())),
                  file=sys.stderr)
            results.append(one_run(args, broker, stream, workdir, mode, n, tag))
    report(results, stream.events)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
        broker.delete_topics("bench-routed-%s-.*" % stamp)


if __name__ == "__main__":
    main()
