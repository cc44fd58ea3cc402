"""Group commit: the writes of several threads on one store connection, committed
together (docs/ratings.md, "A server's live ratings").

Contract: :meth:`GroupCommit.run` runs ``work`` (a function that writes through the
connection and returns its answer) in a transaction and returns its answer once that
transaction is committed, or raises its error. The works that threads hand in while a
commit is under way wait, in the order they came, and the first of them then runs them
all in one transaction, each in its own savepoint: a work that fails (a conflict, a
malformed game) is rolled back alone and its error is its caller's, the others are
committed. One commit — one ``fsync`` with ``synchronous = FULL`` — serves every work of
the group, which is what makes a service answering many one-game requests at once
faster than one transaction a request. Nothing is answered before its commit: a work
whose transaction did not commit raises, and nothing of it was written.

Works that come with a ``part`` (a list: the games of a request) can be done together:
consecutive ones of a group are first tried as one, ``together(parts)`` giving each
part's answers (for the store: their games rated as one batch, in waves, by one call of
the system's formula instead of one a game). If that raises, it is rolled back and the
works are run one by one, each with its own answer or error, as if never tried together.
``together`` must give each part the answers its work would have given run alone after
the parts before it.

A database error (the store locked, full, read-only or damaged) rolls back the whole
transaction; the work during which it came gets it, and the other works of the group are
run again in a new transaction (each work reads what it needs inside the transaction,
so running it again gives the answer it would have given). A work alone in its group runs
without a savepoint, as one transaction.

Why a leader and not a writer thread: the thread that waits for its own answer does the
writing, so a store used from one thread (the Python API) runs its work on that thread
with no hand-over; under load the lead is handed to the first waiting thread when a
group is committed, so that no caller writes other callers' games for ever.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["GroupCommit"]


class _Ticket:
    """One work handed in: its answer or error, and the lock its thread waits on (held
    from the start; released when the work is done, or when the thread is to lead)."""

    __slots__ = ("done", "error", "part", "value", "wake", "work")

    def __init__(self, work: Callable[[], Any], part: list | None):
        self.work = work
        self.part = part
        self.wake = threading.Lock()
        self.wake.acquire()
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None


class _Failed(Exception):
    """A database error during ``ticket``'s work (None: during works tried together):
    the transaction is rolled back."""

    def __init__(self, ticket: _Ticket | None, error: BaseException):
        self.ticket, self.error = ticket, error


class GroupCommit:
    """The writes through ``db`` (a connection in autocommit mode that takes ``BEGIN
    IMMEDIATE``, ``SAVEPOINT``, ``COMMIT``); ``errors``: the database's error classes;
    ``stored``: a database error as the store says it; ``together``: the parts of
    several works done as one (see the module docstring), or None."""

    def __init__(
        self,
        db: Any,
        errors: tuple[type[BaseException], ...],
        stored: Callable[[BaseException], BaseException],
        together: Callable[[list[list]], list[list]] | None = None,
    ):
        self.db = db
        self.errors = errors
        self.stored = stored
        self.together = together
        self._lock = threading.Lock()  # guards _waiting and _leading
        self._waiting: list[_Ticket] = []
        self._leading = False

    def run(self, work: Callable[[], Any], part: list | None = None) -> Any:
        """``work()``'s answer once it is committed (see the module docstring)."""
        ticket = _Ticket(work, part if self.together is not None else None)
        with self._lock:
            self._waiting.append(ticket)
            lead = not self._leading
            self._leading = True
        if not lead:
            ticket.wake.acquire()  # done by a leader, or handed the lead
        if not ticket.done:
            self._lead()
        if ticket.error is not None:
            raise ticket.error
        return ticket.value

    def _lead(self) -> None:
        """Commit the works waiting (this thread's among them), then hand the lead to the
        first work that came meanwhile, or give it up."""
        try:
            with self._lock:
                group, self._waiting = self._waiting, []
            merge = True
            try:
                while group:
                    group, merge = self._transaction(group, merge)
            except BaseException as error:  # an interrupt: every work left is answered
                for ticket in group:
                    if not ticket.done:
                        ticket.error = error
                        self._finish(ticket)
                raise
        finally:
            with self._lock:
                if self._waiting:
                    self._waiting[0].wake.release()
                else:
                    self._leading = False

    @staticmethod
    def _finish(ticket: _Ticket) -> None:
        ticket.done = True
        ticket.wake.release()

    def _rollback(self) -> None:
        with contextlib.suppress(*self.errors):
            self.db.execute("ROLLBACK")

    def _transaction(self, group: list[_Ticket], merge: bool) -> tuple[list[_Ticket], bool]:
        """Run ``group`` in one transaction and answer its works; returns the works to run
        again (a database error rolled the transaction back under them) and whether they
        may be tried together."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except self.errors as error:
            for ticket in group:
                ticket.error = self.stored(error)
                self._finish(ticket)
            return [], True
        try:
            if len(group) > 1:
                self._saved(group, merge)
            elif not self._alone(group[0]):
                self._finish(group[0])
                return [], True
            self.db.execute("COMMIT")
        except _Failed as failed:
            self._rollback()
            if failed.ticket is None:  # during works tried together: each again alone
                return group, False
            failed.ticket.value, failed.ticket.error = None, self.stored(failed.error)
            self._finish(failed.ticket)
            return [t for t in group if t is not failed.ticket], merge
        except self.errors as error:  # the commit failed: nothing was written
            self._rollback()
            for ticket in group:
                ticket.value, ticket.error = None, self.stored(error)
        except BaseException:
            self._rollback()
            raise
        for ticket in group:
            self._finish(ticket)
        return [], True

    def _alone(self, ticket: _Ticket) -> bool:
        """One work, the transaction its own; False: its error rolled it back."""
        try:
            ticket.value, ticket.error = ticket.work(), None
        except self.errors as error:
            raise _Failed(ticket, error) from None
        except Exception as error:
            self._rollback()
            ticket.value, ticket.error = None, error
            return False
        return True

    def _saved(self, group: list[_Ticket], merge: bool) -> None:
        """Several works, each in its savepoint; consecutive works with parts first tried
        together (when ``merge``)."""
        k = 0
        while k < len(group):
            end = k
            while merge and end < len(group) and group[end].part is not None:
                end += 1
            if end - k >= 2 and self._together(group[k:end]):
                k = end
                continue
            for ticket in group[k : max(end, k + 1)]:
                self._savepoint(ticket)
            k = max(end, k + 1)

    def _together(self, tickets: list[_Ticket]) -> bool:
        """Whether the parts of ``tickets`` were done as one (else nothing of them was)."""
        db = self.db
        try:
            db.execute("SAVEPOINT sodos_work")
            try:
                answers = self.together([t.part for t in tickets])  # type: ignore[misc]
            except self.errors:
                raise
            except Exception:  # one of them fails: each is run alone, for its own answer
                db.execute("ROLLBACK TO SAVEPOINT sodos_work")
                db.execute("RELEASE SAVEPOINT sodos_work")
                return False
            db.execute("RELEASE SAVEPOINT sodos_work")
        except self.errors as error:
            raise _Failed(None, error) from None
        for ticket, answer in zip(tickets, answers, strict=True):
            ticket.value, ticket.error = answer, None
        return True

    def _savepoint(self, ticket: _Ticket) -> None:
        db = self.db
        try:
            db.execute("SAVEPOINT sodos_work")
            try:
                ticket.value, ticket.error = ticket.work(), None
            except self.errors:
                raise
            except Exception as error:
                db.execute("ROLLBACK TO SAVEPOINT sodos_work")
                ticket.value, ticket.error = None, error
            db.execute("RELEASE SAVEPOINT sodos_work")
        except self.errors as error:
            raise _Failed(ticket, error) from None
