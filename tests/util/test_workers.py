"""Tasks shared by this process and its workers (sodos_plugin.util.workers.in_order):
results in task order whoever computed them, this process computing too, failures
raised where their result would be, and no worker left behind."""

from __future__ import annotations

import gc
import multiprocessing
import os
import random
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin.util import workers
from sodos_plugin.util.workers import WorkerLost, in_order


def square_after(task: tuple[int, float], offset: int, between=None) -> tuple[int, int, bool]:
    """``task``'s number squared plus ``offset`` after a pause; who computed it, and
    whether ``between`` was given (this process's calls only)."""
    number, pause = task
    end = time.perf_counter() + pause
    while time.perf_counter() < end:
        if between is not None:
            between()
        time.sleep(pause / 10 or 0)
    return number * number + offset, os.getpid(), between is not None


def no_worker_left() -> bool:
    for child in multiprocessing.active_children():
        child.join(5)
    return not multiprocessing.active_children()


@given(
    pauses=st.lists(st.sampled_from([0.0, 0.001, 0.005, 0.02]), min_size=0, max_size=12),
    processes=st.integers(1, 4),
)
@settings(max_examples=12, deadline=None)
def test_results_come_in_task_order_whoever_computed_them(pauses, processes) -> None:
    tasks = list(enumerate(pauses))
    results = list(in_order(square_after, tasks, (7,), processes))
    assert [value for value, _, _ in results] == [n * n + 7 for n, _ in tasks]
    assert no_worker_left()


def test_this_process_computes_tasks_beside_its_workers() -> None:
    # the first tasks are slow, so that this process finds the next result not done and
    # takes tasks itself; its own calls are the ones given ``between``
    tasks = [(n, 0.2 if n < 2 else 0.01) for n in range(12)]
    results = list(in_order(square_after, tasks, (0,), 2))
    here = {pid for _, pid, between in results if between}
    there = {pid for _, pid, between in results if not between}
    assert here == {os.getpid()}
    assert there and os.getpid() not in there  # and the worker computed the others
    assert no_worker_left()


def test_one_process_computes_every_task_here_without_between() -> None:
    results = list(in_order(square_after, [(3, 0), (4, 0)], (1,), 1))
    assert results == [(10, os.getpid(), False), (17, os.getpid(), False)]


def fails_on(task: int, bad: int, between=None) -> int:
    if task == bad:
        raise ValueError(f"task {task} is bad")
    time.sleep(0.01)
    return task


@pytest.mark.parametrize("bad", [0, 5, 11])
def test_a_tasks_exception_is_raised_where_its_result_would_be(bad) -> None:
    given_back = []
    with pytest.raises(ValueError, match=f"task {bad} is bad"):
        for value in in_order(fails_on, list(range(12)), (bad,), 3):
            given_back.append(value)
    assert given_back == list(range(bad))  # every result before it, in order
    assert no_worker_left()


def ends_its_process(task: int, between=None) -> int:
    if between is None and task == 0:  # the first worker's first task: gone without a word
        os._exit(9)
    time.sleep(0.02)
    return task


def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    with pytest.raises(WorkerLost, match=r"ended \(exit code 9\) before giving its result"):
        list(in_order(ends_its_process, list(range(8)), (), 2))
    assert no_worker_left()


def unpicklable(task: int, between=None):
    return (lambda: task) if between is None else task


def test_a_result_that_cannot_be_sent_back_is_an_error_naming_it() -> None:
    with pytest.raises(RuntimeError, match="PicklingError|AttributeError|pickle"):
        list(in_order(unpicklable, list(range(6)), (), 2))
    assert no_worker_left()


def test_a_caller_that_stops_early_leaves_no_worker_behind() -> None:
    results = in_order(square_after, [(n, 0.05) for n in range(10)], (0,), 3)
    assert next(results)[0] == 0
    results.close()
    assert no_worker_left()


def workers_start() -> None:
    gc.disable()


def gc_state(task: int, between=None) -> tuple[str, bool]:
    time.sleep(0.01 * random.random())
    return ("here" if between is not None else "worker"), gc.isenabled()


