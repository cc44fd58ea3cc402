"""A plugin module that fails to import (tests only)."""

raise RuntimeError("this plugin cannot be imported")
