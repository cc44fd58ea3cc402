"""numpy, imported when a rating is first computed, not when the plugins are registered.

Contract: ``np = LazyNumpy(globals())`` at the top of a module; the first attribute
read (``np.exp``) imports numpy and puts the module itself in the module's globals, so
later reads cost nothing more than a plain import would. ``sodos standings``,
``sodos --help`` and every command that rates nothing never import numpy (~0.1 s).
"""

from __future__ import annotations

from typing import Any


class LazyNumpy:
    __slots__ = ("_namespace",)

    def __init__(self, namespace: dict[str, Any]):
        self._namespace = namespace

    def __getattr__(self, name: str) -> Any:
        import numpy

        self._namespace["np"] = numpy
        return getattr(numpy, name)
