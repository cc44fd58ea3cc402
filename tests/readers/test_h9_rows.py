"""The h9 reader's one row and round-token reading on real, altered and generated files.

Each case's outcome (the scanned rows, the Tournament with games in order, byes and
absences in iteration order, start scores with their type, the notes — or, for a broken
file, the error message) is compared with its digest in ``tests/golden/h9_rows.json``,
made by the reader's line-by-line reference path before its fast and reference paths
were folded into one (commit 359eb67). A deliberate change of what the reader reads
updates them: ``SODOS_UPDATE_GOLDEN=1 python -m pytest -q tests/readers/test_h9_rows.py``
(then say in the commit what changed and why). Hypothesis then checks that altered
files are read or refused with an InputError, and that generated files read.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from fractions import Fraction

from conftest import SHARED_DATA, TESTS
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sodos_plugin.errors import InputError
from sodos_plugin.readers import h9

EGD = TESTS / "data" / "egd"
SHARED_H9 = [
    ("conformance", "go", "opengotha_Tournoi_de_Juvisy.h9"),
    ("conformance", "go", "opengotha_TournoiChinois.h9"),
    ("conformance", "go", "h9_wagc2025_opengotha.txt"),
    ("conformance", "go", "h9_mpj2022_opengotha_sodos.txt"),
    ("conformance", "opengotha", "minimal", "h9names.h9"),
    ("conformance", "opengotha", "minimal", "izmny.h9"),
]


def _real_texts() -> dict[str, str]:
    """Name → text of the real files found (the EGD files of tests/data, then shared)."""
    paths = sorted(EGD.glob("*.txt")) + [SHARED_DATA.joinpath(*parts) for parts in SHARED_H9]
    return {p.name: h9.decode(p.read_bytes()) for p in paths if p.exists()}


REAL_TEXTS = _real_texts()


def outcome(text: str):
    """Everything the reader gives for ``text``, or the error it raises."""
    try:
        parsed = h9.scan(text, "f.h9")
        tournament, notes = h9.interpret(parsed)
    except InputError as error:
        return ("error", str(error))
    rows = [
        (r.line, r.place, r.name, r.rank, r.country, r.club, r.printed, r.rounds, r.pin)
        for r in parsed.rows
    ]
    starts = [(type(p.start_score), p.start_score) for p in tournament.players]
    return (
        (parsed.properties, parsed.columns, parsed.notes, rows),
        (tournament, list(tournament.byes), list(tournament.absences), starts, notes),
    )


def digest(text: str) -> str:
    return hashlib.sha256(repr(outcome(text)).encode("utf-8")).hexdigest()[:24]


#: Words an alteration puts in: values, round tokens (good and bad), ranks, PINs...
WORDS = [
    "0", "12", "2½", "2.5", "-1", ".5", "½", "5.", "0+", "0=", "0-", "0?", "3+", "3-/w",
    "2+/b1", "2-/w1", "4=/b0", "4?", "1+!b", "1-!w", "7+/w12", "12345678+", "9999999+",
    "1d", "3k", "30k", "9p", "93D", "FR", "xx", "Club_A", "|123", "|", "Kim", "+", "=",
    "2+/W", "2-/B", "5+/?", "٣", "5+/b0", "5-/w0",
]  # fmt: skip


def alter(text: str, rng: random.Random) -> str:
    """A few random changes of words and lines of a real file."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        words = lines[i].split()
        kind = rng.randrange(7)
        if kind == 0 and words:  # replace a word
            words[rng.randrange(len(words))] = rng.choice(WORDS)
        elif kind == 1:  # insert a word
            words.insert(rng.randint(0, len(words)), rng.choice(WORDS))
        elif kind == 2 and words:  # drop a word
            del words[rng.randrange(len(words))]
        elif kind == 3 and len(words) > 1:  # swap two words
            a, b = rng.randrange(len(words)), rng.randrange(len(words))
            words[a], words[b] = words[b], words[a]
        elif kind == 4:  # drop or repeat a line
            if rng.random() < 0.5:
                del lines[i]
            else:
                lines.insert(i, lines[i])
            continue
        elif kind == 5 and words:  # change one round token's opponent or result
            tokens = [k for k, w in enumerate(words) if h9.parse_round(w)]
            if tokens:
                k = rng.choice(tokens)
                token = h9.parse_round(words[k])
                assert token is not None
                words[k] = (
                    f"{rng.randint(0, 80)}{rng.choice('+-=?')}" + words[k].lstrip("0123456789")[1:]
                )
        elif kind == 6:  # a header line among the rows
            lines.insert(i, rng.choice(["; KM[6.5]", "; Pl Name Rk Co Club NBW", ";"]))
            continue
        lines[i] = ("   " if rng.random() < 0.3 else "") + " ".join(words)
    return "\n".join(lines) + "\n"


