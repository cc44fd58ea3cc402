"""Built-in record readers, each an ordinary plugin (``builtin.<module>``).

Readers *scan* bytes, then *interpret* values, and report every problem with the
file, line or property and what was expected.
"""

MODULES: tuple[str, ...] = (
    "opengotha_xml",
    "tou",
    "h9",
    "pairgoth",
    "json_tournament",
    "games_table",
    "sgf",
)
