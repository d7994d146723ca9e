#!/usr/bin/env python3
"""End-to-end benchmark of `pagesieve dedup` and `pagesieve run` on real pages.

Builds a labelled crawl stream from ../shared/data/extraction (crawlgen),
then:
  throughput  `pagesieve dedup --threads N` over the JSONL, and `pagesieve run
              --until end` over the same events produced to a fresh topic
              (4 partitions, keyed by site), each in a fresh state directory
              and (for run) a fresh group; runs interleaved, median and range.
  latency     a running daemon fed the events at a steady rate (default 50%
              of the measured run throughput): percentiles from the input's
              append at the broker to the verdict's append, and to the
              verdict read by a downstream consumer.
  memory      peak RSS of every run (wait4 ru_maxrss, i.e. VmHWM at exit).
--dedup-only needs no broker: dedup with --threads 1 and one per core.
--latency-only --rate R measures latency alone (no backlog is produced for
it). Before the latency run the page cache's dirty pages are written back
(sync), so that earlier runs' topics do not reach the disk mid-measurement;
--settle-seconds S starts its input S seconds after the daemon is assigned.

Standard library only; drives the pagesieve binary, paced_produce (built
beside it; it produces the input) and kcat (it reads the output). Exits 1
when a run fails or an event gets no verdict (or a different one from dedup's).
Usage: bench/daemon/run_bench.sh [--dedup-only] [--json] [--runs N] ...
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import bench_kafka  # noqa: E402  (after the line above, on purpose)
import bench_proc  # noqa: E402
import bench_report  # noqa: E402
import bench_runs  # noqa: E402
import bench_stream  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def parse_args():
    cores = len(os.sched_getaffinity(0))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pagesieve", default=os.path.join(REPO, "build", "pagesieve"))
    ap.add_argument("--producer", default=None,
                    help="the paced_produce binary (default: bench/daemon/paced_produce in "
                         "the build directory of --pagesieve), or kcat: the backlog through "
                         "kcat, as before 2026-12-06 (with --skip-latency)")
    ap.add_argument("--dedup-only", action="store_true", help="no broker: dedup figures only")
    ap.add_argument("--runs", type=int, default=3, help="measured runs of each kind")
    ap.add_argument("--threads", type=int, default=cores, help="run.threads / dedup --threads")
    ap.add_argument("--dedup-threads", default=None,
                    help="comma-separated dedup thread counts (default: --threads, and also 1 "
                         "with --dedup-only)")
    ap.add_argument("--seed", type=int, default=1, help="crawlgen seed")
    ap.add_argument("--sites", type=int, default=0, help="crawlgen --sites (0: every page)")
    ap.add_argument("--copies", type=int, default=1,
                    help="the stream this many times, each copy on renamed sites (for a "
                         "latency run long enough at a high rate)")
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--bootstrap", default="127.0.0.1:" + os.environ.get("PAGESIEVE_KAFKA_PORT",
                                                                          "9092"),
                    help="the broker (default: scripts/kafka-local's, $PAGESIEVE_KAFKA_PORT)")
    ap.add_argument("--load-fraction", type=float, default=0.5,
                    help="latency input rate as a fraction of the measured run throughput")
    ap.add_argument("--rate", type=float, default=0, help="latency input rate (pages/s)")
    ap.add_argument("--latency-seconds", type=float, default=30)
    ap.add_argument("--warmup-seconds", type=float, default=3,
                    help="latency is also given for the records appended after this")
    ap.add_argument("--settle-seconds", type=float, default=0,
                    help="the latency input starts this long after the daemon is assigned its "
                         "partitions (0: at once, as a daemon started into live traffic)")
    ap.add_argument("--skip-latency", action="store_true")
    ap.add_argument("--latency-only", action="store_true",
                    help="no throughput runs: latency at --rate alone")
    ap.add_argument("--daemon-set", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting for every pagesieve run (repeatable), e.g. "
                         "changelog.enabled=false")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--keep", action="store_true", help="keep the work directory and topics")
    args = ap.parse_args()
    if args.latency_only:
        if not args.rate:
            ap.error("--latency-only needs --rate")
        args.runs = 0
    if args.dedup_threads is None:
        args.dedup_threads = ("1,%d" % args.threads) if args.dedup_only else str(args.threads)
    args.dedup_threads = sorted({int(t) for t in args.dedup_threads.split(",")})
    args.cores = cores
    if args.producer is None:
        args.producer = os.path.join(os.path.dirname(os.path.abspath(args.pagesieve)), "bench",
                                     "daemon", "paced_produce")
    bench_runs.DAEMON_SETS.extend(args.daemon_set)
    return args


def load_average():
    with open("/proc/loadavg", encoding="ascii") as f:
        return " ".join(f.read().split()[:3])


def say(message):
    print("daemon_bench: " + message, file=sys.stderr, flush=True)


def compare(reference, result, problems):
    """Every event has exactly dedup's verdict (tier and duplicate_of)."""
    if result.verdicts == reference.verdicts and result.dead_letters == reference.dead_letters:
        return
    missing = len(set(reference.verdicts) - set(result.verdicts))
    differ = sum(1 for k, v in result.verdicts.items() if reference.verdicts.get(k) != v)
    problems.append("%s: %d verdicts missing, %d differ from dedup's, %d dead letters (dedup %d)"
                    % (label(result.kind, result.threads), missing, differ, result.dead_letters,
                       reference.dead_letters))


