"""How OpenGotha forms player keys and finds the player a game names (docs/rules.md §6).

OpenGotha 3.51 (``Player.computeKeyString``, ``Tournament.getPlayerByKeyString``,
``getPlayerByObsoleteCanonicalName``, ``Gotha.forceToASCII``) keys a player by
``name + firstName`` without its spaces (U+0020 only), upper-cased in the JVM's locale.
A game or bye names its players by such a key. Import finds the player:

* with ``dataVersion`` ≥ 201: by the key, upper-cased again (so lower case matches);
* with ``dataVersion`` ≤ 200 (or missing): by the *obsolete canonical name* compared with
  the text as written (upper name + upper firstName, spaces out, the Latin-1 capitals
  À…Ý folded to A…Y, then every character but A–Z deleted);
* failing that: by the canonical name compared with ``forceToASCII(text)`` upper-cased
  (Latin-1 letters of both cases and Turkish ı ğ ş İ Ğ Ş folded, any other character
  above 127 turned into ``?``). When two players share a canonical name, the first in
  OpenGotha's ``HashMap`` order wins.

The *locale* matters: in a Turkish locale ``i`` upper-cases to ``İ`` (U+0130). A key
holding ``İ`` was written in a Turkish locale, and OpenGotha reads such a file as
written only in that locale.

:class:`KeyIndex` does exactly this lookup; the reader decides what to do when it fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from sodos_plugin.readers.java_hashmap import iteration_order, string_hash

__all__ = [
    "KeyIndex",
    "canonical",
    "force_to_ascii",
    "key_of",
    "turkish_keys",
    "upper",
]

_LATIN_CAPITALS = str.maketrans(
    {**dict.fromkeys("ÀÁÂÃÄÅ", "A"), "Ç": "C", **dict.fromkeys("ÈÉÊË", "E")}
    | dict.fromkeys("ÌÍÎÏ", "I")
    | {"Ñ": "N", "Ý": "Y"}
    | dict.fromkeys("ÒÓÔÕÖØ", "O")
    | dict.fromkeys("ÙÚÛÜ", "U")
)
_ASCII_FOLD = str.maketrans(
    {
        **{k: v for k, v in _LATIN_CAPITALS.items()},
        **{ord(c): "a" for c in "àáâãäå"},
        ord("ç"): "c",
        **{ord(c): "e" for c in "èéêë"},
        **{ord(c): "i" for c in "ìíîï"},
        ord("ñ"): "n",
        **{ord(c): "o" for c in "òóôõöø"},
        **{ord(c): "u" for c in "ùúûü"},
        ord("ý"): "y",
        # the Turkish letters of forceToASCII (ü ö ç and Ü Ö Ç are folded above)
        ord("ı"): "i",
        ord("ğ"): "g",
        ord("ş"): "s",
        ord("Ğ"): "G",
        ord("Ş"): "S",
        ord("İ"): "I",
    }
)
_NOT_A_TO_Z = re.compile(r"[^A-Z]")
_ABOVE_127 = re.compile(r"[^\x00-\x7f]")


def upper(text: str, turkish: bool = False) -> str:
    """Java's ``toUpperCase()``: the full Unicode mapping (ß → SS); Turkish: i → İ."""
    if turkish:
        text = text.replace("i", "İ")
    return text.upper()


def key_of(text: str, turkish: bool = False) -> str:
    """``computeKeyString``: spaces (U+0020 only) removed, upper-cased."""
    return upper(text.replace(" ", ""), turkish)


def force_to_ascii(text: str) -> str:
    """``Gotha.forceToASCII``: Latin-1 and Turkish letters folded, any other char > 127 → ?"""
    return _ABOVE_127.sub("?", text.translate(_ASCII_FOLD))


def canonical(name: str, first_name: str, turkish: bool = False) -> str:
    """``getPlayerByObsoleteCanonicalName``'s name of a player: only A–Z are left."""
    text = (upper(name, turkish) + upper(first_name, turkish)).replace(" ", "")
    return _NOT_A_TO_Z.sub("", text.translate(_LATIN_CAPITALS))


def turkish_keys(references: Iterable[str]) -> bool:
    """Whether keys were written in a Turkish locale: one holds ``İ`` (U+0130)."""
    return any("İ" in text for text in references)


class KeyIndex:
    """OpenGotha's lookup of the player a game or bye names, for one file.

    :param names: ``(name, firstName)`` of each player kept, in file order (the order
        OpenGotha puts them into its ``HashMap``).
    :param data_version: the file's ``dataVersion`` as OpenGotha reads it (200 missing).
    :param turkish: whether OpenGotha runs in a Turkish locale.
    """

    def __init__(self, names: Sequence[tuple[str, str]], data_version: int, turkish: bool):
        self.turkish = turkish
        self.data_version = data_version
        keys = [key_of(n + f, turkish) for n, f in names]
        self.by_key = {key: i for i, key in enumerate(keys)}
        self.canonical: dict[str, int] = {}
        for i in iteration_order(range(len(keys)), lambda i: string_hash(keys[i])):
            self.canonical.setdefault(canonical(*names[i], turkish), i)
        self._found: dict[str, int | None] = {}  # each player is named by many games

    def find(self, text: str) -> int | None:
        """The index of the player ``text`` names, or None (OpenGotha drops the game)."""
        try:
            return self._found[text]
        except KeyError:
            found = self._found[text] = self._find(text)
            return found

    def _find(self, text: str) -> int | None:
        if self.data_version <= 200:
            found = self.canonical.get(text)
        else:
            found = self.by_key.get(key_of(text, self.turkish))
        if found is None:
            found = self.canonical.get(upper(force_to_ascii(text), self.turkish))
        return found
