"""ID files by shape: the one generator of the benchmarks (`bench/cli_vs_python.py --shapes`,
the criterion benches' `RAVENSHARD_SHAPE` files, `js/bench/`).

A shape is a comma-separated list of `key=value` (every key optional, defaults in
`DEFAULTS`):

  ids=10M          how many ID lines (`1M`, `10M`, `250k` or a number)
  anchored=1/2     the share of IDs anchored (`orders/…$customers/…`): 0, 1/3, 1/2, 9/10, …
  anchors=1M       distinct anchors the anchored IDs pick from (1, 1k, 100k, 1M, …)
  pick=uniform     how an anchored ID picks its anchor: `uniform`, or `zipf` (rank k with
                   weight 1/k: a few customers with most orders)
  docs=absent      the anchor documents (`Customers/k-A`, one line each): `absent`, `before`
                   (all of them first) or `after` (all of them last, past every group)
  non_ascii=0      the share of IDs (and of anchors) with non-ASCII characters
                   (`bestellungen/…-É$kunden/…-ß`)
  prefixed=0       the share of IDs under the prefix `eu/` (the configuration of
                   `config(shape)` gives it its own shards)
  length=short     `short` (about 15-30 bytes), `100` or `500` bytes per ID (padded before
                   the anchor; near RavenDB's 512-byte limit for 500)
  seed=1           the seed: the same shape and seed give the same bytes

Usage: python3 bench/shapes.py SHAPE [-o FILE]   (writes the file, or stdout)
       python3 bench/shapes.py --config SHAPE    (the sharding configuration it is read with)

As a module: `path(shape)` generates the file into target/bench/shapes/ (or the directory
$RAVENSHARD_SHAPES_DIR names) once, named by its shape, and returns its path; `config(shape)`
likewise for its configuration.
"""
import bisect
import itertools
import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Where `path` and `config` write: target/bench/shapes/, or $RAVENSHARD_SHAPES_DIR.
DIR = os.environ.get("RAVENSHARD_SHAPES_DIR") or os.path.join(ROOT, "target", "bench", "shapes")

DEFAULTS = {
    "ids": "1M",
    "anchored": "0",
    "anchors": "1k",
    "pick": "uniform",
    "docs": "absent",
    "non_ascii": "0",
    "prefixed": "0",
    "length": "short",
    "seed": "1",
}


def number(text: str) -> int:
    text = text.replace(",", "").replace("_", "")
    scale = {"k": 1_000, "K": 1_000, "M": 1_000_000}.get(text[-1:], 1)
    return int(float(text[:-1] if scale != 1 else text) * scale)


def share(text: str) -> float:
    if "/" in text:
        a, b = text.split("/")
        return int(a) / int(b)
    return float(text)


def parse(shape: str) -> dict:
    spec = dict(DEFAULTS)
    for part in filter(None, shape.split(",")):
        key, _, value = part.partition("=")
        if key not in DEFAULTS:
            sys.exit(f"shape {shape!r}: unknown key {key!r} (keys: {', '.join(DEFAULTS)})")
        spec[key] = value
    if spec["pick"] not in ("uniform", "zipf"):
        sys.exit(f"shape {shape!r}: pick is uniform or zipf")
    if spec["docs"] not in ("absent", "before", "after"):
        sys.exit(f"shape {shape!r}: docs is absent, before or after")
    if spec["length"] not in ("short", "100", "500"):
        sys.exit(f"shape {shape!r}: length is short, 100 or 500")
    return spec


def name(shape: str) -> str:
    """The shape with every key, in order: the file's name."""
    spec = parse(shape)
    return ",".join(f"{k}={spec[k]}" for k in DEFAULTS)


def file_name(shape: str) -> str:
    """[`name`] without slashes (`1/2` is `1over2`)."""
    return name(shape).replace("/", "over")


def below(i: int, part: float, salt: int) -> bool:
    """Whether item `i` is in the first `part` of items, spread evenly and by a fixed
    scramble (the same item is always in or out, whatever the seed)."""
    return ((i * 2654435761 + salt) % 1_000_003) < part * 1_000_003


