#!/usr/bin/env python3
"""Do two pagesieve binaries give the same output, byte for byte?

For a refactoring that must not change behaviour: runs `pagesieve dedup`
and, with a broker, `pagesieve run` (one stage, and two stages with
input.partitioned_by = url) of each binary over the same streams, and
compares everything they publish:

  dedup  the verdict file and the dead-letter file, byte for byte;
  run    every output message (topic, key, value, headers) of every output
         topic, by the input position it answers. Messages of different
         input partitions interleave differently from run to run, so they are
         compared by position, not by their order in the output topics. The
         two-stage run reads a one-partition copy of the input: with several,
         the re-keying stage interleaves them into a scope's partition in an
         order that differs from run to run (docs/rekey.md), and so may the
         verdicts under scope.key = global.

    scripts/kafka-local start            (for the run modes)
    bench/daemon/same_verdicts.py --before OLD/pagesieve --after build/pagesieve \\
        --stream s1.jsonl --stream s2.jsonl [--scope global] [--dedup-only]

Exits 0 when every comparison is empty, 1 and a description otherwise.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_kafka  # noqa: E402
import bench_stream  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KINDS = ("unique", "duplicate", "skipped", "dead_letter")


def run_dedup(binary, stream, scope, workdir, tag):
    """Two runs into one state directory: the second replays the stream into
    the state the first left, so records must recognise themselves."""
    state = os.path.join(workdir, tag + ".state")
    outputs = []
    for attempt in ("first", "replay"):
        out = os.path.join(workdir, "%s.%s.verdicts" % (tag, attempt))
        dlq = os.path.join(workdir, "%s.%s.dlq" % (tag, attempt))
        subprocess.run([binary, "dedup", "-q", "--threads", "2", "-i", stream, "-o", out,
                        "--dlq", dlq, "--state-dir", state, "--set", "scope.key=" + scope],
                       check=True, stderr=subprocess.DEVNULL)
        outputs += [out, dlq]
    return outputs


def keyed_copy(stream, workdir):
    """key TAB value lines for kcat, keyed by site (bench_stream.site_key)."""
    path = os.path.join(workdir, os.path.basename(stream) + ".keyed")
    if not os.path.exists(path):
        with open(stream, encoding="utf-8") as src, open(path, "w", encoding="utf-8") as dst:
            for line in src:
                if not line.strip():
                    continue
                try:
                    key = bench_stream.site_key(json.loads(line).get("url") or "")
                except (ValueError, AttributeError):
                    key = "-"
                dst.write(key + "\t" + line.rstrip("\n") + "\n")
    return path


def run_daemon(binary, broker, input_topic, prefix, scope, workdir, extra_sets):
    topics = {kind: "%s-%s" % (prefix, kind) for kind in KINDS}
    broker.create_topics(list(topics.values()), 4)
    argv = [binary, "run", "--from", "earliest", "--until", "end"]
    sets = ["kafka.bootstrap_servers=" + broker.bootstrap, "kafka.group_id=" + prefix,
            "kafka.input_topic=" + input_topic, "state.dir=" + os.path.join(workdir, prefix),
            "run.threads=2", "scope.key=" + scope, "metrics.listen=",
            "input.repartition_topic=%s-repartition" % prefix] + extra_sets
    sets += ["output.%s=%s" % (kind, topic) for kind, topic in topics.items()]
    for s in sets:
        argv += ["--set", s]
    with open(os.path.join(workdir, prefix + ".log"), "w") as log:
        subprocess.run(argv, check=True, stderr=log, timeout=1800)
    messages = {}
    for kind, topic in topics.items():
        # Headers, key and value as JSON-escaped text, one message per line.
        for line in broker.read_all(topic, "%h\x1f%k\x1f%s\x1e\n"):
            if not line:
                continue
            headers, key, value = line.rstrip("\x1e").split("\x1f", 2)
            messages[position_of(kind, headers, value)] = (topic.rsplit("-", 1)[-1], key, value,
                                                           headers)
    return messages


def position_of(kind, headers, value):
    """The input position an output message answers."""
    if kind != "dead_letter":
        src = json.loads(value)["source"]
        return (src["partition"], src["offset"])
    fields = dict(h.split("=", 1) for h in headers.split(",") if "=" in h)
    return (int(fields["pagesieve-source-partition"]), int(fields["pagesieve-source-offset"]))


def same_files(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def compare_messages(before, after):
    problems = []
    for pos in sorted(set(before) | set(after)):
        if before.get(pos) != after.get(pos):
            problems.append("position %s: before %r, after %r" % (
                pos, (before.get(pos) or ("missing",))[:3], (after.get(pos) or ("missing",))[:3]))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--stream", action="append", required=True, help="JSONL events (repeatable)")
    ap.add_argument("--scope", action="append", help="scope.key values (default: both)")
    ap.add_argument("--dedup-only", action="store_true")
    ap.add_argument("--bootstrap", default="127.0.0.1:" + os.environ.get("PAGESIEVE_KAFKA_PORT",
                                                                          "9092"))
    args = ap.parse_args()
    scopes = args.scope or ["registered_domain", "global"]
    workdir = tempfile.mkdtemp(prefix="pagesieve-same-verdicts-")
    problems, compared = [], 0
    broker = bench_kafka.Broker(REPO, args.bootstrap)
    if not args.dedup_only and not broker.running():
        sys.exit("same_verdicts: no broker at %s (scripts/kafka-local start, or --dedup-only)"
                 % args.bootstrap)
    prefix = "same-verdicts-%d-%d" % (int(time.time()), os.getpid())
    for i, stream in enumerate(args.stream):
        stream = os.path.abspath(stream)
        inputs = {}
        if not args.dedup_only:
            for mode, partitions in (("run", 4), ("run-rekeyed", 1)):
                inputs[mode] = "%s-in%d-%s" % (prefix, i, mode[-3:])
                broker.create_topics([inputs[mode]], partitions)
                broker.produce_file(inputs[mode], keyed_copy(stream, workdir))
        for scope in scopes:
            name = "%s/%s" % (os.path.basename(stream), scope)
            outs = [run_dedup(binary, stream, scope, workdir, "%s-%d-%s" % (which, i, scope))
                    for which, binary in (("before", args.before), ("after", args.after))]
            for a, b in zip(*outs):
                compared += 1
                if not same_files(a, b):
                    problems.append("dedup %s: %s and %s differ" % (name, a, b))
            if args.dedup_only:
                continue
            for mode, sets in (("run", []), ("run-rekeyed", ["input.partitioned_by=url"])):
                results = [run_daemon(binary, broker, inputs[mode],
                                      "%s-%s-%d-%s-%s" % (prefix, which, i, scope[:6], mode[-3:]),
                                      scope, workdir, sets)
                           for which, binary in (("before", args.before), ("after", args.after))]
                compared += 1
                diff = compare_messages(*results)
                print("%s %s: %d messages, %d differ" % (mode, name, len(results[0]), len(diff)))
                problems += ["%s %s: %s" % (mode, name, d) for d in diff[:20]]
        print("%s: compared" % os.path.basename(stream))
    broker.delete_topics(prefix + ".*")
    print("%d comparisons, %d problems (work directory %s)" % (compared, len(problems), workdir))
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
