#!/usr/bin/env python3
"""Fairy-Stockfish (pyffish) as an oracle for iChess, driven over stdin/stdout.

One JSON object per line in, one per line out:

  {"cmd": "new"}                 start a game (deployment, kings withheld)
  {"cmd": "setup", "fen": F}     start from a play-phase set-up in our text form
  {"cmd": "play", "move": "R@a1"} play a move in UCI form (drops `R@a1`, moves `g4h2`,
                                 promotions `c4c5+`); refused moves answer {"error": ...}
  {"cmd": "state"}               the legal moves, board, hands, check and game end
  {"cmd": "perft", "fen": F, "depth": D}
                                 perft of a set-up in our text form (slow: small depths)

Deployment is played in the `ichess-deploy` section (drops only); the kings go into the
hands once the other 14 pieces are down (king last, rule 3). After the 16th drop the game
goes on in `ichess` from the position reached, with the move list kept for repetitions.
"""

import json
import os
import sys

try:
    import pyffish as sf
except ImportError:
    print(json.dumps({"fatal": "pyffish is missing: pip install -r .ci/requirements.txt (pyffish==0.0.90)"}))
    sys.exit(3)

HERE = os.path.dirname(os.path.abspath(__file__))
PLAY, DEPLOY = "ichess", "ichess-deploy"
HAND_ORDER = "KQRBNPF"
DEPLOY_DROPS, KINGLESS_DROPS = 16, 14


def add_kings(fen):
    board, rest = fen.split("[", 1)
    hand, tail = rest.split("]", 1)
    return f"{board}[{hand}Kk]{tail}"


def rows_and_hands(fen):
    placement = fen.split()[0]
    board, hand = placement.split("[", 1) if "[" in placement else (placement, "]")
    hand = hand.rstrip("]")
    rows = []
    for rank in board.split("/"):
        row, promoted = "", False
        for ch in rank:
            if ch == "+":
                promoted = True
            elif ch.isdigit():
                row += "." * int(ch)
            else:
                row += ("F" if ch.isupper() else "f") if promoted else ch
                promoted = False
        rows.append(row)
    white = "".join(sorted((c for c in hand if c.isupper()), key=HAND_ORDER.index))
    black = "".join(sorted((c.upper() for c in hand if c.islower()), key=HAND_ORDER.index))
    return rows, {"white": white, "black": black}


def to_fsf(fen):
    """Our set-up text to Fairy-Stockfish's: a ferz is a promoted pawn, `+P`."""
    placement, side = (fen.split() + ["w"])[:2]
    placement = placement.replace("F", "+P").replace("f", "+p")
    return f"{placement} {side} - - 0 1"


class Game:
    def __init__(self, fen=None):
        self.variant = DEPLOY if fen is None else PLAY
        self.fen = sf.start_fen(PLAY) if fen is None else to_fsf(fen)
        self.moves = []
        self.drops = 0
        self.seen = {}
        self.legal = sf.legal_moves(self.variant, self.fen, self.moves)

    def play(self, move):
        if move not in self.legal:
            return {"error": f"{move} is not legal for Fairy-Stockfish"}
        self.legal = None
        if self.variant == PLAY:
            self.moves.append(move)
            return {"ok": True}
        self.fen = sf.get_fen(self.variant, self.fen, [move])
        self.drops += 1
        if self.drops == KINGLESS_DROPS:
            self.fen = add_kings(self.fen)
        if self.drops == DEPLOY_DROPS:
            self.variant = PLAY
        return {"ok": True}

    def state(self):
        if self.legal is None:
            self.legal = sf.legal_moves(self.variant, self.fen, self.moves)
        legal = self.legal
        fen = sf.get_fen(self.variant, self.fen, self.moves)
        # Only a position seen before can end the game by repetition (there is no
        # n-move rule), so the costly check is made only then.
        key = " ".join(fen.split()[:2])
        self.seen[key] = self.seen.get(key, 0) + 1
        rows, hands = rows_and_hands(fen)
        if self.variant == DEPLOY and self.drops < KINGLESS_DROPS:
            # The kings are withheld from Fairy-Stockfish's hands until they may be dropped.
            hands = {color: "K" + hand for color, hand in hands.items()}
        end = None
        if not legal:
            end = result_name(sf.game_result(self.variant, self.fen, self.moves))
        elif self.seen[key] > 1:
            ended, value = sf.is_optional_game_end(self.variant, self.fen, self.moves)
            if ended:
                end = result_name(value)
        return {
            "legal": sorted(legal),
            "board": rows,
            "hands": hands,
            "to_move": "white" if fen.split()[1] == "w" else "black",
            "check": sf.gives_check(self.variant, self.fen, self.moves),
            "end": end,
        }


def result_name(value):
    """A game result for the side to move."""
    return "draw" if value == 0 else ("win" if value > 0 else "loss")


def perft(variant, fen, moves, depth):
    legal = sf.legal_moves(variant, fen, moves)
    if depth <= 1:
        return len(legal) if depth == 1 else 1
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def main():
    with open(os.path.join(HERE, "ichess.ini")) as config:
        sf.load_variant_config(config.read())
    game = Game()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        cmd = request.get("cmd")
        try:
            if cmd == "new":
                game = Game()
                reply = {"ok": True}
            elif cmd == "setup":
                game = Game(request["fen"])
                reply = {"ok": True}
            elif cmd == "play":
                reply = game.play(request["move"])
            elif cmd == "state":
                reply = game.state()
            elif cmd == "perft":
                variant = request.get("variant", PLAY)
                reply = {"nodes": perft(variant, to_fsf(request["fen"]), [], request["depth"])}
            else:
                reply = {"error": f"unknown command {cmd!r}"}
        except Exception as error:  # report, keep serving: the Rust test shows it
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
