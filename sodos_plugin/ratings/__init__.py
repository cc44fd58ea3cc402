"""Ratings: games → history → rating system → report (docs/rules.md §10).

* :mod:`.history` — inputs (SGF archives, h9, XML, host objects) → one dated
  :class:`~sodos_hookspecs.GameHistory`;
* :mod:`.names` — the configured aliases and a saved state's spellings applied to it;
* :mod:`.initial` — starting ratings (a CSV, the files' own, or ranks) matched to it;
* :mod:`.systems` — the built-in rating systems, each an ordinary plugin;
* :mod:`.run` — one run of a system over a history, and what every face shows of it;
* :mod:`.report` — that run as a table, CSV, JSON or HTML, and one player's explanation;
* :mod:`.state` — the state a run saves and a later run goes on from;
* :mod:`.columns`, :mod:`.periods` — the shared steps the systems use (games as
  columns, rating periods, seeding from ranks).
"""
