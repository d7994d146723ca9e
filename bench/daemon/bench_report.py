"""Figures from runs: medians and spreads, percentiles, the table and JSON."""

import statistics

MB = 1e6
MIB = 1024 * 1024


def percentile(values, p):
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # ceil
    return ordered[int(rank) - 1]


def throughput_row(label, runs, stream):
    """Median and spread of a group of runs of one kind and thread count."""
    walls = [r.wall_s for r in runs]
    cpus = [r.usage.cpu_s for r in runs]
    rss = [r.usage.maxrss_kib for r in runs]
    wall = statistics.median(walls)
    cpu = statistics.median(cpus)
    return {
        "label": label,
        "runs": len(runs),
        "wall_s": wall, "wall_s_min": min(walls), "wall_s_max": max(walls),
        "cpu_s": cpu,
        "pages_per_s": stream.events / wall,
        "html_mb_per_s": stream.html_bytes / MB / wall,
        "pages_per_cpu_s": stream.events / cpu,
        "pages_per_cpu_s_min": stream.events / max(cpus),
        "pages_per_cpu_s_max": stream.events / min(cpus),
        "process_wall_s": statistics.median(r.usage.wall_s for r in runs),
        "peak_rss_mib": max(rss) / 1024.0,
        "vmhwm_sampled_mib": max(r.usage.vmhwm_kib for r in runs) / 1024.0,
    }


def slow_seconds(result, threshold_ms):
    """Records slower than threshold_ms by the second of the run they were
    appended in: one stall shows as one or two seconds, a periodic one as
    many."""
    counts = {}
    for latency, at in zip(result.to_appended_ms, result.appended_at_s):
        if latency > threshold_ms:
            counts[int(at)] = counts.get(int(at), 0) + 1
    return {str(second): counts[second] for second in sorted(counts)}


def latency_summary(result, warmup_s):
    def figures(values):
        return {"p50_ms": percentile(values, 50), "p99_ms": percentile(values, 99),
                "max_ms": max(values)}
    slow_ms = max(50, 3 * percentile(result.to_appended_ms, 50))
    # The daemon's first seconds (its pages faulted in, librdkafka's first
    # transactions) beside the broker's and kcat's: both figures are given.
    steady = [latency for latency, at in zip(result.to_appended_ms, result.appended_at_s)
              if at >= warmup_s]
    return {
        "warmup_s": warmup_s,
        "after_warmup": figures(steady) if steady else None,
        "slow_threshold_ms": slow_ms,
        "slow_by_second": slow_seconds(result, slow_ms),
        "rate_per_s": result.rate,
        "events": result.sent,
        "to_verdict_appended": figures(result.to_appended_ms),
        "to_verdict_consumed": figures(result.to_consumed_ms),
        "daemon_peak_rss_mib": result.usage.maxrss_kib / 1024.0,
        # ru_maxrss carries the bench process's own peak across the fork
        # (Linux keeps it through exec); VmHWM, sampled from /proc, starts
        # at the exec. A gap between the two is the bench, not the daemon.
        "daemon_vmhwm_sampled_mib": result.usage.vmhwm_kib / 1024.0,
        "commits": result.commits,
        # From the first input record produced to the last verdict read: a
        # machine near 1.0 busy is saturated (broker and producer included),
        # and its latency is a queue, not the daemon's.
        "daemon_cores": result.daemon_cores,
        # Pages per CPU-second while the input came in, to hold against the
        # throughput runs' figure on a backlog, where each fetch and each
        # batch carries many records and no second goes by idle.
        "daemon_pages_per_cpu_s": (result.sent / result.daemon_cpu_s
                                   if result.daemon_cpu_s else None),
        "machine_busy": result.machine_busy,
    }


def format_table(report):
    s = report["stream"]
    lines = [
        "pagesieve end-to-end benchmark: %d events, %.1f MB of HTML (%.1f MB of JSONL), "
        "%d cores, load average %s before, %s after" % (
            s["events"], s["html_bytes"] / MB, s["file_bytes"] / MB, report["cores"],
            report["load_before"], report["load_after"]),
        "%-22s %4s %22s %8s %9s %11s %13s" % (
            "", "runs", "wall s (median, range)", "pages/s", "MB/s HTML", "pages/CPU-s",
            "peak RSS MiB"),
    ]
    for row in report["throughput"]:  # none with --latency-only
        lines.append("%-22s %4d %7.2f (%5.2f-%5.2f) %8.1f %9.1f %11.1f %13.0f" % (
            row["label"], row["runs"], row["wall_s"], row["wall_s_min"], row["wall_s_max"],
            row["pages_per_s"], row["html_mb_per_s"], row["pages_per_cpu_s"],
            row["peak_rss_mib"]))
    if not report["problems"] and report["throughput"]:
        lines.append("every event got a verdict, and in every run the verdict dedup gives it "
                     "(%d dead letters)" % report["dead_letters"])
    ratio = report.get("ratio")
    if ratio:
        lines.append("run / dedup: %.2f by wall time (pages/s), %.2f by CPU (pages/CPU-s); "
                     "target >= 0.90 by CPU" % (ratio["pages_per_s"], ratio["pages_per_cpu_s"]))
    lat = report.get("latency")
    if lat:
        p, c = lat["to_verdict_appended"], lat["to_verdict_consumed"]
        lines.append("latency at %.1f pages/s, %d events (ms): input appended -> verdict "
                     "appended p50 %d p99 %d max %d; -> verdict consumed p50 %.0f p99 %.0f "
                     "max %.0f" % (
                         lat["rate_per_s"], lat["events"], p["p50_ms"], p["p99_ms"],
                         p["max_ms"], c["p50_ms"], c["p99_ms"], c["max_ms"]))
        steady = lat["after_warmup"]
        if steady:
            lines.append("  the same after the first %g s (%s): p50 %d p99 %d max %d" % (
                lat["warmup_s"], "input appended -> verdict appended", steady["p50_ms"],
                steady["p99_ms"], steady["max_ms"]))
        slow = ", ".join("%ss: %d" % kv for kv in lat["slow_by_second"].items()) or "none"
        lines.append("verdicts appended over %d ms after their input, by the second of the run "
                     "the input was appended in: %s" % (lat["slow_threshold_ms"], slow))
        if lat.get("daemon_cores") is not None and lat.get("machine_busy") is not None:
            lines.append("while the input was produced: the daemon used %.2f cores (%.0f pages "
                         "per CPU-second), the machine's cores were %.0f %% busy (broker and "
                         "producer included)" % (
                             lat["daemon_cores"], lat["daemon_pages_per_cpu_s"] or 0,
                             100.0 * lat["machine_busy"]))
        commits = lat.get("commits")
        if commits:
            lines.append("transactions committed: %d, %.1f ms on average (no lane decides "
                         "meanwhile), %d over %g ms" % (commits["count"], commits["mean_ms"],
                                                        commits["over"], commits["over_ms"] or 0))
    for problem in report["problems"]:
        lines.append("FAILED: " + problem)
    return "\n".join(lines)
