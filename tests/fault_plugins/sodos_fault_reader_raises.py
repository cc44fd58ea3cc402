"""A reader that claims ``*.bad.json`` and raises while reading; one whose claims() raises."""

from sodos_hookspecs import Reader, hookimpl


def read(paths, options):
    raise IndexError("reader exploded")


def claims_raises(path, head):
    if path.name.endswith(".claims.json"):
        raise OSError("claims exploded")
    return False


def wrong_result(paths, options):
    return {"not": "a ReadResult"}


@hookimpl
def sodos_readers():
    return [
        Reader("bad-json", "raises", lambda p, h: p.name.endswith(".bad.json"), read),
        Reader("claims-raises", "raises in claims", claims_raises, read),
        Reader("wrong-json", "wrong", lambda p, h: p.name.endswith(".wrong.json"), wrong_result),
    ]
