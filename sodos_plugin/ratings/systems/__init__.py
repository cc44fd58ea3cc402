"""Built-in rating systems. Each module is an ordinary plugin: it implements
``sodos_rating_systems`` exactly as a third-party distribution would, and is registered
under the plugin name ``builtin.<module>`` (block one with ``disable = ["builtin.whr"]``).

* :mod:`.egf` — EGF GoR, the 2021 formula (``formula = "2021"``) or the one before it
  (``"pre2021"``): per tournament, docs/rules.md §10.2-10.4;
* :mod:`.glicko2` — Glicko-2 as Glickman wrote it (``glicko2``) and OGS's preset
  (``ogs``: one game per period, its clamps and rank scale), docs/rules.md §10.5-10.6;
* :mod:`.whr` — Whole-History Rating (Coulom; GoShrine's implementation), §10.7.

Shared steps (periods, seeding from ranks) are in :mod:`sodos_plugin.ratings.periods`.
"""

MODULES = ("egf", "glicko2", "whr")
