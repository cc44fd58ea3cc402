"""safe_xml.fromstring gives what defusedxml.ElementTree.fromstring gives.

Same tree (tags, attributes in order, text, tails), or the same exception with the same
message, code and position — on every real OpenGotha file, on hostile documents
(entities, external references, DTDs, namespaces, encodings) and on random edits.
"""

from __future__ import annotations

from pathlib import Path

import defusedxml.ElementTree as SafeET
import pytest
from conftest import SHARED_DATA, TESTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin.readers import safe_xml

XML_DIRS = [
    SHARED_DATA / "conformance" / "opengotha" / "xml",
    SHARED_DATA / "conformance" / "opengotha" / "minimal",
    SHARED_DATA / "conformance" / "go",
]
REPO_XML = sorted((TESTS / "data").glob("*.xml"))


def tree(element) -> tuple:
    return (
        element.tag,
        list(element.attrib.items()),
        element.text,
        element.tail,
        [tree(child) for child in element],
    )


def outcome(parse, data: bytes):
    try:
        return ("tree", tree(parse(data)))
    except Exception as error:  # noqa: BLE001 - the exception is what is compared
        return (
            type(error).__name__,
            str(error),
            getattr(error, "code", None),
            getattr(error, "position", None),
        )


def assert_same(data: bytes) -> None:
    assert outcome(safe_xml.fromstring, data) == outcome(SafeET.fromstring, data)


def real_files() -> list[Path]:
    files = list(REPO_XML)
    for folder in XML_DIRS:
        if folder.is_dir():
            files += sorted(folder.glob("*.xml"))
    return files


def test_real_files_parse_the_same():
    files = real_files()
    if len(files) <= len(REPO_XML):
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    for path in files:
        data = path.read_bytes()
        assert_same(data)


HOSTILE = [
    b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><t>&b;</t>',
    b'<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><t>&x;</t>',
    b'<!DOCTYPE t [<!ENTITY x SYSTEM "http://example.com/x" NDATA gif>]><t/>',
    b'<!DOCTYPE t SYSTEM "http://example.com/t.dtd"><t>&undefined;</t>',
    b'<!DOCTYPE t SYSTEM "tournament.dtd"><t a="1">x&amp;y&lt;&#65;&#x42;</t>',
    b'<!DOCTYPE t [<!ATTLIST t d CDATA "dflt">]><t/>',
    b'<!DOCTYPE t [<!ENTITY % p "x"> %p;]><t/>',
    b"<t>&undefined;</t>",
    b"<t><!-- c --><?pi data?><![CDATA[<raw>]]>tail</t>",
    b'<?xml version="1.0" encoding="ISO-8859-1"?><t n="\xe9"/>',
    b'<?xml version="1.0" encoding="windows-1252"?><t n="\x80"/>',
    b'<?xml version="1.0" encoding="TF-8"?><t/>',
    "<t n='é'/>".encode("utf-16"),
    "<t n='é'/>".encode("utf-32"),
    b'<t xmlns="urn:x"><u xmlns:p="urn:p" p:a="1"/></t>',
    b"<p:t/>",
    b"<t a='1' a='2'/>",
    b"\xef\xbb\xbf<t/>",
    b"<t>\xff</t>",
    b"",
    b"<t>",
    b"<t/><u/>",
    b"<t}x/>",
]


@pytest.mark.parametrize("data", HOSTILE)
def test_hostile_documents_are_refused_or_read_the_same(data):
    assert_same(data)


def test_entities_are_refused():
    with pytest.raises(Exception, match="EntitiesForbidden"):
        safe_xml.fromstring(HOSTILE[0])


SEED = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201">'
    b'<Players><Player name="Aa" firstName="Ann" rank="3k"/></Players>'
    b'<Games><Game roundNumber="1" whitePlayer="AAANN" blackPlayer="B"/></Games>'
    b"<!-- x --></Tournament>\n"
)
PIECES = [b"<", b">", b"&", b";", b"&amp;", b"&x;", b'"', b"=", b"/", b"\x00", b"\xc3",
          b"xmlns", b"<!DOCTYPE Tournament>", b"]]>", b"<![CDATA[", b"<!ENTITY e 'v'>"]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(0, len(SEED)), st.integers(0, 4), st.sampled_from(PIECES)),
        max_size=4,
    )
)
def test_edited_documents_parse_the_same(edits):
    data = SEED
    for at, cut, piece in edits:
        data = data[:at] + piece + data[at + cut :]
    assert_same(data)
