#!/usr/bin/env python3
"""Fairy-Stockfish's own perft for iChess positions (Debian's `fairy-stockfish`).

    fsf_perft.py            check every count of engine/tests/data/ichess-perft.txt
    fsf_perft.py --bench N  time `go perft 3` on the middle-game position, N runs

The engine reads tests/oracles/ichess.ini through `setoption name VariantPath`. Timing
uses the child's CPU time, less that of a run that loads the variant but does no perft.
"""

import os
import resource
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "ichess-perft.txt")
CONFIG = os.path.join(HERE, "ichess.ini")
VARIANTS = {"play": "ichess", "deploy": "ichess-deploy", "deploy-kingless": "ichess-deploy"}


def engine():
    path = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
    if not os.path.exists(path):
        sys.exit("fairy-stockfish is missing: apt-get install fairy-stockfish")
    return path


def positions():
    entries = []
    with open(DATA) as data:
        for line in data:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "id":
                entries.append({"id": words[1], "perft": []})
            entry = entries[-1]
            if words[0] == "fen":
                entry["fen"] = " ".join(words[1:])
            elif words[0] == "fsf":
                entry["fsf"] = words[1]
            elif words[0] == "perft":
                entry["perft"].append((int(words[1]), int(words[2])))
    return entries


def fsf_fen(fen, how):
    placement, side = fen.split()
    placement = placement.replace("F", "+P").replace("f", "+p")
    if how == "deploy-kingless":
        placement = placement.replace("K", "").replace("k", "")
    return f"{placement} {side} - - 0 1"


def run(commands):
    """Runs the engine on the commands; returns (output, CPU seconds it used)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    script = f"setoption name VariantPath value {CONFIG}\n" + "".join(c + "\n" for c in commands) + "quit\n"
    output = subprocess.run([engine()], input=script, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return output, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def nodes(output):
    return [int(line.split(":")[1]) for line in output.splitlines() if line.startswith("Nodes searched")]


def setup(entry):
    return [f"setoption name UCI_Variant value {VARIANTS[entry['fsf']]}", f"position fen {fsf_fen(entry['fen'], entry['fsf'])}"]


def check():
    failures = 0
    for entry in positions():
        if entry.get("fsf") not in VARIANTS:
            print(f"{entry['id']}: not expressible, skipped")
            continue
        output, _ = run(setup(entry) + [f"go perft {depth}" for depth, _ in entry["perft"]])
        theirs = nodes(output)
        ours = [count for _, count in entry["perft"]]
        status = "ok" if theirs == ours else "MISMATCH"
        failures += theirs != ours
        print(f"{entry['id']}: ours {ours} fairy-stockfish {theirs} {status}")
    return failures


def bench(runs):
    entry = next(e for e in positions() if e["id"] == "middle-game")
    _, idle = run(setup(entry) + ["isready"])
    output, busy = run(setup(entry) + ["go perft 3"] * runs + ["isready"])
    count = nodes(output)[0]
    per_run = (busy - idle) / runs
    print(f"fairy-stockfish perft 3 middle-game: {count} nodes, {per_run * 1e3:.2f} ms CPU per run "
          f"({count / per_run / 1e6:.1f} M nodes/s, {runs} runs)")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--bench":
        bench(int(sys.argv[2]))
    else:
        sys.exit(1 if check() else 0)
