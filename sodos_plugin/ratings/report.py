"""Ratings as text: the table, CSV and HTML of a :class:`~.rating_run.RatingRun`, and the
step-by-step explanation of one player (``sodos explain --ratings``).

Numbers are shown with the decimals the system's source prints (GoR 3, the others 2;
volatility 6). In an explanation the printed parts of a change add up exactly to the
printed change: what the rounding of the shown parts leaves is its own line
("rounding of the shown parts"), never hidden.
"""

from __future__ import annotations

import csv
import html
from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any, TextIO

from sodos_plugin.ratings.run import RatingRun, change
from sodos_plugin.schemas import codec
from sodos_plugin.schemas import ratings as schema
from sodos_plugin.util.textsafe import display_width, fit, printable

FORMATS = ("table", "csv", "json", "html")
#: decimals a system's source prints (the EGD prints GoR to 3 decimals)
DECIMALS = {"egf": 3}


def decimals(run: RatingRun) -> int:
    return DECIMALS.get(run.system.name.lower(), 2)


def _num(value: float | None, places: int) -> str:
    return "" if value is None else f"{value:.{places}f}"


def _shown_state(state, places: int) -> str:
    text = _num(state.rating, places)
    if state.deviation is not None:
        text += f" ±{state.deviation:.{places}f}"
    return text


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def write(run: RatingRun, fmt: str, stream: TextIO) -> None:
    fmt = fmt.lower()
    if fmt == "json":
        stream.write(codec.encode_text(run.document()))
        stream.write("\n")
    elif fmt == "csv":
        write_csv(run, stream)
    elif fmt == "html":
        write_html(run, stream)
    else:
        write_table(run, stream)


def _table_rows(run: RatingRun) -> list[list[str]]:
    places = decimals(run)
    shown = _Memo(printable)  # an archive repeats its periods and players
    rows = []
    for step in run.result.steps:
        change = step.after.rating - step.before.rating
        rows.append(
            [
                step.date,
                shown(step.period),
                shown(step.player),
                str(step.games),
                _shown_state(step.before, places),
                _shown_state(step.after, places),
                f"{change:+.{places}f}",
            ]
        )
    return rows