def test_workers_run_start_first_and_this_process_does_not() -> None:
    states = list(in_order(gc_state, list(range(12)), (), 2, workers_start))
    assert {state for where, state in states if where == "worker"} == {False}
    assert {state for where, state in states if where == "here"} <= {True}
    assert gc.isenabled()


ORPHAN = """
import os, sys, time
from sodos_plugin.util.workers import in_order

def slow(task, between=None):
    time.sleep(0.05)
    return os.getpid()

results = in_order(slow, list(range(40)), (), 3)
print(" ".join(str(p) for p in {next(results), next(results), next(results)}), flush=True)
os._exit(0)  # this process gone without stopping its workers
"""


def test_workers_end_when_this_process_ends_however_it_ends() -> None:
    # a forked worker holds its own pipe's far end unless it closes it: then the pipe of
    # tasks never closes and the worker waits for a task forever
    done = subprocess.run(
        [sys.executable, "-c", ORPHAN], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    deadline = time.monotonic() + 20
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [p for p in pids if _alive(p)]
        time.sleep(0.05)
    assert not alive


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by init) is gone for this purpose
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def test_a_full_run_ends_with_its_workers() -> None:
    # every result taken: the workers are told to stop, not left waiting
    code = (
        "import multiprocessing\n"
        "from sodos_plugin.util.workers import in_order\n"
        "def size(number, between=None):\n"
        "    return abs(number)\n"
        "print(sum(in_order(size, list(range(-50, 50)), (), 4)))\n"
        "print(len(multiprocessing.active_children()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["2500", "0"], done.stderr


def test_pipes_grow_where_the_system_lets_them() -> None:
    left, right = multiprocessing.Pipe(duplex=False)
    try:
        room = workers._grown(right)
    finally:
        left.close()
        right.close()
    if sys.platform.startswith("linux"):
        assert room >= 1 << 16
    else:
        assert room == workers.SMALL_PIPE


def read_in_a_daemon(answers) -> None:
    answers.put(list(in_order(square_after, [(n, 0) for n in range(6)], (0,), 4)))


def test_a_daemonic_process_computes_every_task_itself() -> None:
    # a host's own pool worker is daemonic: multiprocessing lets it start no process
    answers = multiprocessing.Queue()
    daemon = multiprocessing.Process(target=read_in_a_daemon, args=(answers,), daemon=True)
    daemon.start()
    results = answers.get(timeout=60)
    daemon.join(60)
    assert [value for value, _, _ in results] == [n * n for n in range(6)]
    assert {pid for _, pid, _ in results} == {daemon.pid}


SPAWNED = """
import multiprocessing, pathlib, sys
multiprocessing.set_start_method(sys.argv[1])
from sodos_plugin import Host
from sodos_plugin.readers.sgf import history, walk
walk.PARALLEL_MIN_UNITS = history.PARALLEL_MIN_UNITS = 1
walk.MIN_CHUNK = 3
folder = pathlib.Path(sys.argv[2])
for n in range(40):
    r, board = n // 4 + 1, n % 4  # 10 rounds of 4 boards, 8 players
    black, white = (board + r) % 8, (board + r + 4) % 8
    (folder / f"{n:02d}.sgf").write_text(
        f"(;FF[4]PB[P{black}]PW[P{white}]RE[B+R]RO[{r}]DT[2026-01-{r:02d}]EV[Cup];B[pd];W[dp])"
    )
host = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
one, two = (host.read([folder], jobs=j) for j in (1, 3))
print(one == two, len(one.tournament.games))
one, two = (host.history([folder], jobs=j) for j in (1, 3))
print(list(one.games) == list(two.games) and one.files == two.files, len(one.games))
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_workers_started_afresh_give_the_same_reads(method, tmp_path) -> None:
    # what macOS and Windows start (spawn), and Python 3.14's default on Linux
    # (forkserver): the task function, its arguments and the pipes go to the worker
    # pickled, and it closes nothing it does not hold
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{method} is not available here")
    done = subprocess.run(
        [sys.executable, "-c", SPAWNED, method, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "40", "True", "40"], done.stdout + done.stderr
