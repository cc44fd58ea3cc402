"""Criteria that misbehave the ways a service must survive (tests of sodos serve only).

The tournament's name says how long SLEEP sleeps ("sleep 3" → 3 s), so one loaded
plugin serves every test.
"""

from __future__ import annotations

import os
import time

from sodos_hookspecs import Breakdown, Criterion, hookimpl


def sleep(ctx):
    name = ctx.tournament.name
    time.sleep(float(name.split()[1]) if name.startswith("sleep ") else 0)
    return Breakdown(denominator=1, totals=[0] * ctx.size)


def crash(ctx):
    os._exit(3)  # as a segfault in a C extension would: the process is gone


def boom(ctx):
    raise RuntimeError("secret: /home/operator/.config/token=abc123")


@hookimpl
def sodos_criteria():
    return [
        Criterion("SLEEP", "sleeps for the seconds in the tournament's name", sleep),
        Criterion("CRASH", "ends its process", crash),
        Criterion("BOOM", "raises with a secret in the message", boom),
    ]
