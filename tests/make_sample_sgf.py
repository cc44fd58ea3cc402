"""Generate ``sample_sgf/``: a McMahon tournament as SGF game records, and the same
tournament as an OpenGotha XML file (``tests/data/sample_tournament.xml``, kept out of the
records folder so that reading the folder reports nothing about it).

Deterministic (fixed seed): running it again rewrites identical files.

The tournament: 24 players ranked 5d..15k, McMahon bar 3d, 5 rounds. Each round
the present players are sorted by McMahon score (then rank) and paired top-down
with someone they have not met; the stronger player takes White; a rank gap of
three or more gives a handicap of (gap − 1) stones with komi ½. One player is
absent in round 3 (announced), so someone gets the bye there; round 1 has a jigo
(integer komi), round 4 a forfeit (``W+F``, no moves). Played games carry a full
move sequence of legal random moves (sgfmill's board), 150..280 moves.

Usage: ``python tests/make_sample_sgf.py [OUTPUT_DIR [XML_FILE]]`` (defaults ``sample_sgf``
and ``tests/data/sample_tournament.xml``).
"""

from __future__ import annotations

import random
import shutil
import sys
import unicodedata
from fractions import Fraction
from pathlib import Path
from xml.sax.saxutils import quoteattr

from sgfmill import boards, sgf

SEED = 20260307
EVENT = "Sodos Spring McMahon 2026"
DATE = "2026-03-07,08"
ROUNDS = 5
BAR = 2  # 3d as a rank integer (1d = 0)
ABSENT = {3: "Horvat Luka"}
JIGO_ROUND, FORFEIT_ROUND, TIME_ROUND = 1, 4, 2

#: (surname, given name, rank): ranks as sodos_plugin.engine.ranks integers (5d = 4, 15k = -15).
PLAYERS = [
    ("Nowak", "Piotr", 4),
    ("Lindqvist", "Erik", 3),
    ("Moreau", "Camille", 3),
    ("Rossi", "Giulia", 2),
    ("Schmidt", "Jonas", 2),
    ("Novák", "Tomáš", 1),
    ("Kovacs", "Anna", 1),
    ("Dubois", "Hugo", 0),
    ("Fischer", "Lena", 0),
    ("Horvat", "Luka", -1),
    ("Jansen", "Daan", -2),
    ("Silva", "Marta", -3),
    ("Popescu", "Andrei", -4),
    ("Berg", "Ingrid", -5),
    ("Costa", "Rui", -6),
    ("Müller", "Zoë", -7),
    ("Ivanov", "Dmitri", -8),
    ("Garcia", "Lucia", -9),
    ("OBrien", "Sean", -10),
    ("Virtanen", "Aino", -11),
    ("Petrov", "Nikola", -12),
    ("Hansen", "Mette", -13),
    ("Kowalski", "Jan", -14),
    ("Weber", "Paul", -15),
]
HANDICAP_POINTS = {
    2: [(3, 15), (15, 3)],
    3: [(3, 15), (15, 3), (3, 3)],
    4: [(3, 3), (3, 15), (15, 3), (15, 15)],
    5: [(3, 3), (3, 15), (15, 3), (15, 15), (9, 9)],
    6: [(3, 3), (3, 15), (15, 3), (15, 15), (9, 3), (9, 15)],
    7: [(3, 3), (3, 15), (15, 3), (15, 15), (9, 3), (9, 15), (9, 9)],
    8: [(3, 3), (3, 15), (15, 3), (15, 15), (9, 3), (9, 15), (3, 9), (15, 9)],
    9: [(3, 3), (3, 15), (15, 3), (15, 15), (9, 3), (9, 15), (3, 9), (15, 9), (9, 9)],
}


def rank_text(rank: int) -> str:
    return f"{-rank}k" if rank < 0 else f"{rank + 1}d"


