"""Shared test settings.

Real data is read in place from ``../shared/data`` (override with the environment
variable ``SODOS_SHARED_DATA``); tests that need it skip with the reason when absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("SODOS_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared_path(*parts: str) -> Path:
    """A path under the shared data folder; skips the test when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not found at {path} (set SODOS_SHARED_DATA)")
    return path


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA} (set SODOS_SHARED_DATA)")
    return SHARED_DATA


@pytest.fixture
def host():
    """A host with built-ins only: no config file, no entry points."""
    from sodos_plugin import Host

    return Host(config_file=False, entry_points=False)
