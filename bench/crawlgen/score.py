#!/usr/bin/env python3
"""Scores pagesieve verdicts against a crawlgen stream's labels.

    score.py STREAM.jsonl VERDICTS.jsonl [--scope registered_domain|host|global] [--json]

A cluster is an original and the variants labelled as its duplicates. Under
a scope, an event labelled duplicate is *expected* to be a duplicate only
when an earlier event of its cluster is in the same scope (same registered
domain, same host, or anywhere for global): a syndicated copy on another
site, or a mirror on another host under scope host, is expected unique there,
and a verdict of unique is then right. --scope must be the scope.key the
verdicts were made with (default: pagesieve's default, registered_domain).

A verdict "duplicate" on an expected duplicate is a true positive when it
names an event of the same cluster (the original, or an earlier variant of
it); naming an unrelated page counts as a false positive and a false
negative. Every other verdict "duplicate" is a false positive. Prints
duplicate precision, recall and F1, then each kind of variant: its expected
duplicates, how many were caught and by which tier, and its false
duplicates with the kinds of the pages they were matched to. "hard
negatives" sums the variants labelled unique other than the originals.
"""

import argparse
import collections
import json
from urllib.parse import urlsplit

SCOPES = ("registered_domain", "host", "global")
MIRROR_PREFIXES = ("www.", "m.", "amp.", "mobile.", "print.", "forum.")


def site_guess(url):
    """The site of an event from a stream made before labels carried one."""
    host = (urlsplit(url).hostname or "").rstrip(".")
    stripped = True
    while stripped:
        stripped = False
        for prefix in MIRROR_PREFIXES:
            if host.startswith(prefix) and host.count(".") >= 2:
                host, stripped = host[len(prefix):], True
    return host


def load_stream(path, scope):
    """Labels by event id, in stream order, each with its cluster and whether
    this scope expects it to be a duplicate."""
    labels, order = {}, []
    seen = collections.defaultdict(set)  # cluster -> scope keys met so far
    with open(path, encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            label = dict(e["label"])
            eid = e["event_id"]
            host = label.get("host") or (urlsplit(e["url"]).hostname or "").rstrip(".")
            site = label.get("site") or site_guess(e["url"])
            key = {"registered_domain": site, "host": host, "global": "*"}[scope]
            cluster = label["of"] or eid
            label["cluster"] = cluster
            label["expected_dup"] = label["expect"] == "duplicate" and key in seen[cluster]
            seen[cluster].add(key)
            labels[eid] = label
            order.append(eid)
    return labels, order


def score(stream_path, verdicts_path, scope="registered_domain"):
    if scope not in SCOPES:
        raise ValueError("scope must be one of %s" % ", ".join(SCOPES))
    labels, _ = load_stream(stream_path, scope)
    tp = fp = fn = 0
    variants = collections.defaultdict(collections.Counter)
    for label in labels.values():
        stats = variants[label["variant"]]
        stats["events"] += 1
        stats["labelled_duplicate"] += label["expect"] == "duplicate"
        stats["expected"] += label["expected_dup"]
    seen = set()
    with open(verdicts_path, encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            eid = v["event_id"]
            if eid not in labels or eid in seen:
                continue
            seen.add(eid)
            label = labels[eid]
            stats = variants[label["variant"]]
            said_dup = v["verdict"] == "duplicate"
            of = (v.get("duplicate_of") or {}).get("event_id")
            # url.mode = bloom names no origin: trust the tier.
            right_cluster = of is None or (of in labels and
                                           labels[of]["cluster"] == label["cluster"])
            if said_dup:
                stats["tier:" + str(v.get("tier"))] += 1
            if label["expected_dup"] and said_dup and right_cluster:
                tp += 1
                stats["caught"] += 1
                continue
            if said_dup:
                fp += 1
                stats["false_duplicate"] += 1
                stats["matched:" + (labels[of]["variant"] if of in labels else "?")] += 1
            if label["expected_dup"]:
                fn += 1
                stats["missed"] += 1
    for variant, stats in variants.items():
        stats["negative"] = int(stats["labelled_duplicate"] == 0)
    hard = collections.Counter()
    for variant, stats in variants.items():
        if stats["negative"] and variant != "original":
            hard["events"] += stats["events"]
            hard["false_duplicate"] += stats["false_duplicate"]
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"scope": scope, "precision": precision, "recall": recall, "f1": f1, "tp": tp,
            "fp": fp, "fn": fn, "events": len(labels), "without_verdict": len(labels) - len(seen),
            "variants": {k: dict(v) for k, v in variants.items()}, "hard_negatives": dict(hard)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stream")
    ap.add_argument("verdicts")
    ap.add_argument("--scope", default="registered_domain", choices=SCOPES,
                    help="the scope.key the verdicts were made with (default: registered_domain)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    r = score(args.stream, args.verdicts, args.scope)
    if args.json:
        print(json.dumps(r))
        return
    print("scope %s: duplicates: precision %.4f  recall %.4f  F1 %.4f  (tp %d, fp %d, fn %d; "
          "%d events, %d without a verdict)" % (r["scope"], r["precision"], r["recall"], r["f1"],
                                               r["tp"], r["fp"], r["fn"], r["events"],
                                               r["without_verdict"]))
    for negative in (0, 1):
        for variant, stats in sorted(r["variants"].items()):
            if stats["negative"] != negative:
                continue
            tiers = " ".join("%s %d" % (k[5:], n) for k, n in sorted(stats.items())
                             if k.startswith("tier:"))
            matched = " ".join("%s %d" % (k[8:], n) for k, n in sorted(stats.items())
                               if k.startswith("matched:"))
            if negative:
                print("  %-14s %5d events  (unique)          false dup %4d   %s" % (
                    variant, stats["events"], stats.get("false_duplicate", 0),
                    ("matched: " + matched) if matched else ""))
            else:
                print("  %-14s %5d events  caught %4d/%-4d  false dup %4d   %s%s" % (
                    variant, stats["events"], stats.get("caught", 0), stats.get("expected", 0),
                    stats.get("false_duplicate", 0), tiers,
                    ("  false dups matched: " + matched) if matched else ""))
    hard = r["hard_negatives"]
    print("  %-14s %5d events  (unique)          false dup %4d" % (
        "hard negatives", hard.get("events", 0), hard.get("false_duplicate", 0)))


if __name__ == "__main__":
    main()