def throughput(args, broker, stream, prefix, workdir, problems):
    """Interleaved runs, so that a burst of load hits every kind alike."""
    groups = {("dedup", t): [] for t in args.dedup_threads}
    if not args.dedup_only:
        groups[("run", args.threads)] = []
    for i in range(args.runs):
        for (kind, threads), runs in groups.items():
            tag = "%s-t%d-%d" % (kind, threads, i)
            say("%s (load %s)" % (tag, load_average()))
            if kind == "dedup":
                runs.append(bench_runs.run_dedup(args.pagesieve, stream, threads, workdir, tag))
            else:
                topics = bench_runs.DaemonTopics("%s-g%d" % (prefix, i), prefix + "-in",
                                                 "%s-out%d" % (prefix, i),
                                                 os.path.join(workdir, tag + ".state"))
                runs.append(bench_runs.run_daemon_backlog(args.pagesieve, broker, topics,
                                                          threads, workdir, tag))
    reference = groups[("dedup", args.dedup_threads[0])][0]
    for runs in groups.values():
        for r in runs:
            if len(r.verdicts) + r.dead_letters != stream.events:
                problems.append("%s threads=%d: %d verdicts and %d dead letters for %d events" % (
                    r.kind, r.threads, len(r.verdicts), r.dead_letters, stream.events))
            compare(reference, r, problems)
    rows = [bench_report.throughput_row(label(kind, threads), runs, stream)
            for (kind, threads), runs in groups.items()]
    return rows, reference.dead_letters


def label(kind, threads):
    return ("dedup --threads %d" if kind == "dedup" else "run run.threads=%d") % threads