def anchor_id(k: int, spec: dict, non_ascii: float) -> str:
    if below(k, non_ascii, 17):
        return f"kunden/{k}-ß"
    return f"customers/{k}-A"


def capital(id: str) -> str:
    """The ID as its document is named: `Customers/…` for the anchor `customers/…`."""
    return id[:1].upper() + id[1:]


def pad(base: str, length: str, tail: int) -> str:
    """`base` padded (after its collection) to `length` bytes with `tail` bytes to come."""
    if length == "short":
        return base
    want = int(length) - tail - len(base.encode("utf-8"))
    if want <= 1:
        return base
    collection, _, rest = base.partition("/")
    return f"{collection}/{'x' * (want - 1)}/{rest}"


def lines(shape: str):
    """The lines of the shape's file, each with its `\\n`."""
    spec = parse(shape)
    n, distinct = number(spec["ids"]), max(1, number(spec["anchors"]))
    anchored, non_ascii, prefixed = (share(spec[k]) for k in ("anchored", "non_ascii", "prefixed"))
    rng = random.Random(int(spec["seed"]))
    docs = spec["docs"]
    anchor_docs = [capital(anchor_id(k, spec, non_ascii)) + "\n" for k in range(distinct)]
    documents = n - (distinct if docs != "absent" and anchored > 0 else 0)
    if docs == "before" and anchored > 0:
        yield from anchor_docs
    if spec["pick"] == "zipf":
        weights = itertools.accumulate(1 / (k + 1) for k in range(distinct))
        cumulative = list(weights)
        total = cumulative[-1]

        def pick() -> int:
            return min(bisect.bisect(cumulative, rng.random() * total), distinct - 1)
    else:
        def pick() -> int:
            return rng.randrange(distinct)
    for i in range(max(documents, 0)):
        wide = below(i, non_ascii, 3)
        base = f"bestellungen/{i}-É" if wide else f"orders/{i}-A"
        if below(i, prefixed, 5):
            base = "eu/" + base
        if rng.random() < anchored:
            anchor = anchor_id(pick(), spec, non_ascii)
            yield f"{pad(base, spec['length'], len(anchor.encode('utf-8')) + 1)}${anchor}\n"
        else:
            yield pad(base, spec["length"], 0) + "\n"
    if docs == "after" and anchored > 0:
        yield from anchor_docs


def write(shape: str, out) -> None:
    batch = []
    for line in lines(shape):
        batch.append(line)
        if len(batch) >= 100_000:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))


def config_json(shape: str, shards: int = 3) -> str:
    """Three shards (or `shards`), and with a prefixed share the prefix `eu/` on shard 2 (its
    own block)."""
    spec = parse(shape)
    sharding = {"Shards": {str(n): {} for n in range(shards)}}
    if share(spec["prefixed"]) > 0:
        sharding["Prefixed"] = [{"Prefix": "eu/", "Shards": [2], "BucketRangeStart": 1048576}]
    return json.dumps(sharding) + "\n"


def path(shape: str) -> str:
    """The shape's file under target/bench/shapes/, generated when missing."""
    os.makedirs(DIR, exist_ok=True)
    file = os.path.join(DIR, file_name(shape) + ".txt")
    if not os.path.exists(file):
        with open(file + ".tmp", "w", encoding="utf-8", newline="\n") as out:
            write(shape, out)
        os.replace(file + ".tmp", file)
    return file


def config(shape: str, shards: int = 3) -> str:
    """The shape's configuration (three shards, or `shards`) under target/bench/shapes/."""
    os.makedirs(DIR, exist_ok=True)
    file = os.path.join(DIR, f"config-{shards}-" + file_name(shape) + ".json")
    with open(file, "w", encoding="utf-8") as out:
        out.write(config_json(shape, shards))
    return file


def main() -> None:
    argv = sys.argv[1:]
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return
    if argv[0] == "--config":
        sys.stdout.write(config_json(argv[1] if len(argv) > 1 else ""))
        return
    shape, out = argv[0], None
    if argv[1:2] == ["-o"] and len(argv) > 2:
        out = argv[2]
    if out is None:
        write(shape, sys.stdout)
        return
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        write(shape, f)


if __name__ == "__main__":
    main()
