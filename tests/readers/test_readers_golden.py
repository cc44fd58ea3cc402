"""The h9 and OpenGotha XML readers read every real file as they read it before their
speed work: the Tournament (players, games in order, byes, absences, settings, info,
the OpenGotha compat view) and every warning, or the error.

``tests/golden/readers.json`` holds digests of ``repr(tournament)`` and the reader's
warnings (the file's path written ``<file>``) made by the readers as they were (commit
275a71e).
A deliberate change of what a reader reads updates them:
``SODOS_UPDATE_GOLDEN=1 python -m pytest -q tests/readers/test_readers_golden.py`` (then say in
the commit what changed and why). The writers' outputs have their own digests
(tests/writers/test_writers_golden.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from conftest import SHARED_DATA, TESTS

from sodos_plugin.readers import h9, opengotha_xml

GOLDEN = TESTS / "golden" / "readers.json"
UPDATE = os.environ.get("SODOS_UPDATE_GOLDEN") == "1"
SHARED_FOLDERS = (
    ("conformance", "go"),
    ("conformance", "opengotha", "minimal"),
    ("conformance", "opengotha", "xml"),
)


def inputs(shared: bool) -> dict[str, Path]:
    if not shared:
        data = TESTS / "data"
        files = sorted(data.glob("egd/*.txt")) + sorted(data.glob("*.xml"))
        return {f"repo:{p.relative_to(data)}": p for p in files}
    found = {}
    for parts in SHARED_FOLDERS:
        folder = SHARED_DATA.joinpath(*parts)
        for path in sorted(folder.glob("*")):
            if path.suffix in (".h9", ".txt", ".xml") and path.name != "SOURCES.txt":
                found[f"shared:{path.relative_to(SHARED_DATA)}"] = path
    return found


def digest(path: Path) -> str:
    """The reader's own result (what Host.read adds, e.g. name warnings, is not its own)."""
    reader = opengotha_xml if path.suffix == ".xml" else h9
    try:
        read = reader.read([path], {})
        text = f"{read.tournament!r}\nwarnings: {read.warnings!r}"
    except Exception as error:  # noqa: BLE001 - a refused file: its message is the output
        text = f"error {type(error).__name__}: {error}".split("\n")[0]
    text = text.replace(str(path), "<file>")
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


@pytest.mark.parametrize("shared", [False, True], ids=["repository", "shared"])
def test_readers_read_every_real_file_as_before(shared):
    files = inputs(shared)
    if shared and not files:
        pytest.skip(f"shared data not found at {SHARED_DATA} (set SODOS_SHARED_DATA)")
    golden = json.loads(GOLDEN.read_text())
    found = {name: digest(path) for name, path in files.items()}
    if UPDATE:
        golden.update(found)
        GOLDEN.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
        return
    missing = sorted(set(found) - set(golden))
    assert not missing, f"no golden digests for {missing[:5]} (SODOS_UPDATE_GOLDEN=1)"
    differ = [name for name, value in found.items() if value != golden[name]]
    assert not differ, f"{len(differ)} files read differently: {differ[:20]}"
