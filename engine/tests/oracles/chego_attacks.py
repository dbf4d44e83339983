"""Attack sets and attacker counts from python-chess, for engine/tests/chego_oracle.rs.

Reads one board FEN placement (8 ranks, K Q R B N P) per line on standard input and writes
one line per board: for each square a1, b1, ..., h8, `white:black:mask`, where white and
black count the pieces of each side attacking the square, and mask (hex) is the set of
squares attacked by the piece standing there (0 for an empty square).
"""

import sys

try:
    import chess
except ImportError:
    sys.stderr.write("python-chess is missing: pip install chess==1.11.2 (see .ci/requirements.txt)\n")
    sys.exit(3)


def describe(placement):
    board = chess.BaseBoard(placement)
    cells = []
    for square in chess.SQUARES:
        white = len(board.attackers(chess.WHITE, square))
        black = len(board.attackers(chess.BLACK, square))
        mask = int(board.attacks(square)) if board.piece_at(square) else 0
        cells.append(f"{white}:{black}:{mask:x}")
    return " ".join(cells)


def main():
    for line in sys.stdin:
        line = line.strip()
        if line:
            print(describe(line))


if __name__ == "__main__":
    main()
