"""``sodos docs [PAGE [SECTION]]``: print a documentation page of the installed package.

The pages are the repository's ``docs/*.md``. A wheel installs that folder as the data
package ``sodos_plugin.docs`` (``package-dir`` in pyproject.toml), with the example files
the pages show; an editable install does not map a nested package folder, so there the
pages are read from the repository's ``docs/`` beside the package. Help texts point here
(``sodos docs config``) rather than to a path an installed package does not have.

Like ``--help``, this imports nothing that reads, ranks or rates
(tests/faces/cli/test_startup.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from sodos_plugin.cli._options import UsageError, common
from sodos_plugin.cli._streams import EXIT_OK
from sodos_plugin.errors import SodosError
from sodos_plugin.util.suggest import suggestion

#: page name -> what it is about, in the order ``sodos docs`` lists them
PAGES: dict[str, str] = {
    "config": "config files, every key with its default, precedence of the layers",
    "rules": "every rule the numbers follow, with its public source (§1-§11)",
    "criteria": "every criterion: its rule, its source and a worked example",
    "plugins": "writing a criterion, reader, writer or rating system; an example package",
    "hosts": "embedding sodos in a program; the JSON tournament format; sodos serve",
    "ratings": "GoR, Glicko-2, OGS and WHR over a game history; the cache",
    "architecture": "the map of the package: which folder owns what",
}

EXAMPLES = (
    "sodos docs",
    "sodos docs config",
    "sodos docs rules 7",
    "sodos docs hosts 'JSON tournament format' | less",
    "sodos docs --path plugins",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)  # accepted as by every command; the pages depend on none of them
    p.add_argument(
        "page",
        nargs="?",
        metavar="PAGE",
        help=f"one of: {', '.join(PAGES)} (also written rules.md or docs/rules.md); "
        "none: list the pages",
    )
    p.add_argument(
        "section",
        nargs="?",
        metavar="SECTION",
        help="only the section whose heading has these words (any case), or a rules "
        "number: 7, §10.2",
    )
    p.add_argument(
        "--path",
        action="store_true",
        help="print where the page (or, without PAGE, the folder of pages and example "
        "files) is installed, not its text",
    )


def folder(package: Path | None = None) -> Path:
    """The folder of the pages: the installed data package ``sodos_plugin/docs``, else
    the repository's ``docs/`` beside the package (an editable install)."""
    package = Path(__file__).resolve().parent.parent if package is None else package
    for candidate in (package / "docs", package.parent / "docs"):
        if all((candidate / f"{name}.md").is_file() for name in PAGES):
            return candidate
    raise SodosError(
        f"the documentation pages are not installed (looked in {package / 'docs'} and "
        f"{package.parent / 'docs'}); reinstall sodos-plugin"
    )


def page_name(text: str) -> str:
    """``config``, ``Config``, ``config.md``, ``docs/config.md`` -> ``config``."""
    name = text.strip().replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".md")
    if name in PAGES:
        return name
    raise UsageError(f"no documentation page {text!r}{suggestion(name, PAGES, known=True)}")


_HEADING = re.compile(r"^(#{1,6}) (.*)$")


def section(text: str, wanted: str, page: str) -> str:
    """The part of a page from the first heading that matches ``wanted`` to the next
    heading of the same or a higher level. A number (``7``, ``§10.2``) matches a heading
    that starts with that § number; words match a heading that contains them all."""
    lines = text.splitlines(keepends=True)
    number = wanted.strip().removeprefix("§").strip()
    numbered = re.fullmatch(r"\d+(\.\d+)*", number) is not None
    words = wanted.lower().split()
    headings = []
    fenced = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else _HEADING.match(line.rstrip("\n"))
        if match:
            headings.append((index, len(match.group(1)), match.group(2)))
    tests = [lambda title: re.match(rf"§{re.escape(number)}(?![\d.])", title) is not None]
    if not numbered:  # whole words first ("serve" is not "server"), then parts of words
        tests = [
            lambda title: set(words) <= set(re.findall(r"[\w§.-]+", title.lower())),
            lambda title: all(word in title.lower() for word in words),
        ]
    for test in tests:  # of the headings that match, the shortest: the closest match
        found = [(len(h[2]), n) for n, h in enumerate(headings) if test(h[2])]
        if found:
            position = min(found)[1]
            start, level, _ = headings[position]
            rest = headings[position + 1 :]
            end = next((i for i, lv, _ in rest if lv <= level), len(lines))
            return "".join(lines[start:end]).rstrip("\n") + "\n"
    shown = "; ".join(title for _, level, title in headings if level == 2)
    raise UsageError(f"docs {page}: no section {wanted!r} (sections: {shown})")


def listing(where: Path) -> str:
    width = max(len(name) for name in PAGES)
    lines = ["documentation pages (sodos docs PAGE):"]
    lines += [f"  {name:<{width}}  {about}" for name, about in PAGES.items()]
    lines.append(f"the pages and the example files they show are in {where}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    where = folder()
    if args.page is None:
        if args.section is not None:  # argparse fills PAGE first: cannot happen
            raise UsageError("give a PAGE before a SECTION")
        sys.stdout.write(f"{where}\n" if args.path else listing(where))
        return EXIT_OK
    name = page_name(args.page)
    path = where / f"{name}.md"
    if args.path:
        sys.stdout.write(f"{path}\n")
        return EXIT_OK
    text = path.read_text(encoding="utf-8")
    if args.section is not None:
        text = section(text, args.section, name)
    sys.stdout.write(text)
    return EXIT_OK
