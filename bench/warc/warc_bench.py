#!/usr/bin/env python3
"""CPU per page of `pagesieve dedup` on the same pages as JSONL and as WARC.

The pages are crawlgen's labelled stream of the real pages in
../shared/data/extraction (bench/crawlgen/crawlgen.py, as the dedup
benchmark uses). Each event is written three more ways, in the same order
and with the same fields:

  stream.warc            WARC/1.1 response records, bodies stored as fetched
  stream.warc.gz         the same, one gzip member per record (what crawlers write)
  stream-gzbody.warc.gz  the same with every body stored Content-Encoding: gzip
                         (decoded by pagesieve before fingerprinting)

and each file goes through `pagesieve dedup --threads 1` with fresh state,
--runs times. CPU is the child's user + system time (wait4); the figure kept
per format is the median of the runs. The verdicts must agree across formats
(same tiers, same duplicate_of), which the script checks.

  bench/warc/warc_bench.py --pagesieve build/pagesieve [--runs 3] [--seed 1] [--sites 0]
"""

import argparse
import base64
import datetime
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def warc_date(fetched_at):
    if isinstance(fetched_at, int):
        t = datetime.datetime.fromtimestamp(fetched_at / 1000, tz=datetime.timezone.utc)
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (fetched_at % 1000)
    return fetched_at


def body_of(event):
    if event.get("body_base64") is not None:
        return base64.b64decode(event["body_base64"])
    return (event.get("body") or "").encode("utf-8")


def record(event, body, encoding=None):
    headers = "HTTP/1.1 %d X\r\nContent-Type: %s\r\n" % (event.get("status", 200),
                                                        event.get("content_type", ""))
    if encoding:
        headers += "Content-Encoding: %s\r\n" % encoding
    block = (headers + "Content-Length: %d\r\n\r\n" % len(body)).encode("latin-1") + body
    head = ("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nWARC-Date: %s\r\n"
            "WARC-Record-ID: <urn:pagesieve:%s>\r\n"
            "Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n"
            % (event["url"], warc_date(event["fetched_at"]), event["event_id"], len(block)))
    return head.encode("utf-8") + block + b"\r\n\r\n"


def write_inputs(jsonl, workdir):
    plain = os.path.join(workdir, "stream.warc")
    gz = os.path.join(workdir, "stream.warc.gz")
    gzbody = os.path.join(workdir, "stream-gzbody.warc.gz")
    ids = []
    with open(jsonl, encoding="utf-8") as src, open(plain, "wb") as p, open(gz, "wb") as g, \
            open(gzbody, "wb") as b:
        for line in src:
            if not line.strip():
                continue
            event = json.loads(line)
            ids.append(event["event_id"])
            body = body_of(event)
            r = record(event, body)
            p.write(r)
            g.write(gzip.compress(r, compresslevel=6))
            b.write(gzip.compress(record(event, gzip.compress(body, compresslevel=6), "gzip"),
                                  compresslevel=6))
    return {"warc": plain, "warc.gz": gz, "gzbody.gz": gzbody}, ids


def run_dedup(pagesieve, path, workdir):
    out = os.path.join(workdir, "verdicts.jsonl")
    state = tempfile.mkdtemp(dir=workdir)
    start = time.monotonic()
    proc = subprocess.Popen([pagesieve, "dedup", "-q", "--threads", "1", "--input", path,
                             "--output", out, "--state-dir", state],
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("dedup failed on %s: %s" % (path, err))
    subprocess.run(["rm", "-rf", state], check=True)
    with open(out, encoding="utf-8") as f:
        verdicts = [json.loads(l) for l in f]
    return usage.ru_utime + usage.ru_stime, wall, verdicts, err


def decisions(verdicts, ids=None):
    """What was decided, with WARC record ids mapped back to the events'."""
    def plain(i):
        return i[len("<urn:pagesieve:"):-1] if i and i.startswith("<urn:pagesieve:") else i
    return [(plain(v["event_id"]), v["verdict"], v["tier"],
             plain((v["duplicate_of"] or {}).get("event_id"))) for v in verdicts]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pagesieve", default=os.path.join(REPO, "build", "pagesieve"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sites", type=int, default=0)
    ap.add_argument("--workdir", help="keep the inputs here (default: a temporary directory)")
    args = ap.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="warc-bench-")
    os.makedirs(workdir, exist_ok=True)
    jsonl = os.path.join(workdir, "stream.jsonl")
    subprocess.run([sys.executable, os.path.join(REPO, "bench", "crawlgen", "crawlgen.py"),
                    "--seed", str(args.seed), "--sites", str(args.sites), "-o", jsonl],
                   check=True, stderr=subprocess.DEVNULL)
    files, _ = write_inputs(jsonl, workdir)
    files = {"jsonl": jsonl, **files}
    results = {name: [] for name in files}
    reference = None
    for _ in range(args.runs):
        for name, path in files.items():  # interleaved, so load drifts hit all alike
            cpu, wall, verdicts, _ = run_dedup(args.pagesieve, path, workdir)
            results[name].append((cpu, wall, len(verdicts)))
            d = decisions(verdicts)
            if reference is None:
                reference = d
            elif d != reference:
                sys.exit("%s gave other verdicts than jsonl" % name)
    base = statistics.median(c for c, _, _ in results["jsonl"])
    print("format        pages  size MB  CPU s (median of %d)  pages/CPU-s  vs jsonl" % args.runs)
    for name, runs in results.items():
        cpu = statistics.median(c for c, _, _ in runs)
        pages = runs[0][2]
        size = os.path.getsize(files[name]) / 1e6
        print("%-12s %6d %8.1f %12.2f (%s) %12.0f %+8.1f%%" % (
            name, pages, size, cpu, ", ".join("%.2f" % c for c, _, _ in runs), pages / cpu,
            100 * (cpu / base - 1)))
    print("load average at the end: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
