"""Idle workers go to waiting requests first come, first served (serve/pool.py)."""

from __future__ import annotations

import threading
import time

from sodos_plugin.serve.pool import _Idle


def wait_until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_waiting_requests_get_workers_in_the_order_they_asked():
    idle = _Idle()
    got: dict[str, object] = {}
    threads = []
    for k, name in enumerate(("first", "second", "third"), 1):
        thread = threading.Thread(target=lambda n=name: got.__setitem__(n, idle.get(5)))
        thread.start()
        threads.append(thread)
        wait_until(lambda k=k: len(idle.waiting) == k)
    for worker in ("w1", "w2", "w3"):
        idle.put(worker)  # type: ignore[arg-type]
    for thread in threads:
        thread.join(5)
    assert got == {"first": "w1", "second": "w2", "third": "w3"}
    assert idle.qsize() == 0 and not idle.waiting


def test_an_idle_worker_is_not_taken_past_a_waiting_request():
    idle = _Idle()
    got = []
    thread = threading.Thread(target=lambda: got.append(idle.get(5)))
    thread.start()
    wait_until(lambda: len(idle.waiting) == 1)
    idle.put("w1")  # type: ignore[arg-type]
    thread.join(5)
    assert got == ["w1"]
    idle.put("w2")  # type: ignore[arg-type]
    assert idle.get(0) == "w2"  # nobody waiting: at once


def test_a_request_that_waited_too_long_leaves_the_line():
    idle = _Idle()
    started = time.monotonic()
    assert idle.get(0.05) is None
    assert time.monotonic() - started >= 0.04
    assert not idle.waiting
    idle.put("w1")  # type: ignore[arg-type]
    assert idle.qsize() == 1 and idle.get(0) == "w1"