def latency(args, broker, stream, prefix, workdir, rate):
    count = min(stream.events, max(1, int(rate * args.latency_seconds)))
    topics = bench_runs.DaemonTopics(prefix + "-glat", prefix + "-lat-in", prefix + "-lat-out",
                                     os.path.join(workdir, "latency.state"))
    dirty = bench_proc.flush_page_cache()
    say("latency: %d events at %.1f/s (load %s; %d MiB of dirty pages flushed first)"
        % (count, rate, load_average(), dirty // 1024))
    result = bench_runs.run_latency(args.pagesieve, broker, topics, args.threads,
                                    args.partitions, stream, rate, count, workdir,
                                    args.settle_seconds)
    summary = bench_report.latency_summary(result, args.warmup_seconds)
    summary["dirty_mib_flushed_before"] = dirty // 1024
    summary["settle_s"] = args.settle_seconds
    return summary


def create_topics(args, broker, prefix):
    """Every topic the runs use. Called before the stream is built: a
    latency run that began seconds after its topics were created measured
    the broker's aftermath (whole-run p99 over 250 ms in 5 of 12 runs at
    half capacity, against 1 of 12 with 4 s or more between)."""
    if not broker.running():
        sys.exit("daemon_bench: no broker at %s: run scripts/kafka-local start (or --dedup-only)"
                 % args.bootstrap)
    # A latency-only run needs no backlog: producing one (224 MB of pages)
    # just before the measured seconds leaves the broker busy and the page
    # cache dirty while they run.
    topics = [] if args.latency_only else (
        [prefix + "-in"] + ["%s-out%d" % (prefix, i) for i in range(args.runs)])
    say("creating %d topics" % (len(topics) + (0 if args.skip_latency else 2)))
    if topics:
        broker.create_topics(topics, args.partitions)
    if not args.skip_latency:
        # The broker stamps every record as it appends it: the latency runs
        # from the input's append to the verdict's, the daemon's share alone.
        # A CreateTime would start at the bench's producer, whose first
        # records wait about a second in a freshly started librdkafka.
        broker.create_topics([prefix + "-lat-in", prefix + "-lat-out"], args.partitions,
                             ["message.timestamp.type=LogAppendTime"])


def produce_backlog(args, broker, stream, prefix):
    """The events the throughput runs read, in the topic they read."""
    if args.latency_only:
        return
    say("producing %d events to %s-in" % (stream.events, prefix))
    broker.produce_file(prefix + "-in", stream.keyed_path)
    produced = broker.end_offsets(prefix + "-in", args.partitions)
    if produced != stream.events:
        sys.exit("daemon_bench: %d of %d events reached the broker" % (produced, stream.events))


def main():
    args = parse_args()
    if not os.access(args.pagesieve, os.X_OK):
        sys.exit("daemon_bench: no pagesieve binary at %s (--pagesieve)" % args.pagesieve)
    if args.producer == "kcat":
        if not (args.skip_latency or args.dedup_only):
            sys.exit("daemon_bench: --producer kcat needs --skip-latency (it cannot pace)")
        args.producer = None
    elif not args.dedup_only and not os.access(args.producer, os.X_OK):
        sys.exit("daemon_bench: no paced_produce binary at %s (--producer; build the target "
                 "paced_produce)" % args.producer)
    workdir = tempfile.mkdtemp(prefix="pagesieve-daemon-bench-")
    prefix = "bench-daemon-%d-%d" % (int(time.time()), os.getpid())
    broker = bench_kafka.Broker(REPO, args.bootstrap, args.producer)
    report = {"cores": args.cores, "threads": args.threads, "load_before": load_average(),
              "pagesieve": args.pagesieve, "problems": []}
    try:
        if not args.dedup_only:
            create_topics(args, broker, prefix)
        say("building the stream in %s" % workdir)
        stream = bench_stream.build(REPO, workdir, args.seed, args.sites, args.copies)
        report["stream"] = {"events": stream.events, "html_bytes": stream.html_bytes,
                            "file_bytes": stream.file_bytes, "seed": args.seed}
        if not args.dedup_only:
            produce_backlog(args, broker, stream, prefix)
        rows = []
        if not args.latency_only:
            rows, report["dead_letters"] = throughput(args, broker, stream, prefix, workdir,
                                                      report["problems"])
        report["throughput"] = rows
        if not args.dedup_only:
            run_row = rows[-1] if rows else None
            dedup_row = next((r for r in rows if r["label"] == label("dedup", args.threads)), None)
            if dedup_row:
                report["ratio"] = {k: run_row[k] / dedup_row[k]
                                   for k in ("pages_per_s", "pages_per_cpu_s")}
            if not (args.skip_latency or args.dedup_only):
                rate = args.rate or args.load_fraction * run_row["pages_per_s"]
                report["latency"] = latency(args, broker, stream, prefix, workdir, rate)
    except (RuntimeError, bench_kafka.KafkaError) as e:
        report["problems"].append(str(e))
    finally:
        report["load_after"] = load_average()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
            if not args.dedup_only:
                broker.delete_topics(prefix + "-.*")
    if args.json:
        print(json.dumps(report, indent=2))
    elif "stream" in report and "throughput" in report:
        print(bench_report.format_table(report))
    else:
        print("\n".join("FAILED: " + p for p in report["problems"]))
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