NAMES = ("Kim", "Lee 3d Park", "Ann", "Bo Li")


def generated(rng: random.Random, players: int, rounds: int, mcmahon: bool, names=NAMES) -> str:
    """A consistent h9 file: random pairings, results, colours, handicaps and free rounds."""
    tokens: list[list[str]] = [[] for _ in range(players)]
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        while len(order) > 1:
            a, b = order.pop(), order.pop()
            handicap = rng.choice([0, 0, 0, 1, 2, 9])
            mark = rng.choice("//////!")
            result = rng.choice(["+-", "-+", "==", "++", "--", "??"])
            colours = (
                rng.choice(["wb", "bw", "WB", "b?"])
                if handicap
                else rng.choice(["wb", "bw", "  ", "w ", " b"])
            )
            for p, res, colour in ((a, result[0], colours[0]), (b, result[1], colours[1])):
                other = b + 1 if p == a else a + 1
                tail = f"{mark}{colour.strip()}{handicap}" if colour.strip() or handicap else ""
                tokens[p].append(f"{other}{res}{tail}")
        for p in order:
            tokens[p].append(rng.choice(["0+", "0=", "0-"]))
    header = "; Pl Name Rk Co Club " + ("MMS SOS" if mcmahon else "NBW SOS SODOS")
    lines = ["; EV[Generated]", "; HA[h1]", header]
    values_first = rng.random() < 0.5
    for p in range(players):
        name = rng.choice(names) + f" P{p}"
        values = [str(rng.randint(0, 40)), rng.choice(["2½", "3.25", "17", "0"])]
        if not mcmahon:
            values.append(str(rng.randint(0, 99)))
        place = str(p + 1) if rng.random() < 0.9 else ""
        words = [place, name, rng.choice(["3d", "10k", "1D", "2p"]), "FR", "Par"]
        if values_first:
            words += values + tokens[p]
        else:
            words += tokens[p] + values
        pin = f"  |{rng.randint(10**7, 10**8)}" if rng.random() < 0.2 else ""
        lines.append(" ".join(words) + pin)
    return "\n".join(lines) + "\n"


ROW_TEMPLATE = """; Pl Name Rk Co Club NBW SOS
{row}
   2 Bob Smith        10k GB Lon   0  1   1-/b0
"""


ROWS = [
    "   1 Kim Lee 3d FR Par 1 0 2+/w0",  # the usual shape
    "   1 Kim 3d FR Par Extra 1 0 2+/w0",  # three words between rank and values
    "   1 Kim 3d FR 1 0 2+/w0",  # no club
    "   1 Kim 3d 1 0 2+/w0",  # neither country nor club
    "   1 Kim 3d 12 Par 1 0 2+/w0",  # a club that reads as a value
    "   1 Kim 3d FR 2+ 1 0 2+/w0",  # a club that reads as a round token
    "   1 Kim 5k 3d FR Par 1 0 2+/w0",  # a rank-like name word
    "   1 Kim 5k FR 3d Par 1 0 2+/w0",  # two rank-like words before the values
    "   1 3d Kim 2k FR Par 1 0 2+/w0",  # a rank-like first word
    "   1 Kim 93d FR Par 1 0 2+/w0",  # no such rank
    "   1 Kim 3d FR Par 1 2+/w0 0",  # values and rounds mixed
    "   1 Kim 3d FR Par 1 0 2+/w0  |123",  # a PIN
    "   1 Kim 3d FR Par 1 0 2+/w0 |1 x",  # a PIN and more
    "  01 Kim 3d Club_A Par 1 0 2+/w0",  # a place with a leading 0, "_" for spaces
    "1234567890 Kim 3d FR Par 1 0 2+/w0",  # a place of 10 digits
    "   1 Kim 3d FR Par 1 2+/w0",  # too few values
    "   1 Kim 3d FR Par 1 0 7 2+/w0",  # more values than columns
    "   1 Kim 3d FR Par 1 0 2+/w0 0=",  # one round more than the other row
    "   1 Kim 3d FR Par ½ -0.25 2+/w0",  # glyphs and decimals
    "   1 Kim 3d FR Par ٣ 0 2+/w0",  # a digit of another script
    "   1 Kim 3d FR Par 1 0 0002+/w0",  # an opponent with leading zeros
]

#: Other blanks a file may have, each applied to every real file.
BLANKS = {
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "tabs": lambda text: text.replace("  ", "\t"),
    "trailing-blanks": lambda text: text.replace("\n", "  \n"),
    "bom": lambda text: "\ufeff" + text,
    "no-break-spaces": lambda text: text.replace(" ", "\u00a0", 40),
    "blank-lines": lambda text: text.replace("\n", "\n\n"),
}


