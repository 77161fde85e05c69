"""`ravenshard bucket` against a plain Python loop, whole process against whole process.

Usage: python3 bench/cli_vs_python.py [N]   (N IDs, default 10,000,000)

Builds the release CLI, generates N IDs (orders, anchored orders, a few non-ASCII IDs) into
target/bench/, checks that both programs print the same lines for the first 100,000 IDs,
then times each over the whole file (best of 3), output to /dev/null.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generate(path: str, n: int) -> None:
    if os.path.exists(path):
        return
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            if i % 20 == 0:
                f.write(f"Straße/{i}-É\n")
            elif i % 4 == 0:
                f.write(f"orders/{i}-A$customers/{i % 977}-A\n")
            else:
                f.write(f"orders/{i}-A\n")


def best_of(cmd: list, path: str, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        with open(path, "rb") as stdin:
            start = time.perf_counter()
            subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
            best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    try:
        import xxhash  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "xxhash"], check=True)
    subprocess.run(["cargo", "build", "--quiet", "--release", "--bin", "ravenshard"], cwd=ROOT, check=True)
    cli = [os.path.join(ROOT, "target", "release", "ravenshard"), "bucket"]
    py = [sys.executable, os.path.join(ROOT, "bench", "python_loop.py")]
    os.makedirs(os.path.join(ROOT, "target", "bench"), exist_ok=True)
    path = os.path.join(ROOT, "target", "bench", f"ids-{n}.txt")
    generate(path, n)
    sample = os.path.join(ROOT, "target", "bench", "sample.txt")
    with open(path, encoding="utf-8") as src, open(sample, "w", encoding="utf-8") as dst:
        for _, line in zip(range(100_000), src):
            dst.write(line)
    outputs = []
    for cmd in (cli, py):
        with open(sample, "rb") as stdin:
            outputs.append(subprocess.run(cmd, stdin=stdin, capture_output=True, check=True).stdout)
    if outputs[0] != outputs[1]:
        sys.exit("the CLI and the Python loop disagree on the sample: not timing")
    t_cli = best_of(cli, path)
    t_py = best_of(py, path, runs=1)
    print(f"{n:,} IDs, whole process, output to /dev/null")
    print(f"ravenshard bucket : {t_cli:7.2f} s  ({n / t_cli / 1e6:6.2f} M IDs/s)")
    print(f"python loop       : {t_py:7.2f} s  ({n / t_py / 1e6:6.2f} M IDs/s)")
    print(f"speed-up          : {t_py / t_cli:7.1f}x")


if __name__ == "__main__":
    main()
