"""A plugin with a misspelt hook name (tests only): pluggy's check_pending rejects it."""

from sodos_hookspecs import Criterion, hookimpl


@hookimpl
def sodos_critera():  # misspelt on purpose
    return [Criterion("NEVER", "never registered", lambda ctx: None)]