class _Memo(dict):
    """``function`` of each distinct value, computed once."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def __missing__(self, value):
        out = self[value] = self.function(value)
        return out

    __call__ = dict.__getitem__


def write_table(run: RatingRun, stream: TextIO) -> None:
    history = run.history
    players = len(run.result.final)
    stream.write(
        f"{run.system.name}: {run.system.description}\n"
        f"{len(history.games)} games, {run.events()} events, "
        f"{players} players\n\n"
    )
    header = ["Date", "Period", "Player", "Games", "Before", "After", "Change"]
    rows = _table_rows(run)
    right = {3, 4, 5, 6}  # numbers (digits, signs, ±): one column a character
    width = _Memo(display_width)
    widths = [
        max([width(h), *(map(len, column) if i in right else map(width, set(column)))])
        for i, (h, column) in enumerate(zip(header, zip(*rows) if rows else [()] * 7))
    ]
    widths[1] = min(widths[1], 48)
    stream.write(
        "  ".join(_pad(h, w, i in right) for i, (h, w) in enumerate(zip(header, widths))).rstrip()
        + "\n"
    )

    def padder(i: int, room: int) -> Callable[[str], str]:
        if i in right:
            return lambda cell: cell.rjust(room)

        def padded(cell: str) -> str:
            if i == 1 and width(cell) > room:
                cell = fit(cell, room)
            return _pad(cell, room)

        return _Memo(padded)  # names, periods and dates repeat

    pads = [padder(i, w) for i, w in enumerate(widths)]
    for row in rows:
        stream.write("  ".join([pad(cell) for pad, cell in zip(pads, row)]).rstrip() + "\n")
    stream.write("\nFinal ratings\n")
    places = decimals(run)
    final = sorted(run.result.final.items(), key=lambda kv: -kv[1].rating)
    name_width = max([display_width(printable(n)) for n, _ in final] + [6])
    for place, (name, state) in enumerate(final, 1):
        label = run.label(state)
        extra = f"  {label}" if label else ""
        origin = run.result.initial.get(name, "")
        stream.write(
            f"{place:>4}  {_pad(printable(name), name_width)}  {_shown_state(state, places)}"
            f"{extra}  (start: {printable(origin)})\n"
        )
    for warning in run.warnings:
        stream.write(f"warning: {printable(warning)}\n")


def write_csv(run: RatingRun, stream: TextIO) -> None:
    safe = _Memo(_safe)  # an archive repeats its periods and players
    out = csv.writer(stream, lineterminator="\n")
    out.writerow(
        [
            "date", "period", "player", "games", "before", "after", "change",
            "before_deviation", "after_deviation", "after_volatility",
        ]
    )  # fmt: skip
    for s in run.result.steps:
        out.writerow(
            [
                s.date, safe(s.period), safe(s.player), s.games,
                repr(s.before.rating), repr(s.after.rating),
                repr(change(s.before.rating, s.after.rating)),
                "" if s.before.deviation is None else repr(s.before.deviation),
                "" if s.after.deviation is None else repr(s.after.deviation),
                "" if s.after.volatility is None else repr(s.after.volatility),
            ]
        )  # fmt: skip


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    text = printable(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def write_html(run: RatingRun, stream: TextIO) -> None:
    e = html.escape
    places = decimals(run)
    stream.write(
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{e(run.system.name)} ratings</title></head><body>\n"
        f"<h1>{e(run.system.name)}: {e(run.system.description)}</h1>\n"
        "<table>\n<tr><th>Date</th><th>Period</th><th>Player</th><th>Games</th>"
        "<th>Before</th><th>After</th><th>Change</th></tr>\n"
    )
    for row in _table_rows(run):
        stream.write("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>\n")
    stream.write("</table>\n<h2>Final ratings</h2>\n<table>\n")
    for name, state in sorted(run.result.final.items(), key=lambda kv: -kv[1].rating):
        stream.write(
            f"<tr><td>{e(printable(name))}</td><td>{e(_shown_state(state, places))}</td></tr>\n"
        )
    stream.write("</table>\n")
    for warning in run.warnings:
        stream.write(f"<p>warning: {e(printable(warning))}</p>\n")
    stream.write("</body></html>\n")


# -- explain --------------------------------------------------------------------------


def _q(value: float, places: int) -> Decimal:
    return Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def explain_steps(run: RatingRun, player: str) -> list[dict[str, Any]]:
    """Each period of ``player`` with its parts, printed values that add up exactly."""
    places = decimals(run)
    out = []
    for step in run.steps_of(player):
        change = _q(step.after.rating, places) - _q(step.before.rating, places)
        # a part that prints as 0 (a rounding far below the shown digits) is left out
        shown = [(label, _q(value, places)) for label, value in step.parts]
        # when every part prints as 0, the first still says where the (zero) change is from
        parts = [(label, v) for label, v in shown if v] or shown[:1]
        if parts:
            rest = change - sum((v for _, v in parts), Decimal(0))
            if rest:
                parts.append(("rounding of the shown parts", rest))
        out.append(
            {
                "step": step,
                "change": change,
                "parts": parts,
                "details": list(step.details),
                "summary": dict(step.summary),
            }
        )
    return out


_DETAIL_NAMES = {
    "rating": "rating",
    "opponent_rating": "opponent",
    "opponent_deviation": "opp. RD",
    "adjusted_rating": "adj. rating",
    "adjusted_opponent": "adj. opponent",
    "beta": "β",
    "opponent_beta": "β opp.",
    "a": "a",
    "result": "Sa",
    "expected": "Se",
    "con": "con",
    "con_times_difference": "con·(Sa−Se)",
    "bonus": "bonus",
    "weight": "class weight",
    "g": "g(φ opp.)",
    "change": "change",
}


def render_explanation(run: RatingRun, player: str) -> str:
    places = decimals(run)
    lines = [f"{printable(player)} — {run.system.name} ({run.system.source})"]
    origin = run.result.initial.get(player, "")
    if origin:
        lines.append(f"start: {printable(origin)}")
    steps = explain_steps(run, player)
    if not steps:
        lines.append("no rated games")
    for item in steps:
        step = item["step"]
        lines.append("")
        lines.append(
            f"{step.date}  {printable(step.period)}: {step.games} game(s), "
            f"{_shown_state(step.before, places)} → {_shown_state(step.after, places)}"
        )
        for d in item["details"]:
            head = f"  vs {printable(str(d.get('opponent', '?')))}"
            if d.get("round"):
                head += f" (round {d['round']})"
            if d.get("colour"):
                head += f", {d['colour']}"
            if d.get("handicap"):
                head += f", handicap {d['handicap']}"
            lines.append(head)
            values = []
            for key, label in _DETAIL_NAMES.items():
                if key in d and d[key] is not None:
                    v = d[key]
                    shown = f"{v:.6f}" if key in ("expected", "g", "a") else f"{v:.{places}f}"
                    if key in ("result",):
                        shown = f"{v:g}"
                    values.append(f"{label} {shown}")
            lines.append("    " + ", ".join(values))
        if item["summary"]:
            lines.append(
                "  period: "
                + ", ".join(
                    f"{k} {v:.6f}" if isinstance(v, float) else f"{k} {v}"
                    for k, v in item["summary"].items()
                )
            )
        if item["parts"]:
            lines.append("  change:")
            for label, value in item["parts"]:
                lines.append(f"    {value:+.{places}f}  {printable(label)}")
            lines.append(f"    {item['change']:+.{places}f}  = the change")
        else:
            lines.append(
                f"  change {item['change']:+.{places}f} (not a sum of parts for {run.system.name})"
            )
    return "\n".join(lines) + "\n"


def explanation_document(run: RatingRun, player: str) -> schema.RatingSteps:
    """Every step of ``player`` for programs (``sodos explain --ratings --format json``)."""
    out = []
    for item in explain_steps(run, player):
        step = item["step"]
        out.append(
            schema.Step(
                period=step.period,
                date=step.date,
                games=step.games,
                before=schema.StepState(*step.before),
                after=schema.StepState(*step.after),
                change=str(item["change"]),
                parts=[schema.Part(label, str(v)) for label, v in item["parts"]],
                details=[dict(d) for d in item["details"]],
                summary=item["summary"],
            )
        )
    return schema.RatingSteps(
        player=player, system=run.system.name, steps=out, warnings=list(run.warnings)
    )


def explanation_dict(run: RatingRun, player: str) -> dict[str, Any]:
    """:func:`explanation_document` as plain data."""
    return codec.builtins(explanation_document(run, player))
