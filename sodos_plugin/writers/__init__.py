"""Built-in writers, each an ordinary plugin (``builtin.<module>``)."""

MODULES: tuple[str, ...] = ("table", "json_writer", "csv_writer", "html", "h9_writer", "tou_writer")
