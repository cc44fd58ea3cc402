"""Ratings as text: the table, CSV, JSON and HTML of a
:class:`~sodos_plugin.ratings.run.RatingRun`, and the step-by-step explanation of one
player (``sodos explain --ratings``).

What each form shows (the operator's answers, docs/ratings.md):

* by default the **final ratings**: place, name, rating, deviation, rank label, games,
  last game and where the player's first rating came from, highest first; then the
  files by status and reason (ingested, duplicate, excluded, rejected), the run's notes
  and its warnings. A column no player has (a deviation, a label) is left out of the
  table; the CSV has every column;
* ``history``: every rating period (date, period, player, games, before, after,
  change) as well; ``player``: one player's periods only;
* JSON: the whole run (:meth:`~sodos_plugin.ratings.run.RatingRun.document`, the
  Structs of :mod:`sodos_plugin.schemas.ratings`; with a player, his entries only);
* HTML: one self-contained page: each shown player's rating over time and the field's
  distribution drawn as inline SVG (no script, nothing fetched), the final-ratings
  table with a line of each player's history, the files' summary.

A system from a third-party plugin is named in every form (as criteria are): the
table's and the page's first lines, the CSV's rating heading, JSON ``provided_by``.

Numbers are shown with the decimals the system's source prints, as it declares them
(:attr:`~sodos_hookspecs.RatingSystem.decimals`: GoR 3, the others 2; volatility 6).
Names are cut at :data:`NAME_WIDTH` columns in the table (a note says so; the CSV and
JSON keep them whole). In an explanation the printed parts of a change
add up exactly to the printed change: what the rounding of the shown parts leaves is
its own line ("rounding of the shown parts"), never hidden.
"""

from __future__ import annotations

import csv
import html
import math
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any, NamedTuple, TextIO

from sodos_plugin.ratings.run import SUMMARY_REASONS, FinalRow, RatingRun, change
from sodos_plugin.schemas import codec
from sodos_plugin.schemas.ratings import Part, Ratings, RatingSteps, Step, StepState
from sodos_plugin.util.textsafe import display_width, fit, fit_middle, printable
from sodos_plugin.writers.table import NAME_WIDTH

FORMATS = ("table", "csv", "json", "html")
#: the widest period label of the history table (an SGF path is long)
PERIOD_WIDTH = 48
#: the players drawn over time on the HTML page when no player is chosen
CHART_PLAYERS = 10
#: points of a line: the chart's, a table row's
CHART_POINTS, SPARK_POINTS = 400, 24


def decimals(run: RatingRun) -> int:
    """The decimals the run's system declares for its ratings."""
    return run.system.decimals


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


def computed_by(run: RatingRun) -> str:
    """``"elo from sodos-foo 1.2 (replaces the built-in)"`` for a third-party system,
    else ``""``."""
    if not run.provider_text:
        return ""
    text = f"{run.system.name} from {run.provider_text}"
    if run.provided.get("replaces"):
        text += " (replaces the built-in)"
    return text


def write(
    run: RatingRun,
    fmt: str,
    stream: TextIO,
    *,
    history: bool = False,
    player: str | None = None,
    messages: bool = True,
) -> None:
    """``run`` in the format ``fmt``; ``history``: every period too; ``player``: that
    player only (a name of the run); ``messages``: the table ends with the run's notes and
    warnings (false where a face says them elsewhere: the CLI on stderr, once)."""
    fmt = fmt.lower()
    if fmt == "json":
        write_json(run, stream, player=player)
    elif fmt == "csv":
        write_csv(run, stream, history=history or player is not None, player=player)
    elif fmt == "html":
        write_html(run, stream, history=history, player=player)
    else:
        write_table(run, stream, history=history, player=player, messages=messages)


def needs_steps(fmt: str, *, history: bool = False, player: str | None = None) -> bool:
    """Whether :func:`write` in ``fmt`` reads the run's steps: every period or one
    player's (``history``, ``player``), the JSON document (its ``periods``), the HTML
    page (its charts). The table and the CSV of final ratings read the totals only, so
    their run need not keep a step per player and period (a server's archive)."""
    return fmt.lower() in ("json", "html") or history or player is not None


def document(run: RatingRun, player: str | None = None) -> Ratings:
    """The JSON document: the run, or with ``player`` his entries only."""
    data = run.document()
    if player is not None:
        data.players = [p for p in data.players if p.name == player]
        data.periods = [p for p in data.periods if p.player == player]
    return data


