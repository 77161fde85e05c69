"""Every figure of issue 14 in one run: `ravenshard bucket`, `report`, `plan` and `balance`,
one thread and all cores, on an ASCII file and a non-ASCII file, against a plain Python loop
over `xxhash`, then `cargo bench -p ravenshard --bench bucket` (`bucket_for` per ID kind).

Usage: python3 bench/cli_vs_python.py [N] [--runs R] [--no-criterion]
       (N IDs per file, default 10,000,000; R timed runs of each command, default 3)
       python3 bench/cli_vs_python.py --shapes [--runs R] [SHAPE ...]
       (the ID shapes of issue 32, or the shapes given, see bench/shapes.py: one table,
       `bucket`, `report`, `report --json`, `plan` and `balance` side by side, the ratios
       to `bucket`'s time and the peak memory, one thread and all cores)

Needs Python's `xxhash` package for the Python loop: `pip install xxhash` (the script
installs it with pip when it is missing).

Builds the release CLI, generates the files into target/bench/ (ASCII: a third of the IDs
anchored; non-ASCII: every ID has `ß` and `É`, a third anchored), checks that the CLI and
the Python loop print the same lines for the first 100,000 ASCII IDs and that every thread
count prints the same bytes, then times each command as a user would: whole process, input
on stdin, output to /dev/null. The runs of all commands are interleaved (one round runs
each command once), so a busy moment on a shared machine hits them all alike; the table
gives the best and worst time, the throughput of the best, the peak memory, the CPU time
(steadier than wall-clock time on a busy machine), the speed-up over one thread and over
the Python loop, and `report`'s, `plan`'s and `balance`'s time over `bucket`'s; then the
issue's targets, met or not. `plan` goes from 3 to 4 shards, `balance` from 3 shards.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "target", "bench")


def generate(path: str, n: int, non_ascii: bool) -> None:
    if os.path.exists(path):
        return
    head = "Straße" if non_ascii else "orders"
    tail = "É" if non_ascii else "A"
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        for i in range(n):
            if i % 3 == 0:
                f.write(f"{head}/{i}-{tail}$Kunden/{i % 977}-{tail}\n")
            else:
                f.write(f"{head}/{i}-{tail}\n")
    os.replace(path + ".tmp", path)


TIME = "/usr/bin/time"


def run(cmd: list, path: str) -> tuple:
    """Seconds, peak memory (MB) and CPU seconds (user + system; the last two from GNU time
    when installed) of one whole-process run, stdin from `path`."""
    peak_file = os.path.join(BENCH, "peak.txt")
    wrapped = [TIME, "-f", "%M %U %S", "-o", peak_file] + cmd if os.path.exists(TIME) else cmd
    with open(path, "rb") as stdin:
        start = time.perf_counter()
        done = subprocess.run(wrapped, stdin=stdin, stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed on {path}")
    peak, cpu = float("nan"), float("nan")
    if wrapped is not cmd:
        with open(peak_file, encoding="utf-8") as f:
            kb, user, system = f.read().split()[-3:]
            peak, cpu = int(kb) / 1024, float(user) + float(system)
    return elapsed, peak, cpu


def output(cmd: list, path: str) -> bytes:
    with open(path, "rb") as stdin:
        return subprocess.run(cmd, stdin=stdin, capture_output=True, check=True).stdout


def ensure_xxhash() -> None:
    try:
        import xxhash  # noqa: F401
    except ImportError:
        print("Python's xxhash package is missing: pip install xxhash", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "xxhash"], check=True)


def criterion() -> list:
    """`cargo bench -p ravenshard --bench bucket`: the throughput line of each benchmark."""
    bench = subprocess.run(
        ["cargo", "bench", "--quiet", "-p", "ravenshard", "--bench", "bucket"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    rows, name = [], None
    for line in bench.stdout.splitlines():
        if line.startswith("bucket_for/"):
            name = line.split()[0]
        if "thrpt:" in line and name:
            rows.append((name, line.split("thrpt:")[1].strip()))
            name = None
    return rows


def main() -> None:
    n, runs, with_criterion = 10_000_000, 3, True
    argv = sys.argv[1:]
    if "--shapes" in argv:
        argv.remove("--shapes")
        if "--runs" in argv:
            at = argv.index("--runs")
            runs = int(argv[at + 1])
            del argv[at:at + 2]
        by_shapes(argv or SHAPES, runs)
        return
    while argv:
        arg = argv.pop(0)
        if arg in ("-h", "--help"):
            print(__doc__)
            return
        if arg == "--runs":
            runs = int(argv.pop(0))
        elif arg == "--no-criterion":
            with_criterion = False
        else:
            n = int(arg.replace(",", "").replace("_", ""))
    ensure_xxhash()
    subprocess.run(["cargo", "build", "--quiet", "--release", "--bin", "ravenshard"], cwd=ROOT, check=True)
    exe = os.path.join(ROOT, "target", "release", "ravenshard")
    cores = os.cpu_count() or 1
    os.makedirs(BENCH, exist_ok=True)
    files = {"ascii": os.path.join(BENCH, f"ids-ascii-{n}.txt"),
             "non-ascii": os.path.join(BENCH, f"ids-non-ascii-{n}.txt")}
    for kind, path in files.items():
        generate(path, n, kind == "non-ascii")
    py = [sys.executable, os.path.join(ROOT, "bench", "python_loop.py")]

    sample = os.path.join(BENCH, "sample.txt")
    with open(files["ascii"], encoding="utf-8") as src, open(sample, "w", encoding="utf-8") as dst:
        for _, line in zip(range(100_000), src):
            dst.write(line)
    if output([exe, "bucket"], sample) != output(py, sample):
        sys.exit("the CLI and the Python loop disagree on the sample: not timing")

    three = os.path.join(BENCH, "three-shards.json")
    four = os.path.join(BENCH, "four-shards.json")
    with open(three, "w", encoding="utf-8") as f:
        f.write('{"Shards": {"0": {}, "1": {}, "2": {}}}\n')
    with open(four, "w", encoding="utf-8") as f:
        f.write('{"Shards": {"0": {}, "1": {}, "2": {}, "3": {}}}\n')
    arguments = {
        "bucket": ["bucket", "--shards", "3"],
        "report": ["report", "--shards", "3"],
        "plan": ["plan", "--config", three, "--target", four],
        "balance": ["balance", "--config", three],
    }
    commands = []
    for command, args in arguments.items():
        for kind in files:
            for threads in sorted({1, cores}):
                cmd = [exe] + args + ["--threads", str(threads)]
                commands.append((command, kind, threads, cmd))
    for command, kind, threads, cmd in commands:
        if threads != 1 and output(cmd, files[kind]) != output(cmd[:-1] + ["1"], files[kind]):
            sys.exit(f"{command} on {kind}: {threads} threads print other bytes than 1")

    load_before = os.getloadavg()[0]
    times = {key[:3]: [] for key in commands}
    memory, cpu = {}, {}
    for _ in range(runs):
        for command, kind, threads, cmd in commands:
            key = (command, kind, threads)
            elapsed, peak, used = run(cmd, files[kind])
            times[key].append(elapsed)
            memory[key] = max(memory.get(key, 0), peak)
            cpu[key] = min(cpu.get(key, float("inf")), used)
    t_py, _, cpu_py = run(py, files["ascii"])

    print(f"{n:,} IDs per file, whole process, stdin, output to /dev/null; {runs} interleaved "
          f"runs each, {cores} cores; load average (1 min) before: {load_before:.1f}, "
          f"after: {os.getloadavg()[0]:.1f}")
    best = {key: min(ts) for key, ts in times.items()}
    print(f"{'command':<8} {'file':<10} {'threads':>7} {'best s':>7} {'worst s':>8} "
          f"{'M IDs/s':>8} {'peak MB':>8} {'CPU s':>6} {'x 1 thread':>10} {'x Python':>9} "
          f"{'/ bucket':>9}")
    for (command, kind, threads), ts in times.items():
        one = best[(command, kind, 1)] / min(ts)
        python = t_py / min(ts) if kind == "ascii" else float("nan")
        over_bucket = min(ts) / best[("bucket", kind, threads)]
        print(f"{command:<8} {kind:<10} {threads:>7} {min(ts):7.2f} {max(ts):8.2f} "
              f"{n / min(ts) / 1e6:8.2f} {memory[(command, kind, threads)]:8.1f} "
              f"{cpu[(command, kind, threads)]:6.2f} {one:10.2f} {python:9.1f} {over_bucket:9.2f}")
    print(f"{'python':<8} {'ascii':<10} {1:>7} {t_py:7.2f} {t_py:8.2f} {n / t_py / 1e6:8.2f} "
          f"{'':>8} {cpu_py:6.2f}")
    print("(CPU s: user + system time of the least busy run; x 1 thread: the one-thread time "
          "over this one;\n x Python: the Python loop's time over this one; / bucket: this "
          "time over `bucket`'s on the same file and threads)")

    bucket_all = best[("bucket", "ascii", cores)]
    checks = [
        ("bucket, all cores, vs the Python loop", t_py / bucket_all, ">= 25x", t_py / bucket_all >= 25),
        ("bucket, all cores over one thread (ascii)", best[("bucket", "ascii", 1)] / bucket_all,
         ">= 1.7x", best[("bucket", "ascii", 1)] / bucket_all >= 1.7),
    ]
    for kind in files:
        for threads in sorted({1, cores}):
            ratio = best[("report", kind, threads)] / best[("bucket", kind, threads)]
            checks.append((f"report / bucket time, {kind}, {threads} thread(s)", ratio, "<= 2x", ratio <= 2))
    for command in ("plan", "balance"):
        ratio = best[(command, "ascii", 1)] / best[(command, "ascii", cores)]
        checks.append((f"{command}, all cores over one thread (ascii)", ratio, "> 1x", ratio > 1))
    report_rate = n / best[("report", "ascii", cores)] / 1e6
    checks.append(("report, ascii, all cores, M IDs/s", report_rate, ">= 10", report_rate >= 10))
    print()
    for name, value, target, met in checks:
        print(f"{name:<45} {value:7.2f}  target {target:<8} {'met' if met else 'NOT met'}")

    if with_criterion:
        print("\ncargo bench -p ravenshard --bench bucket (one thread, 10,000 IDs an iteration):")
        targets = {"bucket_for/short": 60, "bucket_for/non-ascii": 20}
        for name, thrpt in criterion():
            # `[low mid high]`, each `<value> <unit>` (Melem/s or Kelem/s or Gelem/s).
            parts = thrpt.strip("[]").split()
            scale = {"Kelem/s": 1e-3, "Melem/s": 1, "Gelem/s": 1e3}.get(parts[3], 0)
            mid = float(parts[2]) * scale
            verdict = ""
            if name in targets:
                met = mid >= targets[name]
                verdict = f"  target >= {targets[name]} M/s {'met' if met else 'NOT met'}"
            print(f"  {name:<32} {thrpt}{verdict}")


# Issue 32's shapes: every value of every dimension of bench/shapes.py in some row.
SHAPES = [
    "ids=1M",
    "ids=10M",
    "ids=10M,anchored=1/2,anchors=1M",
    "ids=10M,anchored=1/2,anchors=1M,pick=zipf",
    "ids=10M,anchored=1/2,anchors=1M,docs=before",
    "ids=10M,anchored=1/2,anchors=1M,pick=zipf,docs=after",
    "ids=10M,anchored=1/3,anchors=100k,docs=before",
    "ids=10M,anchored=9/10,anchors=1k,pick=zipf,docs=after",
    "ids=10M,anchored=9/10,anchors=1",
    "ids=1M,anchored=1/2,anchors=1M",
    "ids=1M,anchored=1/2,anchors=100k,non_ascii=1/2,docs=before",
    "ids=1M,anchored=1/2,anchors=100k,prefixed=1/2,docs=after",
    "ids=1M,anchored=1/3,anchors=100k,length=100",
    "ids=1M,anchored=1/3,anchors=100k,length=500,docs=before",
]

# The targets of issue 32, as a command's time over `bucket`'s and its peak memory.
MOST_OVER_BUCKET = 2.0
MOST_MB = 100


def by_shapes(shapes_given: list, runs: int) -> None:
    """One table over ID shapes: each command's best time, its ratio to `bucket`'s on the
    same file and threads, and `report`'s peak memory; the targets met or not."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import shapes

    subprocess.run(["cargo", "build", "--quiet", "--release", "--bin", "ravenshard"], cwd=ROOT, check=True)
    exe = os.path.join(ROOT, "target", "release", "ravenshard")
    os.makedirs(BENCH, exist_ok=True)
    cores = os.cpu_count() or 1
    names = ["bucket", "report", "report --json", "plan", "balance"]
    rows, missed = [], []
    load_before = os.getloadavg()[0]
    for shape in shapes_given:
        path = shapes.path(shape)
        three, four = shapes.config(shape), shapes.config(shape, 4)
        arguments = {
            "bucket": ["bucket", "--config", three],
            "report": ["report", "--config", three],
            "report --json": ["report", "--json", "--config", three],
            "plan": ["plan", "--config", three, "--target", four],
            "balance": ["balance", "--config", three],
        }
        for threads in sorted({1, cores}):
            cmds = {k: [exe] + a + ["--threads", str(threads)] for k, a in arguments.items()}
            if threads != 1:
                for k in ("report", "report --json", "plan"):
                    one = cmds[k][:-1] + ["1"]
                    if output(cmds[k], path) != output(one, path):
                        sys.exit(f"{k} on {shape}: {threads} threads print other bytes than 1")
            best, peak = {}, {}
            for _ in range(runs):
                for k, cmd in cmds.items():
                    elapsed, mb, _ = run(cmd, path)
                    best[k] = min(best.get(k, float("inf")), elapsed)
                    peak[k] = max(peak.get(k, 0), mb)
            rows.append((shape, threads, best, peak))
            for k in names[1:]:
                ratio = best[k] / best["bucket"]
                if ratio > MOST_OVER_BUCKET or peak[k] > MOST_MB:
                    missed.append(f"{k} on {shape}, {threads} thread(s): {ratio:.2f}x, {peak[k]:.0f} MB")
    print(f"{runs} interleaved runs each (best), whole process, stdin, output to /dev/null, "
          f"{cores} cores; load average (1 min) before: {load_before:.1f}, after: "
          f"{os.getloadavg()[0]:.1f}")
    print("| shape | threads | bucket s | " + " | ".join(f"{k} s (/ bucket, MB)" for k in names[1:]) + " |")
    print("|---|---|---|" + "---|" * (len(names) - 1))
    for short, threads, best, peak in rows:
        cells = [f"{best[k]:.2f} ({best[k] / best['bucket']:.2f}x, {peak[k]:.0f})" for k in names[1:]]
        print(f"| {short} | {threads} | {best['bucket']:.2f} ({peak['bucket']:.0f} MB) | " + " | ".join(cells) + " |")
    print(f"\ntargets: every command at most {MOST_OVER_BUCKET}x bucket's time, at most {MOST_MB} MB: "
          + ("met on every shape" if not missed else "NOT met:\n  " + "\n  ".join(missed)))


if __name__ == "__main__":
    main()
