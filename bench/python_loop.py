"""The plain Python loop ravenshard's CLI is compared with (see bench/cli_vs_python.py).

Reads IDs from stdin, one per line, and prints `id<TAB>bucket` like `ravenshard bucket`:
lower-case, split at the last '$' (not at index 0), xxh64 (seed 0), modulo 2**20.
"""
import sys

import xxhash


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        doc_id = line.rstrip("\r\n")
        lower = doc_id.lower().encode("utf-8")
        cut = lower.rfind(b"$", 1)
        hashed = lower[cut + 1 :] if cut > 0 else lower
        out.write(f"{doc_id}\t{xxhash.xxh64_intdigest(hashed) % 1048576}\n")


if __name__ == "__main__":
    main()