def write_json(run: RatingRun, stream: TextIO, player: str | None = None) -> None:
    """The document through the one encoder (every number is finite: run.py refuses a
    result that is not)."""
    stream.write(codec.encode_text(document(run, player)) + "\n")


class _Memo(dict):
    """``function`` of each distinct value, computed once."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def __missing__(self, value):
        out = self[value] = self.function(value)
        return out

    __call__ = dict.__getitem__


def _steps(run: RatingRun, player: str | None):
    return run.steps_of(player) if player is not None else run.result.steps


# -- the table ------------------------------------------------------------------------


def _step_rows(run: RatingRun, steps) -> list[list[str]]:
    places = decimals(run)
    shown = _Memo(printable)  # an archive repeats its periods and players
    rows = []
    for step in steps:
        delta = step.after.rating - step.before.rating
        rows.append(
            [
                step.date,
                shown(step.period),
                shown(step.player),
                str(step.games),
                _shown_state(step.before, places),
                _shown_state(step.after, places),
                f"{delta:+.{places}f}",
            ]
        )
    return rows


def _columns(header, rows, right, limits, cut, middle=()) -> list[str]:
    """Lines of ``rows`` under ``header``, each column padded to its display width;
    a column with a limit (index → columns) is cut there with ``…`` (noted in ``cut``),
    those of ``middle`` in their middle (a path keeps its end)."""
    width = _Memo(display_width)
    widths = [
        max([width(h), *(map(len, column) if i in right else map(width, set(column)))])
        for i, (h, column) in enumerate(zip(header, zip(*rows) if rows else [()] * len(header)))
    ]
    for i, limit in limits.items():
        if widths[i] > limit:
            widths[i] = limit
            cut.append(header[i].lower() + "s")

    def padder(i: int, room: int) -> Callable[[str], str]:
        if i in right:
            return lambda cell: cell.rjust(room)

        cut_to = fit_middle if i in middle else fit

        def padded(cell: str) -> str:
            if width(cell) > room:
                cell = cut_to(cell, room)
            return _pad(cell, room)

        return _Memo(padded)  # names, periods and dates repeat

    pads = [padder(i, w) for i, w in enumerate(widths)]
    head = "  ".join(_pad(h, w, i in right) for i, (h, w) in enumerate(zip(header, widths)))
    lines = [head.rstrip()]
    for row in rows:
        lines.append("  ".join([pad(cell) for pad, cell in zip(pads, row)]).rstrip())
    return lines


def _final_table(run: RatingRun, rows: Sequence[FinalRow], cut: list[str]) -> list[str]:
    places = decimals(run)
    shown = _Memo(printable)
    columns = [
        ("Place", [str(r.place) for r in rows], True, None),
        ("Name", [shown(r.name) for r in rows], False, NAME_WIDTH),
        ("Rating", [_num(r.state.rating, places) for r in rows], True, None),
        ("Deviation", [_num(r.state.deviation, places) for r in rows], True, None),
        ("Rank", [shown(r.label or "") for r in rows], False, None),
        ("Games", [str(r.games) for r in rows], True, None),
        ("Last game", [r.last_game for r in rows], False, None),
        ("Start", [shown(r.start) for r in rows], False, NAME_WIDTH),
    ]
    # a column no player has says nothing (GoR has no deviation, no label)
    columns = [c for c in columns if c[0] in ("Place", "Name", "Rating") or any(c[1])]
    header = [c[0] for c in columns]
    right = {i for i, c in enumerate(columns) if c[2]}
    limits = {i: c[3] for i, c in enumerate(columns) if c[3]}
    body = [list(cells) for cells in zip(*(c[1] for c in columns))] if rows else []
    return _columns(
        header, body, right, limits, cut, middle={i for i, h in enumerate(header) if h == "Start"}
    )


def _history_table(run: RatingRun, steps, cut: list[str]) -> list[str]:
    header = ["Date", "Period", "Player", "Games", "Before", "After", "Change"]
    return _columns(
        header, _step_rows(run, steps), {3, 4, 5, 6}, {1: PERIOD_WIDTH, 2: NAME_WIDTH}, cut
    )


def summary_lines(run: RatingRun) -> list[str]:
    """The files by status, each status's reasons by count (the first
    :data:`~sodos_plugin.ratings.run.SUMMARY_REASONS`, then how many others)."""
    summary = run.summary()
    if not summary:
        return []
    total = sum(entry.count for entry in summary)
    parts = ", ".join(f"{entry.count} {entry.status}" for entry in summary)
    lines = [f"Files and records: {total} — {parts}"]
    for entry in summary:
        status, reasons = entry.status, entry.reasons
        if status == "ingested":
            continue
        for reason in reasons[:SUMMARY_REASONS]:
            lines.append(
                f"  {status} {reason.count}: {printable(reason.reason) or '(no reason given)'}"
            )
        rest = reasons[SUMMARY_REASONS:]
        if rest:
            others = sum(reason.count for reason in rest)
            lines.append(f"  {status} {others}: {len(rest)} other reasons (JSON lists them)")
    return lines


def heading(run: RatingRun, players: int) -> list[str]:
    """The first lines: the system, who computed it, what was rated."""
    lines = [f"{run.system.name}: {printable(run.system.description)}"]
    by = computed_by(run)
    if by:
        lines.append(f"computed by {printable(by)}")
    counts = f"{len(run.history.games)} games, {run.events()} events, {players} players"
    if run.previous is not None:
        counts += f"; gone on from the saved state of {run.previous.last_day}"
    lines.append(counts)
    return lines


def write_table(
    run: RatingRun,
    stream: TextIO,
    *,
    history: bool = False,
    player: str | None = None,
    messages: bool = True,
) -> None:
    rows = run.standings()
    lines = heading(run, len(rows))
    cut: list[str] = []
    if player is not None:
        rows = [r for r in rows if r.name == player]
        lines += ["", f"Rating periods of {printable(player)}"]
        lines += _history_table(run, run.steps_of(player), cut)
        lines += ["", *_final_table(run, rows, cut)]
    else:
        if history:
            lines += ["", "Rating periods", *_history_table(run, run.result.steps, cut)]
            lines += ["", "Final ratings"]
        lines += ["", *_final_table(run, rows, cut)]
    if cut:
        kinds = " and ".join(dict.fromkeys(cut))
        lines.append(
            f"note: {kinds} longer than their column are cut with … (names at {NAME_WIDTH} "
            f"columns, periods at {PERIOD_WIDTH}); --format csv or json keeps them whole"
        )
    summary = summary_lines(run)
    if summary:
        lines += ["", *summary]
    if messages:
        lines += [f"note: {printable(note)}" for note in run.notes]
        lines += [f"warning: {printable(warning)}" for warning in run.warnings]
    stream.write("\n".join(lines) + "\n")


# -- CSV ----------------------------------------------------------------------------


def write_csv(
    run: RatingRun, stream: TextIO, *, history: bool = False, player: str | None = None
) -> None:
    """Final ratings (``place,name,rating,...``), or with ``history`` every period
    (``date,period,player,...``). A third-party system's name and provider are in the
    rating's heading: ``rating (elo from sodos-foo 1.2)``."""
    safe = _Memo(_safe)  # an archive repeats its periods and players
    out = csv.writer(stream, lineterminator="\n")
    by = computed_by(run)
    if not history:
        rating = f"rating ({by})" if by else "rating"
        out.writerow(
            [
                "place", "name", rating, "deviation", "volatility", "label", "games",
                "last_game", "start",
            ]
        )  # fmt: skip
        for r in run.standings():
            out.writerow(
                [
                    r.place, safe(r.name), repr(r.state.rating), _repr(r.state.deviation),
                    _repr(r.state.volatility), safe(r.label or ""), r.games, r.last_game,
                    safe(r.start),
                ]
            )  # fmt: skip
        return
    after = f"after ({by})" if by else "after"
    out.writerow(
        [
            "date", "period", "player", "games", "before", after, "change",
            "before_deviation", "after_deviation", "after_volatility",
        ]
    )  # fmt: skip
    for s in _steps(run, player):
        out.writerow(
            [
                s.date, safe(s.period), safe(s.player), s.games,
                repr(s.before.rating), repr(s.after.rating),
                repr(change(s.before.rating, s.after.rating)),
                _repr(s.before.deviation), _repr(s.after.deviation), _repr(s.after.volatility),
            ]
        )  # fmt: skip


