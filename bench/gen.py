#!/usr/bin/env python3
"""Deterministic test data for bench/run.

  gen.py text OUT BYTES      code-like text of about BYTES bytes, with one unique
                             target line (TARGET_OLD) in the middle
  gen.py slots OUT N         the 10 KiB text plus N unique slot lines (slot_01..slot_NN)
  gen.py nearmiss TEXT OUT   a 3-line near-miss of a block in the middle of TEXT
  gen.py tree DIR            the discovery tree (see tree() below)

Everything is seeded, so two runs produce byte-identical data.
"""

import os
import random
import sys

# The unique snippet that the edit scenarios replace. Plain characters only, so the
# same string is a valid sed BRE and needs no quoting beyond the shell's.
TARGET_OLD = "let bench_target_value = compute_checksum(seed_value, 1234567);"
TARGET_NEW = "let bench_target_value = compute_checksum(seed_value, 7654321);"

WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
    "november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee "
    "buffer cursor window parser token render layout widget stream socket handle "
    "record column ledger anchor bucket cipher digest filter vector matrix"
).split()


def block(rng, n):
    """One small Rust-like function; `n` makes its name and locals unique."""
    w = rng.choice(WORDS)
    v = rng.choice(WORDS)
    k = rng.randint(2, 97)
    return (
        f"/// Computes the {w} {v} for item {n}.\n"
        f"fn item_{n:07d}_{w}(input: &str, {v}: usize) -> usize {{\n"
        f"    let total_{n:07d} = input.len() * {k} + {v};\n"
        f"    // {rng.choice(WORDS)} {rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randint(0, 10**9)}\n"
        f"    total_{n:07d} ^ 0x{rng.randint(0, 0xFFFF):04x}\n"
        "}\n\n"
    )


def text(size, seed=1, extra_middle=""):
    rng = random.Random(seed)
    parts, total, n, placed = [], 0, 0, False
    while total < size:
        if not placed and total >= size // 2:
            mid = f"fn bench_target(seed_value: u64) -> u64 {{\n    {TARGET_OLD}\n    bench_target_value\n}}\n\n"
            mid += extra_middle
            parts.append(mid)
            total += len(mid)
            placed = True
            continue
        b = block(rng, n)
        parts.append(b)
        total += len(b)
        n += 1
    return "".join(parts)


def cmd_text(out, size):
    with open(out, "w", encoding="utf-8") as f:
        f.write(text(int(size)))


def cmd_slots(out, n):
    n = int(n)
    slots = "".join(f"    let slot_{i:02d} = before_value;\n" for i in range(1, n + 1))
    body = text(10 * 1024, seed=2, extra_middle=f"fn slots() {{\n{slots}}}\n\n")
    with open(out, "w", encoding="utf-8") as f:
        f.write(body)


def cmd_nearmiss(src, out):
    """Lines 1-3 of a function in the middle of src, with one token changed on line 2."""
    with open(src, encoding="utf-8") as f:
        lines = f.readlines()
    i = len(lines) * 3 // 5
    while not lines[i].startswith("fn item_"):
        i += 1
    snippet = lines[i : i + 3]
    assert "input.len() * " in snippet[1]
    snippet[1] = snippet[1].replace("input.len() * ", "input.chars().count() * ")
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(snippet))


# The discovery tree: 50 packages x 45 modules x 31 files (69,750 visible files in
# 2,300 directories) plus build/ (ignored by .gitignore): 750 directories x 40 files
# (30,000). Extensions are mixed .rs/.txt/.md. LITERAL and the REGEX target appear in
# a few visible files and in some ignored ones (which must not be reported).
LITERAL = "zanzibar_quokka"
REGEX_WORD = "frobnicate_"  # lines "fn frobnicate_<word>(" match the regex in bench/run


def tree(root):
    rng = random.Random(7)
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, ".gitignore"), "w") as f:
        f.write("build/\n*.tmp\n")
    exts = ["rs"] * 12 + ["txt"] * 58 + ["md"] * 30

    def body(tag):
        lines = []
        for _ in range(rng.randint(6, 20)):
            lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 10))))
        if tag == "lit":
            lines.insert(rng.randrange(len(lines)), f"see {LITERAL} for details")
        elif tag == "re":
            lines.insert(rng.randrange(len(lines)), f"fn {REGEX_WORD}{rng.choice(WORDS)}(x: u32) {{}}")
        return "\n".join(lines) + "\n"

    count = 0
    for p in range(50):
        for m in range(45):
            d = os.path.join(root, f"pkg_{p:02d}", f"mod_{m:02d}")
            os.makedirs(d, exist_ok=True)
            for i in range(31):
                tag = ""
                if count % 1747 == 3:
                    tag = "lit"
                elif count % 1151 == 5:
                    tag = "re"
                with open(os.path.join(d, f"f{i:02d}.{rng.choice(exts)}"), "w") as f:
                    f.write(body(tag))
                count += 1
    for b in range(750):
        d = os.path.join(root, "build", f"out_{b:03d}")
        os.makedirs(d, exist_ok=True)
        for i in range(40):
            tag = "lit" if (b * 40 + i) % 997 == 0 else ("re" if (b * 40 + i) % 991 == 1 else "")
            with open(os.path.join(d, f"g{i:02d}.{rng.choice(exts)}"), "w") as f:
                f.write(body(tag))


def main(argv):
    cmds = {"text": cmd_text, "slots": cmd_slots, "nearmiss": cmd_nearmiss, "tree": tree}
    if len(argv) < 2 or argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[argv[1]](*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
