"""The public front (sodos_plugin/__init__.py): every name of ``__all__`` is there, and the
pages for hosts and plugin authors name nothing of the package behind it."""

from __future__ import annotations

import re

from conftest import ROOT

import sodos_plugin

#: modules a page may still name: a deployment's entry point, not an import
OUTSIDE_THE_FRONT = {"sodos_plugin.serve.wsgi"}


def test_every_public_name_resolves():
    assert sodos_plugin.__all__ == sorted(sodos_plugin.__all__)
    for name in sodos_plugin.__all__:
        assert getattr(sodos_plugin, name) is not None, name
    assert sodos_plugin.explanation_as_dict.__name__ == "as_dict"


def test_hosts_and_plugins_pages_use_only_the_front():
    for page in ("hosts.md", "plugins.md"):
        text = (ROOT / "docs" / page).read_text("utf-8")
        deep = set(re.findall(r"sodos_plugin\.[a-z_]+\.[\w.]*", text)) - OUTSIDE_THE_FRONT
        assert deep == set(), (page, deep)
        for name in re.findall(r"(?:from sodos_plugin import \(?|sodos_plugin\.)(\w+)", text):
            assert name in sodos_plugin.__all__ or name in ("serve",), (page, name)
