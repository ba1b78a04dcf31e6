"""The campaign's checkpoint, for difftest/run.py: the graded result of
every case, one JSON line per case and precision, appended as soon as the
case is graded, so that a stopped run continues where it stopped.

The first line says what the results are of: the system and its version,
a hash of the chad binary that graded them, the seed, the injected fault
(and the run's other options, for information). A checkpoint whose first
line differs in one of those (IDENTITY: another system, a rebuilt chad) is
not reused: it is moved aside to FILE.stale and the run starts over. The
number of generated programs, the groups and the precisions may differ: a
result is keyed by its case (the seed and index of a generated program,
the point of a targeted one) and precision, so a run of fewer programs
reads the results it needs (a stopped run is reported as far as it got by
rerunning it with that many), a run of more grades the rest. A last line
cut short by the stop is ignored (that case is graded again).
"""
import hashlib
import json
import os

IDENTITY = ("system", "version", "chad", "seed", "fault")


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def merge(dst, src):
    """Adds the counts of src into dst (nested dicts of numbers)."""
    for k, v in src.items():
        if isinstance(v, dict):
            merge(dst.setdefault(k, {}), v)
        else:
            dst[k] = dst.get(k, 0) + v
    return dst


class Checkpoint:
    """`done` maps a case key to its record {"stats", "findings"} read
    back; `add` appends one."""

    def __init__(self, path, header, log=print):
        self.path, self.done = path, {}
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if os.path.exists(path):
            with open(path) as f:
                lines = f.read().split("\n")
            try:
                first = json.loads(lines[0])
            except json.JSONDecodeError:
                first = None
            if isinstance(first, dict) and all(first.get(k) == header.get(k) for k in IDENTITY):
                for line in lines[1:]:
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError:
                        continue   # the line being written when the run stopped
                    if isinstance(r, dict) and "key" in r:
                        self.done[r["key"]] = r
                log(f"difftest: resuming from {path}: {len(self.done)} case results already graded")
            else:
                os.replace(path, path + ".stale")
                log(f"difftest: {path} is of another run or another chad (moved to {path}.stale); starting over")
        if not self.done:
            with open(path, "w") as f:
                f.write(json.dumps(header, sort_keys=True) + "\n")
        else:   # drop a cut-short last line before appending after it
            with open(path, "w") as f:
                f.write(json.dumps(header, sort_keys=True) + "\n")
                for r in self.done.values():
                    f.write(json.dumps(r) + "\n")
        self.f = open(path, "a")

    def add(self, key, stats, findings):
        r = {"key": key, "stats": stats, "findings": findings}
        self.done[key] = r
        self.f.write(json.dumps(r) + "\n")
        self.f.flush()

    def close(self):
        self.f.close()