def cases() -> dict[str, str]:
    """Case name → text: every row shape, each real file with other blanks and altered
    (seeded), generated files as they are and altered."""
    found = {f"row {k}: {row.strip()}": ROW_TEMPLATE.format(row=row) for k, row in enumerate(ROWS)}
    for name, text in REAL_TEXTS.items():
        for blank, change in BLANKS.items():
            found[f"{name} {blank}"] = change(text)
        for seed in range(12):
            found[f"{name} altered {seed}"] = alter(text, random.Random(seed))
    for seed in range(30):
        rng = random.Random(seed)
        text = generated(rng, rng.randint(1, 30), rng.randint(0, 6), rng.random() < 0.5)
        found[f"generated {seed}"] = text
        found[f"generated {seed} altered"] = alter(text, rng)
    return found


CASES = cases()
GOLDEN = TESTS / "golden" / "h9_rows.json"
UPDATE = os.environ.get("SODOS_UPDATE_GOLDEN") == "1"


def test_every_case_reads_as_its_digest_says():
    found = {name: digest(text) for name, text in CASES.items()}
    if UPDATE:
        known = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        known.update(found)
        GOLDEN.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
    expected = json.loads(GOLDEN.read_text())
    changed = [name for name, value in found.items() if expected.get(name) != value]
    assert not changed, f"{len(changed)} case(s) read differently: {changed[:5]}"
    # the shared data may be absent here; the EGD files, rows and generated ones are not
    assert len(found) >= len(ROWS) + 3 * (len(BLANKS) + 12) + 60


def test_real_files_of_the_usual_shape_are_read_in_bulk():
    """Else the digests above would check only the row-by-row reading of them."""
    for name, text in REAL_TEXTS.items():
        bulk = h9._scan_columns(text, name)
        # OpenGotha 3.51 wrote ½ and ¼ as "?" ("33?"): a value or a round token, told
        # apart by where it stands, which only the row-by-row reading reads
        assert (bulk is None) == (name in ("izmny.h9", "h9names.h9")), name


def test_a_row_of_another_shape_sends_the_file_row_by_row():
    text = generated(random.Random(3), 40, 5, mcmahon=False, names=("Kim", "Bo Li"))
    assert h9._scan_columns(text, "f.h9") is not None
    # a name word that looks like a rank: that row and so the file go row by row
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if not line.startswith(";"))
    words = lines[row].split()
    lines[row] = " ".join(words[:2] + ["5k"] + words[2:])
    assert h9._scan_columns("\n".join(lines), "f.h9") is None
    first = h9.scan("\n".join(lines), "f.h9").rows[0]
    assert "5k" in first.name.split()  # a name word; the rank is the later one


def test_the_cases_take_every_kind_of_outcome():
    """Else the digests above would pin only errors, or only reads."""
    kinds = [outcome(text)[0] == "error" for text in CASES.values()]
    assert sum(kinds) >= 50 and len(kinds) - sum(kinds) >= 50


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=len(REAL_TEXTS) - 1), st.randoms(use_true_random=False))
def test_altered_real_files_are_read_or_refused_with_an_input_error(index, rng):
    text = alter(list(REAL_TEXTS.values())[index], rng)
    try:
        h9.interpret(h9.scan(text, "f.h9"))
    except InputError as error:
        assert str(error).startswith("f.h9")


@settings(max_examples=150, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.integers(min_value=1, max_value=30),
    st.integers(min_value=0, max_value=6),
    st.booleans(),
)
@example(random.Random(1), 2, 1, True)
def test_generated_files_read_every_round(rng, players, rounds, mcmahon):
    """A generated file's rows are well formed and its pairings consistent: it reads,
    each player with one game, the bye, an absence or a free round in each round; or a
    game's two tokens disagree (a handicap without colours, a by-default mark on one
    side), refused at that round."""
    text = generated(rng, players, rounds, mcmahon)
    try:
        tournament, _ = h9.interpret(h9.scan(text, "f.h9"))
    except InputError as error:
        assert error.where is not None and ", round " in error.where
        return
    assert len(tournament.players) == players and tournament.rounds == rounds
    for r in range(1, rounds + 1):
        busy = [p for g in tournament.games if g.round == r for p in (g.black, g.white)]
        assert len(busy) == len(set(busy)) and len(busy) >= players - 1


def test_start_scores_are_fractions():
    text = generated(random.Random(5), 12, 4, mcmahon=True)
    tournament, _ = h9.interpret(h9.scan(text, "f.h9"))
    assert all(type(p.start_score) is Fraction for p in tournament.players)
