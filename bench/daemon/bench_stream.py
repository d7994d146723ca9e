"""The benchmark's input: a labelled crawl stream of the real pages.

bench/crawlgen/crawlgen.py builds it from ../shared/data/extraction (every
usable readability page and, with --sites 0, every trafilatura page, plus
their duplicates and hard negatives). The same JSONL goes to `pagesieve
dedup`; for Kafka each line is keyed by its site so that pages of one scope
share a partition (see site_key).
"""

import base64
import json
import os
import subprocess
import sys
from urllib.parse import urlsplit


class StreamInfo:
    def __init__(self, path, keyed_path, events, html_bytes, file_bytes):
        self.path = path
        self.keyed_path = keyed_path
        self.events = events
        self.html_bytes = html_bytes
        self.file_bytes = file_bytes


def site_key(url):
    """The host's last two labels. Pages of one registered domain (the
    default scope) always share them, so they share a partition, which is
    what makes the daemon's verdicts those of a single-shard dedup run; a
    public suffix of two labels (co.uk) only lumps more sites together."""
    host = (urlsplit(url).hostname or "").rstrip(".")
    return ".".join(host.split(".")[-2:]) or "-"


def html_bytes_of(event):
    if event.get("body_base64") is not None:
        return len(base64.b64decode(event["body_base64"]))
    return len((event.get("body") or "").encode("utf-8"))


def on_other_sites(url, copy):
    """The URL with its registered domain renamed for copy number `copy`
    (www.example.com -> www.example-c2.com): a new site to the URL tier and
    to the scope, so the copy costs what the first pass cost."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    labels = host.split(".")
    if len(labels) < 2:
        return url
    labels[-2] += "-c%d" % copy
    netloc = ".".join(labels) + (":%d" % parts.port if parts.port else "")
    return parts._replace(netloc=netloc).geturl()


def repeat(path, copies):
    """Appends copies 2..`copies` of the stream, each on other sites, so a
    run at a high rate lasts long enough to show its steady state (one pass
    is 3.6 s at 964 pages/s, most of it the daemon's first seconds)."""
    # A line at a time: a bench process grown large would make every child
    # it forks (the daemon) start with its peak RSS (Linux's ru_maxrss).
    first_pass = os.path.getsize(path)
    with open(path, "a", encoding="utf-8") as out:
        for copy in range(2, copies + 1):
            read = 0
            with open(path, "rb") as f:
                for line in f:
                    read += len(line)
                    if read > first_pass:
                        break
                    if not line.strip():
                        continue
                    event = json.loads(line)
                    event["url"] = on_other_sites(event["url"], copy)
                    # Event ids of their own, so that the throughput runs'
                    # verdicts (by event id) tell the copies apart.
                    event["event_id"] = "%s-c%d" % (event["event_id"], copy)
                    label = event.get("label") or {}
                    if label.get("of"):
                        label["of"] = "%s-c%d" % (label["of"], copy)
                    out.write(json.dumps(event) + "\n")


def build(repo, workdir, seed, sites, copies=1):
    """Runs crawlgen (and repeat() for `copies` > 1), then writes the keyed
    copy for kcat (key TAB value)."""
    path = os.path.join(workdir, "stream.jsonl")
    crawlgen = os.path.join(repo, "bench", "crawlgen", "crawlgen.py")
    subprocess.run([sys.executable, crawlgen, "--seed", str(seed), "--sites", str(sites),
                    "-o", path], check=True, stderr=subprocess.DEVNULL)
    if copies > 1:
        repeat(path, copies)
    keyed_path = os.path.join(workdir, "stream.keyed")
    events = html = 0
    with open(path, encoding="utf-8") as src, open(keyed_path, "w", encoding="utf-8") as dst:
        for line in src:
            if not line.strip():
                continue
            event = json.loads(line)
            events += 1
            html += html_bytes_of(event)
            # json.dumps escapes control characters, so a line holds no raw tab.
            dst.write(site_key(event["url"]) + "\t" + line.rstrip("\n") + "\n")
    return StreamInfo(path, keyed_path, events, html, os.path.getsize(path))

