"""Every writer's output is byte-identical to what it wrote before its speed work: the
digests in ``tests/golden/writers.json`` were made by the writers as they were, on the
repository's files and on every conformance file of the shared data.

A deliberate change of a writer's output updates them:
``SODOS_UPDATE_GOLDEN=1 python -m pytest -q tests/writers/test_writers_golden.py`` (then say in
the commit which output changed and why).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHARED_DATA, TESTS, builtin_host

from sodos_plugin import Host

GOLDEN = TESTS / "golden" / "writers.json"
FORMATS = ("table", "csv", "json", "html", "h9")
UPDATE = os.environ.get("SODOS_UPDATE_GOLDEN") == "1"


def repository_inputs() -> dict[str, list[Path]]:
    inputs = {f"repo:{p.name}": [p] for p in sorted((TESTS / "data" / "egd").glob("*"))}
    inputs["repo:sample_tournament.xml"] = [TESTS / "data" / "sample_tournament.xml"]
    inputs["repo:sample_sgf"] = [ROOT / "sample_sgf"]
    return inputs


def generated_inputs(folder: Path) -> dict[str, list[Path]]:
    """Seeded inputs of the benchmarks (benchmarks/generate.py), a few hundred players."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import generate
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    generate.write_h9(folder / "swiss.h9", 400, 9)
    generate.write_opengotha_xml(folder / "og.xml", 150, 9)
    generate.write_server_records(folder / "records", 300, moves=20)
    return {  # relative paths: the messages that name a file are the same in every run
        "generated:h9-400x9": [Path("swiss.h9")],
        "generated:xml-150x9": [Path("og.xml")],
        "generated:sgf-300": [Path("records")],
    }


def shared_inputs() -> dict[str, list[Path]]:
    folder = SHARED_DATA / "conformance" / "opengotha" / "xml"
    return {f"shared:{p.name}": [p] for p in sorted(folder.glob("*.xml"))}


def digests(host: Host, paths: list[Path]) -> dict[str, str]:
    try:
        result = host.read(paths)
        standings = host.standings(result.tournament)
    except Exception as error:  # a file the reader refuses: its message is the output
        text = f"{type(error).__name__}: {error}"
        for path in paths:  # written <file>, as below: the same wherever ../shared is
            text = text.replace(str(path), "<file>")
        return {"error": text}
    out = {}
    for fmt in FORMATS:
        try:
            text = host.render(standings, fmt)
        except Exception as error:  # its message names the file: written <file>
            text = f"{type(error).__name__}: {error}"
            for path in paths:
                text = text.replace(str(path), "<file>")
        out[fmt] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return out


def check(inputs: dict[str, list[Path]]) -> None:
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    host = builtin_host()
    found = {name: digests(host, paths) for name, paths in inputs.items()}
    if UPDATE:
        golden.update(found)
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
        return
    missing = sorted(set(found) - set(golden))
    assert not missing, f"no golden digests for {missing[:5]} (SODOS_UPDATE_GOLDEN=1)"
    differ = [
        f"{name}: {fmt}"
        for name, got in found.items()
        for fmt in got
        if got[fmt] != golden[name].get(fmt)
    ]
    assert not differ, f"{len(differ)} outputs changed: {differ[:20]}"


def test_writers_on_the_repository_files_are_unchanged():
    check(repository_inputs())


def test_writers_on_generated_tournaments_are_unchanged(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check(generated_inputs(tmp_path))


def test_writers_on_every_conformance_file_are_unchanged():
    inputs = shared_inputs()
    if not inputs:
        pytest.skip(f"shared data not found at {SHARED_DATA} (set SODOS_SHARED_DATA)")
    check(inputs)


if __name__ == "__main__":  # pragma: no cover - a helper for timing
    sys.exit(pytest.main([__file__, "-q"]))


def test_html_tooltips_escape_names_with_controls_and_markup_as_a_whole_would(host):
    """round_cells escapes a tooltip as its parts (each name once): the same text as
    escaping the whole tooltip, for names with markup, quotes, controls and bidi."""
    from builders import B, W, tournament

    from sodos_plugin.writers import html

    odd = ['A&"<b>\x1b[2J', "Bob\u202e\u200d'x", "Cid\n\u0301 Z"]
    t = tournament([(n, "1d") for n in odd], 2, [(1, odd[0], odd[1], B, 2), (2, odd[2], odd[0], W)])
    page = host.render(host.standings(t), "html")
    for side, name, more in (("White", odd[0], ", handicap 2"), ("Black", odd[1], ", handicap 2")):
        assert f'title="{html.escape(f"{side} against {name}{more}")}"' in page
    assert f'title="{html.escape(f"White against {odd[2]}")}"' in page
