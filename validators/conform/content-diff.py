#!/usr/bin/env python3
"""Compares the content a reader decoded with the expected content of a case,
both in the schema of `tracelint dump` (JSON Lines, one object a line, each
with a "kind"), and prints the first line where they differ.

Usage: content-diff.py [--sort] [--ignore=KEY,...] EXPECTED ACTUAL

A reader may print a subset of the schema: only the kinds of line it covers
(those its header line lists as "kinds", else those it prints) and the keys
it prints on some line of its own are compared (the expected lines are cut
down to them), so a reader that prints only frames, or has no byte offsets,
is not faulted for it; one that declares its kinds cannot lose a kind
unnoticed.
With --sort, the lines after the first (the header) are sorted on both
sides before they are compared, by "tsc" when there is one and then by the
whole line, as llvm-xray sorts its records by TSC: readers that emit
records in another order than the file's then compare record for record.

Exit status: 0 same content, 1 a difference (printed), 2 usage or an
unreadable input."""
import json
import sys


def load(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            text = text.strip()
            if not text:
                continue
            try:
                obj = json.loads(text)
            except ValueError as e:
                raise SystemExit("content-diff: %s:%d: not JSON: %s" % (path, n, e))
            if not isinstance(obj, dict) or "kind" not in obj:
                raise SystemExit("content-diff: %s:%d: not an object with a \"kind\"" % (path, n))
            lines.append(obj)
    return lines


def project(obj, keys):
    return {k: obj[k] for k in obj if k in keys}


def sort_key(obj):
    tsc = obj.get("tsc")
    return (0 if isinstance(tsc, int) else 1, tsc if isinstance(tsc, int) else 0,
            json.dumps(obj, sort_keys=True))


def compare(expected, actual, sort=False, ignore=()):
    """The first difference as (line number, expected, found), or None."""
    declared = actual[0].pop("kinds", None) if actual and actual[0]["kind"] == "header" else None
    kinds = set(declared) if isinstance(declared, list) else {obj["kind"] for obj in actual}
    kinds.add("header")
    expected = [o for o in expected if o["kind"] in kinds]
    keys = set()
    for obj in actual:
        keys.update(obj)
    keys.difference_update(ignore)
    keys.add("kind")
    exp = [project(o, keys) for o in expected]
    act = [project(o, keys) for o in actual]
    if sort:
        exp = exp[:1] + sorted(exp[1:], key=sort_key)
        act = act[:1] + sorted(act[1:], key=sort_key)
    for i in range(max(len(exp), len(act))):
        e = exp[i] if i < len(exp) else None
        a = act[i] if i < len(act) else None
        if e != a:
            return i + 1, e, a
    return None


def main(argv):
    sort = False
    ignore = []
    paths = []
    for a in argv[1:]:
        if a == "--sort":
            sort = True
        elif a.startswith("--ignore="):
            ignore.extend(k for k in a.split("=", 1)[1].split(",") if k)
        elif a.startswith("-"):
            sys.stderr.write(__doc__)
            return 2
        else:
            paths.append(a)
    if len(paths) != 2:
        sys.stderr.write(__doc__)
        return 2
    diff = compare(load(paths[0]), load(paths[1]), sort, ignore)
    if diff is None:
        return 0
    n, e, a = diff
    dump = lambda o: "nothing (the content ends)" if o is None else json.dumps(o, separators=(",", ":"))
    print("line %d%s: expected %s, found %s" % (n, " (after sorting)" if sort else "", dump(e), dump(a)))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
