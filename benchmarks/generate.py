"""Input files as users bring them, generated (seeded) for the whole-process benchmarks.

Nothing here imports the project: the files are written from the formats' own
descriptions, so a benchmark never measures a file that only our writers produce.

* :func:`write_h9`: an EGD h9 results file of a fully played Swiss (even player count,
  no byes, no jigo) with the ``NBW SOS SODOS`` columns printed as OpenGotha prints
  them and rows in placement order, opponents as row numbers (5-digit from 10 000
  players on). In such an event Buchholz = SOSW and Sonneborn-Berger = SODOSW.
* :func:`write_opengotha_xml`: an OpenGotha 3.x tournament file (McMahon, real-looking
  players, every attribute OpenGotha writes, one bye per round when the count is odd).
* :func:`write_server_records`: a folder of SGF records as Go servers write them
  (KGS/CGoban, OGS, Fox, IGS styles: ``BL``/``WL`` time left and ``OB``/``OW`` on moves,
  chat comments with escaped brackets, handicap ``AB`` setup, passes, 9×9 and 19×19,
  about 250 moves on 19×19), a tournament's worth (``RO``/``EV``) so the reader
  assembles real standings.

    python benchmarks/generate.py h9 5000 9 out.h9
    python benchmarks/generate.py xml 5000 9 out.xml
    python benchmarks/generate.py sgf 6000 out-folder
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

# fmt: off
SURNAMES = (
    "Kovacs", "Novak", "Schmidt", "Rossi", "Moreau", "Lindqvist", "Dubois", "Horvat", "Fischer",
    "Silva", "Jansen", "Berg", "Popescu", "Muller", "Costa", "Garcia", "Ivanov", "Virtanen",
    "OBrien", "Hansen", "Petrov", "Weber", "Kowalski", "Tanaka", "Kim", "Lee", "Chen", "Wang",
    "Suzuki", "Sato", "Nowak", "Meyer", "Bauer", "Wagner", "Nagy", "Toth", "Szabo", "Papp",
    "Varga", "Molnar",
)
GIVEN = (
    "Anna", "Jonas", "Lukas", "Marie", "Pierre", "Paolo", "Eva", "Jan", "Ivan", "Olga", "Mei",
    "Jun", "Hiro", "Sara", "Tomas", "Lena", "Marek", "Petra", "Oskar", "Ida", "Emil", "Nora",
    "Karl", "Rita",
)
COUNTRIES = (
    "FR", "DE", "NL", "CZ", "PL", "HU", "RO", "IT", "ES", "GB", "SE", "FI", "AT", "CH", "BE",
    "UA", "RS", "HR", "SK", "SI",
)
CLUBS = (
    "Pari", "Berl", "Amst", "Prag", "Wars", "Buda", "Bucu", "Mila", "Madr", "Lond", "Stoc",
    "Hels", "Wien", "Zuri", "Brux",
)
# fmt: on


def player_names(n: int, rng: random.Random) -> list[str]:
    """``n`` distinct "Surname Given" names (a number joins the surname past the pool)."""
    names = []
    pool = len(SURNAMES) * len(GIVEN)
    for i in range(n):
        surname = SURNAMES[i % len(SURNAMES)]
        given = GIVEN[(i // len(SURNAMES)) % len(GIVEN)]
        if i >= pool:
            surname = f"{surname}{i // pool}"
        names.append(f"{surname} {given}")
    rng.shuffle(names)
    return names


def rank_text(rank: int) -> str:
    """-30..-1 → 30k..1k, 0..8 → 1d..9d."""
    return f"{-rank}k" if rank < 0 else f"{rank + 1}d"


def swiss_games(players: int, rounds: int, seed: int) -> list[list[tuple[int, int, bool]]]:
    """Per round, ``(black, white, black_wins)``: a fully played Swiss, neighbours by
    score, rematches avoided (linear time), results by strength."""
    if players % 2:
        raise ValueError("an even number of players, so nobody gets a bye")
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    score = [0] * players
    met: list[set[int]] = [set() for _ in range(players)]
    schedule = []
    for _ in range(rounds):
        order = sorted(range(players), key=lambda p: (-score[p], rng.random()))
        games = []
        for i in range(0, players, 2):
            a = order[i]
            for j in range(i + 1, min(i + 20, players)):
                if order[j] not in met[a]:
                    order[i + 1], order[j] = order[j], order[i + 1]
                    break
            b = order[i + 1]
            met[a].add(b)
            met[b].add(a)
            black, white = (a, b) if rng.random() < 0.5 else (b, a)
            p_black = 1 / (1 + 10 ** ((strength[white] - strength[black]) / 1.5))
            black_wins = rng.random() < p_black
            score[black if black_wins else white] += 1
            games.append((black, white, black_wins))
        schedule.append(games)
    return schedule


def write_h9(path: Path, players: int, rounds: int, seed: int = 1) -> Path:
    """An EGD h9 file of a fully played Swiss (see the module docstring)."""
    rng = random.Random(seed)
    schedule = swiss_games(players, rounds, seed)
    names = player_names(players, rng)
    ranks = [rng.randrange(-25, 7) for _ in range(players)]
    country = [rng.choice(COUNTRIES) for _ in range(players)]
    club = [rng.choice(CLUBS) for _ in range(players)]
    wins = [0] * players
    tokens: list[list[tuple[int, str, str]]] = [[] for _ in range(players)]
    for games in schedule:
        for black, white, black_wins in games:
            wins[black if black_wins else white] += 1
    for games in schedule:
        for black, white, black_wins in games:
            tokens[black].append((white, "+" if black_wins else "-", "b"))
            tokens[white].append((black, "-" if black_wins else "+", "w"))
    sos = [sum(wins[o] for o, _, _ in tokens[p]) for p in range(players)]
    sodos = [sum(wins[o] for o, r, _ in tokens[p] if r == "+") for p in range(players)]
    order = sorted(range(players), key=lambda p: (-wins[p], -sos[p], -sodos[p], names[p]))
    row_of = {p: i + 1 for i, p in enumerate(order)}
    width = max(len(n) for n in names) + 1
    lines = [
        f"; EV[Benchmark Swiss {players} x {rounds}]",
        "; DT[2026-01-10,2026-01-12]",
        "; PC[FR, Paris]",
        "; KM[7.5]",
        "; Generated by benchmarks/generate.py",
        ";",
        f"; {'Pl':>5} {'Name':<{width}} Rk  Co Club  NBW SOS SODOS",
    ]
    for i, p in enumerate(order, 1):
        rounds_text = " ".join(
            f"{row_of[o]}{res}/{colour}".ljust(8) for o, res, colour in tokens[p]
        )  # fmt: skip
        lines.append(
            f"{i:>7} {names[p]:<{width}} {rank_text(ranks[p]):<3} {country[p]} {club[p]:<5} "
            f"{wins[p]:>3} {sos[p]:>3} {sodos[p]:>5}  {rounds_text}"
        )
    path.write_text("\n".join(line.rstrip() for line in lines) + "\n", encoding="utf-8")
    return path


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def write_opengotha_xml(path: Path, players: int, rounds: int, seed: int = 2) -> Path:
    """An OpenGotha 3.x McMahon tournament file (random pairings, all result kinds)."""
    rng = random.Random(seed)
    names = player_names(players, rng)
    ranks = [rng.randrange(-25, 7) for _ in range(players)]
    keys = []
    out = [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        '<Tournament dataVersion="201" externalIPAddress="127.0.0.1" fullVersionNumber="3.52.03"'
        ' runningMode="SAL" saveDT="20260112180000">',
        "<Players>",
    ]
    for i, name in enumerate(names):
        surname, given = name.split(" ", 1)
        keys.append((surname + given).upper())
        rating = 2100 + 100 * ranks[i] + rng.randrange(-50, 50)
        out.append(
            f'<Player agaExpirationDate="" agaId="" club="{rng.choice(CLUBS)}" '
            f'country="{rng.choice(COUNTRIES)}" egfPin="{10000000 + i}" ffgLicence="" '
            f'ffgLicenceStatus="" firstName="{_xml_escape(given)}" grade="{rank_text(ranks[i])}" '
            f'name="{_xml_escape(surname)}" participating="{"1" * 20}" '
            f'rank="{rank_text(ranks[i])}" rating="{rating}" ratingOrigin="EGF : {rating}" '
            f'registeringStatus="FIN" smmsCorrection="0"/>'
        )
    out.append("</Players>")
    out.append("<Games>")
    byes = []
    results = ["RESULT_WHITEWINS"] * 9 + ["RESULT_BLACKWINS"] * 9
    results += ["RESULT_EQUAL", "RESULT_WHITEWINS_BYDEF"]
    for r in range(1, rounds + 1):
        order = list(range(players))
        rng.shuffle(order)
        if len(order) % 2:
            byes.append((r, order.pop()))
        for table, i in enumerate(range(0, len(order), 2), 1):
            black, white = order[i], order[i + 1]
            handicap = max(0, min(9, abs(ranks[black] - ranks[white]) - 1))
            out.append(
                f'<Game blackPlayer="{keys[black]}" handicap="{handicap}" knownColor="true" '
                f'result="{rng.choice(results)}" roundNumber="{r}" tableNumber="{table}" '
                f'whitePlayer="{keys[white]}"/>'
            )
    out.append("</Games>")
    out.append("<ByePlayers>")
    out.extend(f'<ByePlayer player="{keys[p]}" roundNumber="{r}"/>' for r, p in byes)
    out.append("</ByePlayers>")
    out += [
        "<TournamentParameterSet>",
        '<GeneralParameterSet bInternet="false" basicTime="60" beginDate="2026-01-10" '
        'canByoYomiTime="300" complementaryTimeSystem="STDBYOYOMI" director="" '
        'endDate="2026-01-12" fischerTime="10" genCountNotPlayedGamesAsHalfPoint="false" '
        'genMMBar="4D" genMMFloor="20K" genMMS2ValueAbsent="1" genMMS2ValueBye="2" '
        'genMMZero="30K" genNBW2ValueAbsent="0" genNBW2ValueBye="2" genRoundDownNBWMMS="true" '
        f'komi="6.5" location="Paris" name="Benchmark Open {players}" nbMovesCanTime="15" '
        f'numberOfCategories="1" numberOfRounds="{rounds}" shortName="bench{players}" '
        'size="19" stdByoYomiTime="30"/>',
        '<HandicapParameterSet hdBasedOnMMS="true" hdCeiling="9" hdCorrection="1" '
        'hdNoHdRankThreshold="1D"/>',
        "<PlacementParameterSet>",
        "<PlacementCriteria>",
        '<PlacementCriterion name="MMS" number="1"/>',
        '<PlacementCriterion name="SOSM" number="2"/>',
        '<PlacementCriterion name="SOSOSM" number="3"/>',
        '<PlacementCriterion name="NULL" number="4"/>',
        '<PlacementCriterion name="NULL" number="5"/>',
        '<PlacementCriterion name="NULL" number="6"/>',
        "</PlacementCriteria>",
        "</PlacementParameterSet>",
        '<PairingParameterSet paiBaAvoidDuplGame="500000000000000" paiBaBalanceWB="1000000" '
        'paiBaDeterministic="true" paiBaRandom="0" paiMaAdditionalPlacementCritSystem1="Rating" '
        'paiMaAdditionalPlacementCritSystem2="NULL" paiMaAvoidMixingCategories="0" '
        'paiMaCompensateDUDD="true" paiMaDUDDLowerMode="MID" paiMaDUDDUpperMode="MID" '
        'paiMaDUDDWeight="100000000" paiMaLastRoundForSeedSystem1="2" '
        'paiMaMaximizeSeeding="5000000" paiMaMinimizeScoreDifference="100000000000" '
        'paiMaSeedSystem1="SPLITANDRANDOM" paiMaSeedSystem2="SPLITANDSLIP" '
        'paiSeAvoidSameGeo="100000000000" paiSeBarThresholdActive="true" '
        'paiSeDefSecCrit="100000000000" paiSeMinimizeHandicap="0" '
        'paiSeNbWinsThresholdActive="false" paiSePreferMMSDiffRatherThanSameClub="3" '
        'paiSePreferMMSDiffRatherThanSameCountry="1" paiSeRankThreshold="1D" '
        'paiStandardNX1Factor="0.5"/>',
        '<DPParameterSet displayClCol="true" displayCoCol="true" displayIndGamesInMatches="true" '
        'displayNPPlayers="false" displayNumCol="true" displayPlCol="true" gameFormat="full" '
        'playerSortType="name" showByePlayer="true" showNotFinallyRegisteredPlayers="true" '
        'showNotPairedPlayers="true" showNotParticipatingPlayers="false" '
        'showPlayerClub="true" showPlayerCountry="false" showPlayerGrade="true"/>',
        '<PublishParameterSet exportToLocalFile="true" htmlAutoScroll="false" print="false"/>',
        "</TournamentParameterSet>",
        "</Tournament>",
    ]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


# -- SGF server records ---------------------------------------------------------------

CHAT = (
    "hi", "have a nice game", "gg", "thx", "oops", "sorry, misclick", "nice move",
    "is this a ladder?", "thanks for the game :)", "(;_;)", "B+R? ok", "ko threat!",
)  # fmt: skip


def _points(size: int) -> list[str]:
    letters = "abcdefghijklmnopqrs"[:size]
    return [a + b for a in letters for b in letters]


def _kgs(rng, size, info, moves, handicap) -> str:
    """CGoban 3: one property per line in the root, BL/WL (and OB/OW) on moves, chat."""
    root = ["GM[1]", "FF[4]", "CA[UTF-8]", "AP[CGoban:3]", "ST[2]", "RU[Japanese]",
            f"SZ[{size}]", f"HA[{handicap}]" if handicap else "", "KM[0.50]" if handicap
            else "KM[6.50]", "TM[1800]", "OT[5x30 byo-yomi]",
            f"PW[{info['pw']}]", f"PB[{info['pb']}]", f"WR[{info['wr']}]", f"BR[{info['br']}]",
            f"DT[{info['dt']}]", f"EV[{info['ev']}]", f"RO[{info['ro']}]",
            "PC[The KGS Go Server at http://www.gokgs.com/]", f"RE[{info['re']}]"]  # fmt: skip
    text = "(;" + "\n".join(p for p in root if p)
    if handicap >= 2:
        stones = ["dd", "pp", "dp", "pd", "jj", "dj", "pj", "jd", "jp"][:handicap]
        text += "\nAB" + "".join(f"[{s}]" for s in stones)
    text += "\n"
    left = {"B": 1800.0, "W": 1800.0}
    for i, (colour, point) in enumerate(moves):
        left[colour] = max(0.0, left[colour] - rng.uniform(0.5, 12))
        props = f"{colour}L[{left[colour]:.3f}]"
        if left[colour] < 60:
            props += f"O{colour}[{rng.randrange(1, 6)}]"
        node = f";{colour}[{point}]{props}"
        if rng.random() < 0.03:
            who, rank = (info["pb"], info["br"]) if rng.random() < 0.5 else (info["pw"], info["wr"])
            node += f"C[{who} [{rank}\\]: {rng.choice(CHAT)}\n]"
        text += node
        if i % 8 == 7:
            text += "\n"
    return text + ")\n"


def _ogs(rng, size, info, moves, handicap) -> str:
    """OGS: game info then a comment in the root, BL/WL on moves, passes as B[]."""
    text = (
        f"(;FF[4]\nCA[UTF-8]\nGM[1]\nDT[{info['dt']}]\nPC[OGS: https://online-go.com/game/"
        f"{rng.randrange(10**7, 10**8)}]\nGN[{info['ev']} R:{info['ro']}]\nPB[{info['pb']}]\n"
        f"PW[{info['pw']}]\nBR[{info['br']}]\nWR[{info['wr']}]\nTM[600]OT[5x30 byo-yomi]\n"
        f"RE[{info['re']}]\nSZ[{size}]\nKM[{0.5 if handicap else 6.5}]\nRU[Japanese]\n"
        f"EV[{info['ev']}]\nRO[{info['ro']}]\n"
    )
    if handicap >= 2:
        stones = ["pd", "dp", "pp", "dd", "jj", "dj", "pj", "jd", "jp"][:handicap]
        text += f"HA[{handicap}]\nAB" + "".join(f"[{s}]" for s in stones) + "\n"
    text += "C[Game chats will be available in SGF downloads once the game has finished.\n]\n"
    left = {"B": 600.0, "W": 600.0}
    for colour, point in moves:
        left[colour] = max(0.0, left[colour] - rng.uniform(0.5, 6))
        text += f";{colour}[{point}]{colour}L[{left[colour]:.1f}]\n"
    return text + ")\n"


def _fox(rng, size, info, moves, handicap) -> str:
    """Fox: root on one line with double spaces, plain moves, no time left."""
    text = (
        f"(;GM[1]FF[4]  SZ[{size}]  GN[]  DT[{info['dt']}]  PB[{info['pb']}]  "
        f"PW[{info['pw']}]  BR[{info['br']}]  WR[{info['wr']}]  KM[{0 if handicap else 7.5}]"
        f"HA[{handicap}]RU[Chinese]AP[GNU Go:3.8]RE[{info['re']}]EV[{info['ev']}]"
        f"RO[{info['ro']}]TM[1200]TC[3]TT[30]AP[foxwq]RL[0]  "
    )
    if handicap >= 2:
        stones = ["pd", "dp", "pp", "dd", "jj", "dj", "pj", "jd", "jp"][:handicap]
        text += "AB" + "".join(f"[{s}]" for s in stones)
    return text + "".join(f";{c}[{p}]" for c, p in moves) + ")"


def _igs(rng, size, info, moves, handicap) -> str:
    """IGS: lower-case idents in the root, a multi-line copyright value, no CA."""
    text = (
        "(;\nGM[1]EV[" + info["ev"] + "]\nUS[Brought to you by IGS PANDANET]\n"
        "CoPyright[\n  Copyright (c) PANDANET Inc. 2026\n  Permission to reproduce this "
        "game is given, provided proper credit is given.\n]\n"
        f"GN[{info['pb']}-{info['pw']}(B) IGS]RE[{info['re']}]\n"
        f"PW[{info['pw']}]WR[{info['wr']}]NW[18]\nPB[{info['pb']}]BR[{info['br']}]NB[17]\n"
        f"PC[IGS:  igs.joyjoy.net 6969]DT[{info['dt']}]\nSZ[{size}]TM[60]KM[6.500000]LT[]\n"
        f"RO[{info['ro']}]\n"
    )
    if handicap >= 2:
        text += f"HA[{handicap}]AB" + "".join(f"[{s}]" for s in ["pd", "dp", "pp"][:handicap])
        text += "\n"
    for i, (colour, point) in enumerate(moves):
        text += f";{colour}[{point}]{colour}L[{rng.randrange(1, 600)}]"
        if i % 6 == 5:
            text += "\n"
    return text + ")\n"


STYLES = ((_kgs, 40), (_ogs, 30), (_fox, 20), (_igs, 10))


def write_server_records(
    folder: Path, records: int, *, moves: int = 250, rounds: int = 9, seed: int = 5
) -> list[Path]:
    """``records`` server-style SGF files in ``folder/round-NN/`` (module docstring)."""
    rng = random.Random(seed)
    per_round = max(1, -(-records // rounds))
    names = [n.replace(" ", "") for n in player_names(2 * per_round, rng)]
    rank = {n: rng.randrange(-25, 7) for n in names}
    styles = [s for s, weight in STYLES for _ in range(weight)]
    paths = []
    for r in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        directory = folder / f"round-{r:02d}"
        directory.mkdir(parents=True, exist_ok=True)
        for board in range(per_round):
            if len(paths) == records:
                return paths
            black, white = order[2 * board], order[2 * board + 1]
            if rank[black] > rank[white]:
                black, white = white, black
            # about a quarter handicap games (servers' even and handicap games mixed)
            handicap = min(9, max(2, rank[white] - rank[black])) if rng.random() < 0.25 else 0
            size = 9 if rng.random() < 0.15 else 19
            n = rng.randrange(40, 90) if size == 9 else rng.randrange(moves - 60, moves + 60)
            points = _points(size)
            colours = "WB" if handicap else "BW"
            played = [(colours[i % 2], rng.choice(points)) for i in range(n)]
            if rng.random() < 0.3:  # the game ends with two passes
                played += [(colours[n % 2], ""), (colours[(n + 1) % 2], "")]
            result = rng.choice(["B+R", "W+R", "B+3.5", "W+12.5", "W+T", "B+Resign", "W+F"])
            info = {
                "pb": black,
                "pw": white,
                "br": rank_text(rank[black]),
                "wr": rank_text(rank[white]),
                "dt": f"2026-01-{r:02d}",
                "ev": "Server Cup 2026",
                "ro": r,
                "re": result,
            }
            style = rng.choice(styles)
            path = directory / f"{board:05d}-{black}-{white}.sgf"
            path.write_bytes(style(rng, size, info, played, handicap).encode("utf-8"))
            paths.append(path)
    return paths


def main(argv: list[str]) -> int:
    kind, *rest = argv
    if kind == "h9":
        write_h9(Path(rest[2]), int(rest[0]), int(rest[1]))
    elif kind == "xml":
        write_opengotha_xml(Path(rest[2]), int(rest[0]), int(rest[1]))
    elif kind == "sgf":
        write_server_records(Path(rest[1]), int(rest[0]))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
