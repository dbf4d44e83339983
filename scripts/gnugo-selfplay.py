#!/usr/bin/env python3
"""GNU Go plays itself to two passes, for ai/examples/dead_vs_gnugo.rs.

    python3 scripts/gnugo-selfplay.py OUT.jsonl SIZES FIRST LAST [OPENING]

SIZES such as 7,9,13; seeds FIRST..LAST-1 for each size (GNU Go's --seed, level 1, komi
6.5). GNU Go plays much the same game whatever its seed, so with OPENING > 0 each game
starts with 2 to OPENING random drops (seeded by the game's seed and size) before GNU Go
takes over. Each line of OUT is one game that ended in two passes: its size, seed, GTP
moves, GNU Go's `final_status_list dead` and `final_score`. Games GNU Go resigns are left
out.
"""

import json
import random
import subprocess
import sys

LETTERS = "abcdefghjklmnopqrst"


def play(size, seed, opening):
    gnugo = subprocess.Popen(
        ["gnugo", "--mode", "gtp", "--seed", str(seed), "--level", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )

    def command(text):
        gnugo.stdin.write(text + "\n")
        gnugo.stdin.flush()
        lines = []
        while True:
            line = gnugo.stdout.readline()
            if not line.strip() and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = "\n".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"{text}: {answer}")
        return answer[1:].strip()

    try:
        for text in (f"boardsize {size}", "clear_board", "komi 6.5"):
            command(text)
        moves, color = [], "b"
        chance = random.Random(seed * 1000 + size)
        for _ in range(chance.randint(2, opening) if opening > 1 else 0):
            vertex = LETTERS[chance.randrange(size)] + str(chance.randrange(size) + 1)
            if vertex in moves or command(f"is_legal {color} {vertex}") != "1":
                continue
            command(f"play {color} {vertex}")
            moves.append(vertex)
            color = "w" if color == "b" else "b"
        passes = 0
        while passes < 2 and len(moves) < 400:
            move = command(f"genmove {color}").lower()
            if move == "resign":
                return None
            moves.append(move)
            passes = passes + 1 if move == "pass" else 0
            color = "w" if color == "b" else "b"
        if passes < 2:
            return None
        dead = command("final_status_list dead").lower().split()
        score = command("final_score")
        return {"size": size, "seed": seed, "moves": moves, "dead": dead, "score": score}
    finally:
        gnugo.stdin.write("quit\n")
        gnugo.stdin.flush()
        gnugo.wait()


def main():
    out, sizes, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    opening = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    seen = set()
    with open(out, "w", encoding="utf-8") as games:
        for size in (int(text) for text in sizes.split(",")):
            for seed in range(first, last):
                game = play(size, seed, opening)
                # Seeds often repeat a game: each game once.
                if game and (size, tuple(game["moves"])) not in seen:
                    seen.add((size, tuple(game["moves"])))
                    games.write(json.dumps(game) + "\n")
                    games.flush()


if __name__ == "__main__":
    main()
