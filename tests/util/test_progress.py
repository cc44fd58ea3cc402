"""The progress line never runs into the message that follows it (issue 30)."""

from __future__ import annotations

import io

from sodos_plugin.cli._streams import say
from sodos_plugin.util.progress import Progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_an_error_after_an_open_progress_line_starts_a_line_of_its_own():
    tty = FakeTerminal()
    progress = Progress(5000, tty)
    progress.update(10)  # the read stops here: close() never runs
    say("sodos: error: first", tty)
    say("sodos: error: second", tty)
    lines = tty.getvalue().split("\n")
    assert lines == ["\rsodos: ingested 10/5000 SGF files", "sodos: error: first",
                     "sodos: error: second", ""]  # fmt: skip


def test_a_closed_progress_line_is_ended_once():
    tty = FakeTerminal()
    progress = Progress(5000, tty)
    progress.update(5000)
    progress.close()
    say("note: after", tty)
    assert tty.getvalue() == "\rsodos: ingested 5000/5000 SGF files\nnote: after\n"