def ascii_name(text: str) -> str:
    """File names stay ASCII: accents dropped (Müller → Muller)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def full_name(player: tuple[str, str, int]) -> str:
    return f"{player[0]} {player[1]}"


def play_moves(rng: random.Random, stones: list[tuple[int, int]], count: int) -> list:
    """Legal random moves (no suicide, no filling one's own eye), Black first unless handicap."""
    board = boards.Board(19)
    for point in stones:
        board.play(point[0], point[1], "b")
    colour = "w" if stones else "b"
    moves = []
    for _ in range(count):
        empty = [(r, c) for r in range(19) for c in range(19) if board.get(r, c) is None]
        rng.shuffle(empty)
        for r, c in empty:
            neighbours = [
                board.get(nr, nc)
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= nr < 19 and 0 <= nc < 19
            ]
            if all(n == colour for n in neighbours):
                continue  # own eye
            trial = board.copy()
            trial.play(r, c, colour)
            if trial.get(r, c) is None:
                continue  # suicide
            board = trial
            moves.append((colour, (r, c)))
            break
        else:
            moves.append((colour, None))  # pass
        colour = "b" if colour == "w" else "w"
    return moves


def pair_round(rng, r, players, mms, met, byes):
    present = [i for i in range(len(players)) if full_name(players[i]) != ABSENT.get(r)]
    present.sort(key=lambda i: (-mms[i], -players[i][2], i))
    bye = None
    if len(present) % 2:
        bye = next(i for i in reversed(present) if i not in byes)
        present.remove(bye)
        byes.add(bye)
    pairs = []
    todo = list(present)
    while todo:
        a = todo.pop(0)
        b = next((j for j in todo if j not in met[a]), todo[0])
        todo.remove(b)
        met[a].add(b)
        met[b].add(a)
        pairs.append((a, b))
    return pairs, bye


def main(out: Path, xml: Path) -> None:
    rng = random.Random(SEED)
    n = len(PLAYERS)
    mms = [Fraction(min(p[2], BAR) + 30) for p in PLAYERS]
    met = [set() for _ in range(n)]
    byes: set[int] = set()
    games = []  # (round, black, white, handicap, result, by_default)
    bye_rounds = {}
    for r in range(1, ROUNDS + 1):
        pairs, bye = pair_round(rng, r, PLAYERS, mms, met, byes)
        if bye is not None:
            bye_rounds[r] = bye
            mms[bye] += 1
        for i in range(n):
            if full_name(PLAYERS[i]) == ABSENT.get(r):
                mms[i] += Fraction(1, 2)
        for board_no, (a, b) in enumerate(pairs, 1):
            white, black = (a, b) if PLAYERS[a][2] >= PLAYERS[b][2] else (b, a)
            gap = PLAYERS[white][2] - PLAYERS[black][2]
            handicap = min(9, gap - 1) if gap >= 3 else 0
            edge = (gap - handicap) * 0.07 if gap else 0.0
            white_wins = rng.random() < 0.5 + edge
            kind = rng.choice(["R", "R", "R", "score"])
            result, by_default = ("W+" if white_wins else "B+"), False
            if r == JIGO_ROUND and board_no == 4:
                result = "0"
            elif r == FORFEIT_ROUND and board_no == 6:
                result, by_default = "W+F", True
                white_wins = True
            elif r == TIME_ROUND and board_no == 2:
                result += "T"
            elif kind == "R":
                result += "R"
            else:
                result += f"{rng.randrange(1, 30)}.5"
            games.append((r, board_no, black, white, handicap, result, by_default))
            if result == "0":
                mms[black] += Fraction(1, 2)
                mms[white] += Fraction(1, 2)
            else:
                mms[white if white_wins else black] += 1
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for r, board_no, black, white, handicap, result, by_default in games:
        game = sgf.Sgf_game(19)
        root = game.get_root()
        komi = 0.5 if handicap else (6 if result == "0" else 6.5)
        for key, value in (
            ("GM", 1),
            ("AP", ("sodos-sample", "1")),
            ("EV", EVENT),
            ("RO", str(r)),
            ("DT", DATE),
            ("PC", "Sodos Go Club"),
            ("PB", full_name(PLAYERS[black])),
            ("PW", full_name(PLAYERS[white])),
            ("BR", rank_text(PLAYERS[black][2])),
            ("WR", rank_text(PLAYERS[white][2])),
            ("KM", komi),
            ("RU", "Japanese"),
            ("RE", result),
        ):
            root.set(key, value)
        stones = HANDICAP_POINTS.get(handicap, [])
        if handicap:
            root.set("HA", handicap)
            root.set_setup_stones(stones, [])
        if not by_default:
            node = root
            for colour, move in play_moves(rng, stones, rng.randrange(150, 281)):
                node = node.new_child()
                node.set_move(colour, move)
        names = [ascii_name(PLAYERS[i][0]) for i in (black, white)]
        folder = out / f"round-{r}"
        folder.mkdir(exist_ok=True)
        path = folder / f"{board_no:02d}-{names[0]}-{names[1]}.sgf"
        path.write_bytes(game.serialise())
    byes_toml = ", ".join(f'"{r}" = ["{full_name(PLAYERS[i])}"]' for r, i in bye_rounds.items())
    (out / "sodos.toml").write_text(
        "# The tournament's own settings (read by the SGF reader, below your config).\n"
        'system = "mcmahon"\n'
        'criteria = ["MMS", "SOSM", "SOSOSM"]\n\n'
        "[mcmahon]\n"
        f'bar = "{rank_text(BAR)}"\n\n'
        '[plugin."builtin.sgf"]\n'
        "# The bye is not a game, so no record shows it: it is listed here.\n"
        f"byes = {{ {byes_toml} }}\n",
        encoding="utf-8",
    )
    write_xml(xml, games, bye_rounds)


def write_xml(path: Path, games, bye_rounds) -> None:
    """The same tournament as an OpenGotha 3.x file (the subset its reader uses)."""
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>']
    lines.append('<Tournament dataVersion="201" fullVersionNumber="3.51" runningMode="SAL">')
    lines.append("<Players>")
    for surname, given, rank in PLAYERS:
        flags = "".join(
            "0" if ABSENT.get(r) == f"{surname} {given}" else "1" for r in range(1, ROUNDS + 1)
        )
        attrs = {
            "name": surname,
            "firstName": given,
            "rank": rank_text(rank).upper(),
            "club": "",
            "country": "",
            "participating": flags,
            "smmsCorrection": "0",
            "registeringStatus": "FIN",
        }
        lines.append("<Player " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items()) + "/>")
    lines.append("</Players>")
    lines.append("<Games>")

    def key(i: int) -> str:
        return (PLAYERS[i][0] + PLAYERS[i][1]).replace(" ", "").upper()

    for r, board_no, black, white, handicap, result, by_default in games:
        if result == "0":
            code = "RESULT_EQUAL"
        else:
            code = "RESULT_WHITEWINS" if result.startswith("W") else "RESULT_BLACKWINS"
        if by_default:
            code += "_BYDEF"
        lines.append(
            f'<Game blackPlayer={quoteattr(key(black))} handicap="{handicap}" knownColor="true" '
            f'result="{code}" roundNumber="{r}" tableNumber="{board_no}" '
            f"whitePlayer={quoteattr(key(white))}/>"
        )
    lines.append("</Games>")
    for r, i in bye_rounds.items():
        lines.append(f'<ByePlayer player={quoteattr(key(i))} roundNumber="{r}"/>')
    lines.append("<TournamentParameterSet>")
    lines.append(
        f'<GeneralParameterSet name={quoteattr(EVENT)} shortName="SodosSpring2026" '
        f'numberOfRounds="{ROUNDS}" genMMBar="{rank_text(BAR).upper()}" genMMFloor="30K" '
        'genMMZero="30K" genMMS2ValueAbsent="1" genMMS2ValueBye="2" genNBW2ValueAbsent="0" '
        'genNBW2ValueBye="2" genRoundDownNBWMMS="true" '
        'genCountNotPlayedGamesAsHalfPoint="false" komi="6.5" size="19"/>'
    )
    lines.append('<HandicapParameterSet hdBasedOnMMS="false" hdCeiling="9" hdCorrection="1"/>')
    lines.append("<PlacementParameterSet><PlacementCriteria>")
    for number, name in enumerate(["MMS", "SOSM", "SOSOSM", "NULL", "NULL", "NULL"], 1):
        lines.append(f'<PlacementCriterion name="{name}" number="{number}"/>')
    lines.append("</PlacementCriteria></PlacementParameterSet>")
    lines.append("</TournamentParameterSet>")
    lines.append("</Tournament>")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(
        Path(sys.argv[1] if len(sys.argv) > 1 else "sample_sgf"),
        Path(sys.argv[2] if len(sys.argv) > 2 else "tests/data/sample_tournament.xml"),
    )