def _repr(value: float | None) -> str:
    return "" if value is None else repr(value)


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    text = printable(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# -- HTML -----------------------------------------------------------------------------


def escape(text: str) -> str:
    """Text for the page: controls escaped visibly, then HTML-escaped (quotes too)."""
    return html.escape(printable(text))


STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; } h2 { font-size: 1.15em; margin-top: 1.4em; }
p.sub { margin-top: 0; color: #444; }
table { border-collapse: collapse; font-size: 0.92em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.45em; white-space: nowrap; }
th { background: #eee; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
svg.chart { background: #fcfcfc; border: 1px solid #ddd; max-width: 100%; height: auto; }
svg.chart text { font-size: 11px; fill: #333; } svg.spark { vertical-align: middle; }
ul.legend { list-style: none; padding: 0; columns: 2; } ul.legend li { margin: 0.1em 0; }
span.key { display: inline-block; width: 1.4em; height: 0.35em; margin-right: 0.4em;
  vertical-align: middle; }
ul.warnings { color: #8a4b00; } ul.notes { color: #234; }
"""
#: line colours (a colour-blind-safe palette, Okabe & Ito, and greys)
COLOURS = (
    "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000",
    "#999999", "#882255",
)  # fmt: skip
WIDTH, HEIGHT = 760, 320
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 14, 30


class Series(NamedTuple):
    """Players' ratings over the run's rating periods: ``lines`` name → (period number,
    rating) — the first rating, then the rating after each of the player's periods —
    and ``dates``: the date of each period number. Periods are numbered in the run's
    order (a tournament, a game, a day: one number for all its players), so a day of
    many games or a one-day event is as readable as years of them."""

    lines: dict[str, list[tuple[float, float]]]
    dates: list[str]


def _series(run: RatingRun, names: Sequence[str] | None = None) -> Series:
    wanted = None if names is None else set(names)
    lines: dict[str, list[tuple[float, float]]] = {}
    dates: list[str] = []
    key = None
    for step in run.result.steps:
        here = (step.date, step.period)
        if here != key:
            key = here
            dates.append(step.date)
        if wanted is not None and step.player not in wanted:
            continue
        at = len(dates) - 1
        line = lines.get(step.player)
        if line is None:
            line = lines[step.player] = [(at - 0.5, step.before.rating)]
        line.append((at, step.after.rating))
    return Series(lines, dates)


def _thin(points: list[tuple[int, float]], most: int) -> list[tuple[int, float]]:
    """At most ``most`` points, evenly spaced over the line, its ends kept."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(k * step)] for k in range(most)]


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values between ``low`` and ``high`` for an axis."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = min((m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw), default=raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


def _scale(low: float, high: float, start: float, end: float) -> Callable[[float], float]:
    if high <= low:
        return lambda value: (start + end) / 2
    return lambda value: start + (value - low) * (end - start) / (high - low)


def chart_svg(run: RatingRun, series: Series) -> str:
    """The players' ratings over time: one line each, rating periods across (their dates
    below), ratings up."""
    places = decimals(run)
    lines = {name: _thin(points, CHART_POINTS) for name, points in series.lines.items() if points}
    days = [d for points in lines.values() for d, _ in points]
    values = [v for points in lines.values() for _, v in points]
    if not days:
        return ""
    low, high = min(values), max(values)
    pad = (high - low) * 0.05 or 1.0
    low, high = low - pad, high + pad
    x = _scale(min(days), max(days), LEFT, WIDTH - RIGHT)
    y = _scale(low, high, HEIGHT - BOTTOM, TOP)
    parts = [
        f'<svg class="chart" id="over-time" xmlns="http://www.w3.org/2000/svg" '
        f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-label="ratings over time">',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
        f'y2="{HEIGHT - BOTTOM}" stroke="#888"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#888"/>',
    ]
    for tick in _ticks(low, high):
        ty = y(tick)
        parts.append(
            f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}" '
            'stroke="#eee"/>'
            f'<text x="{LEFT - 4}" y="{ty + 4:.1f}" text-anchor="end">{tick:g}</text>'
        )
    first, last = max(0, math.ceil(min(days))), int(max(days))
    shown: set[str] = set()
    for at in sorted({first, last, *(first + (last - first) * k // 4 for k in (1, 2, 3))}):
        label = series.dates[at]
        if label in shown:  # periods of one day: the date once
            continue
        shown.add(label)
        anchor = "start" if at == first else "end" if at == last else "middle"
        parts.append(
            f'<text x="{x(at):.1f}" y="{HEIGHT - 10}" text-anchor="{anchor}">{label}</text>'
        )
    for k, (name, points) in enumerate(lines.items()):
        colour = COLOURS[k % len(COLOURS)]
        coords = " ".join(f"{x(d):.1f},{y(v):.1f}" for d, v in points)
        end = points[-1][1]
        parts.append(
            f'<polyline class="player" data-player="{escape(name)}" fill="none" '
            f'stroke="{colour}" stroke-width="1.6" points="{coords}">'
            f"<title>{escape(name)}: {end:.{places}f}</title></polyline>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def legend(series: dict[str, list[tuple[float, float]]]) -> str:
    items = [
        f'<li><span class="key" style="background:{COLOURS[k % len(COLOURS)]}"></span>'
        f"{escape(fit(name, NAME_WIDTH))}</li>"
        for k, name in enumerate(series)
    ]
    return '<ul class="legend">' + "".join(items) + "</ul>"


def distribution_svg(run: RatingRun, rows: Sequence[FinalRow], bins: int = 20) -> str:
    """The field's final ratings as a histogram (equal-width bins)."""
    values = [r.state.rating for r in rows]
    if not values:
        return ""
    places = decimals(run)
    low, high = min(values), max(values)
    count = bins if high > low else 1
    width = (high - low) / count if high > low else 1.0
    tally = [0] * count
    for value in values:
        tally[min(count - 1, int((value - low) / width)) if high > low else 0] += 1
    tallest = max(tally)
    x = _scale(0, count, LEFT, WIDTH - RIGHT)
    y = _scale(0, tallest, HEIGHT - BOTTOM, TOP)
    parts = [
        f'<svg class="chart" id="distribution" xmlns="http://www.w3.org/2000/svg" '
        f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-label="distribution of the final ratings">',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
        f'y2="{HEIGHT - BOTTOM}" stroke="#888"/>',
    ]
    for tick in _ticks(0, tallest, 4):
        if tick != int(tick):
            continue
        parts.append(
            f'<text x="{LEFT - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{int(tick)}</text>'
        )
    for k, n in enumerate(tally):
        a, b = low + k * width, low + (k + 1) * width
        top = y(n)
        parts.append(
            f'<rect class="bin" data-count="{n}" x="{x(k) + 1:.1f}" y="{top:.1f}" '
            f'width="{max(1.0, x(k + 1) - x(k) - 2):.1f}" height="{HEIGHT - BOTTOM - top:.1f}" '
            f'fill="#0072b2"><title>{a:.{places}f} to {b:.{places}f}: {n} player(s)</title>'
            "</rect>"
        )
    at = _scale(low, low + count * width, LEFT, WIDTH - RIGHT)
    for tick in _ticks(low, low + count * width, 6) if high > low else [low]:
        parts.append(
            f'<text x="{at(tick):.1f}" y="{HEIGHT - 10}" text-anchor="middle">{tick:g}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def spark_svg(points: list[tuple[float, float]]) -> str:
    """A table row's line of one player's history (no axes: its shape), his periods
    evenly spaced."""
    points = _thin([(k, v) for k, (_, v) in enumerate(points)], SPARK_POINTS)
    if len(points) < 2:
        return ""
    days = [d for d, _ in points]
    values = [v for _, v in points]
    x = _scale(min(days), max(days), 1, 99)
    y = _scale(min(values), max(values), 19, 1)
    coords = " ".join(f"{x(d):.1f},{y(v):.1f}" for d, v in points)
    return (
        '<svg class="spark" xmlns="http://www.w3.org/2000/svg" width="100" height="20" '
        f'viewBox="0 0 100 20"><polyline fill="none" stroke="#0072b2" points="{coords}"/></svg>'
    )


def write_html(
    run: RatingRun, stream: TextIO, *, history: bool = False, player: str | None = None
) -> None:
    e = escape
    places = decimals(run)
    rows = run.standings()
    shown_rows = [r for r in rows if r.name == player] if player is not None else rows
    series = _series(run)
    every = series.lines
    if player is not None:
        drawn = {player: every.get(player, [])}
    else:
        drawn = {r.name: every[r.name] for r in rows if r.name in every}
        drawn = dict(list(drawn.items())[:CHART_PLAYERS])
    title = f"{run.system.name} ratings" + (f": {player}" if player is not None else "")
    out = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{e(run.system.name)}: {e(run.system.description)}</h1>",
    ]
    sub = heading(run, len(rows))[1:]
    out += [f'<p class="sub">{e(line)}</p>' for line in sub]
    params = ", ".join(f"{k} = {v}" for k, v in run.shown_parameters().items())
    out.append(f'<p class="sub">{e(run.system.source)}; parameters: {e(params)}</p>')
    if drawn and any(drawn.values()):
        what = (
            f"Rating of {player} over time"
            if player is not None
            else f"Ratings over time: the {len(drawn)} highest rated"
        )
        chart = chart_svg(run, Series(drawn, series.dates))
        out += [f"<h2>{e(what)}</h2>", chart, legend(drawn)]
    if player is None and rows:
        out += ["<h2>The field's final ratings</h2>", distribution_svg(run, rows)]
    out.append("<h2>Final ratings</h2>")
    out.append(
        '<table id="final"><thead><tr><th>Place</th><th>Name</th><th>Rating</th>'
        "<th>Deviation</th><th>Rank</th><th>Games</th><th>Last game</th><th>Start</th>"
        "<th>History</th></tr></thead><tbody>"
    )
    for r in shown_rows:
        out.append(
            f'<tr><td class="num">{r.place}</td><td class="name">{e(r.name)}</td>'
            f'<td class="num">{_num(r.state.rating, places)}</td>'
            f'<td class="num">{_num(r.state.deviation, places)}</td>'
            f'<td>{e(r.label or "")}</td><td class="num">{r.games}</td>'
            f"<td>{r.last_game}</td><td>{e(r.start)}</td>"
            f"<td>{spark_svg(every.get(r.name, []))}</td></tr>"
        )
    out.append("</tbody></table>")
    if history or player is not None:
        steps = _steps(run, player)
        out.append("<h2>Rating periods</h2>")
        out.append(
            '<table id="periods"><thead><tr><th>Date</th><th>Period</th><th>Player</th>'
            "<th>Games</th><th>Before</th><th>After</th><th>Change</th></tr></thead><tbody>"
        )
        for cells in _step_rows(run, steps):
            tds = "".join(
                f'<td class="num">{e(c)}</td>' if i >= 3 else f"<td>{e(c)}</td>"
                for i, c in enumerate(cells)
            )
            out.append(f"<tr>{tds}</tr>")
        out.append("</tbody></table>")
    summary = summary_lines(run)
    if summary:
        out.append("<h2>Files and records</h2><ul>")
        out += [f"<li>{e(line.strip())}</li>" for line in summary]
        out.append("</ul>")
    if run.notes:
        out.append('<ul class="notes">' + "".join(f"<li>note: {e(n)}</li>" for n in run.notes))
        out.append("</ul>")
    if run.warnings:
        out.append(
            '<ul class="warnings">'
            + "".join(f"<li>warning: {e(w)}</li>" for w in run.warnings)
            + "</ul>"
        )
    out.append("</body></html>")
    stream.write("\n".join(out) + "\n")


# -- explain --------------------------------------------------------------------------


def _q(value: float, places: int) -> Decimal:
    """The printed value: the shortest repr of the float (numpy's too), rounded."""
    exact = Decimal(repr(float(value)))
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


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
    "head_start": "head start (ranks)",
    "change": "change",
}


def render_explanation(run: RatingRun, player: str) -> str:
    places = decimals(run)
    lines = [f"{printable(player)} — {run.system.name} ({run.system.source})"]
    by = computed_by(run)
    if by:
        lines.append(f"computed by {printable(by)}")
    origin = run.starts().get(player, "")
    if origin:
        lines.append(f"start: {printable(origin)}")
    steps = explain_steps(run, player)
    if not steps:
        lines.append("no rated games in this run")
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
                    small = ("expected", "g", "a", "head_start")
                    shown = f"{v:.6f}" if key in small else f"{v:.{places}f}"
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
    lines += [f"note: {printable(note)}" for note in run.notes]
    return "\n".join(lines) + "\n"


def explanation_document(run: RatingRun, player: str) -> RatingSteps:
    """One player's steps as their document
    (:class:`~sodos_plugin.schemas.ratings.RatingSteps`: ``sodos explain --ratings PLAYER
    --format json``)."""
    out = []
    for item in explain_steps(run, player):
        step = item["step"]
        out.append(
            Step(
                period=step.period,
                date=step.date,
                games=step.games,
                before=StepState(*step.before),
                after=StepState(*step.after),
                change=str(item["change"]),
                parts=[Part(label, str(v)) for label, v in item["parts"]],
                details=[dict(d) for d in item["details"]],
                summary=item["summary"],
            )
        )
    final = run.final().get(player)
    return RatingSteps(
        player=player,
        system=run.system.name,
        provider=run.provider,
        provided_by=dict(run.provided),
        source=run.system.source,
        start=run.starts().get(player, ""),
        final=None if final is None else StepState(*final),
        steps=out,
        warnings=list(run.warnings),
        notes=list(run.notes),
    )


def explanation_dict(run: RatingRun, player: str) -> dict[str, Any]:
    """:func:`explanation_document` as plain data."""
    return codec.builtins(explanation_document(run, player))
