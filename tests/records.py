"""SGF records, folders and archives of them made at test time, and what a read made of
each file."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path


def record(black: str, white: str, round_number: int = 1, result: str = "B+R", **extra) -> bytes:
    """A game of the "Hostile Cup" between two 3k players; ``extra`` adds root properties."""
    props = "".join(f"{k}[{v}]" for k, v in extra.items())
    return (
        f"(;FF[4]GM[1]SZ[19]EV[Hostile Cup]RO[{round_number}]PB[{black}]PW[{white}]"
        f"BR[3k]WR[3k]RE[{result}]{props};B[pd];W[dp])\n"
    ).encode()


def good_folder(path: Path) -> Path:
    """Two valid records of round 1 in ``path``: four players."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "r1-a.sgf").write_bytes(record("Alice", "Bob"))
    (path / "r1-b.sgf").write_bytes(record("Carol", "Dave", result="W+3.5"))
    return path


def rec(pb, pw, re="B+R", ro="1", br="3d", wr="3d", ev="Cup", extra="", moves=";B[pd];W[dp]"):
    """A UTF-8 game record; a property given as None is left out."""
    props = f"PB[{pb}]PW[{pw}]RE[{re}]"
    for key, value in (("RO", ro), ("BR", br), ("WR", wr), ("EV", ev)):
        if value is not None:
            props += f"{key}[{value}]"
    return f"(;FF[4]CA[UTF-8]{props}{extra}{moves})\n".encode()


def folder(tmp_path: Path, files: dict[str, bytes]) -> Path:
    """``files`` ({relative path: bytes}) written under ``tmp_path``, which is returned."""
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return tmp_path


def status(result) -> dict[str, tuple[str, str]]:
    """{file name: (status, reason)} of a read's files."""
    return {Path(f.path).name: (f.status, f.reason) for f in result.files}


def make_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def make_tgz(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path
