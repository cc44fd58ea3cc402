"""Built-in criteria. Each module is an ordinary plugin: it implements ``sodos_criteria``
exactly as a third-party distribution would, and is registered under the plugin name
``builtin.<module>`` (block one with ``disable = ["builtin.sodos"]``).

Forms: ``SOSW``/``SOSM`` (and SOSOS, SODOS, SOS-1, SOS-2, CUSS) are the W (NBW) and
M (MMS) forms of docs/rules.md §1; the bare name (``SOS``) is its own criterion that
takes the system's form (W in a Swiss, M in a McMahon); ``SODOMS`` is SODOSM.
"""

MODULES = (
    "nbw",
    "mms",
    "sos",
    "sos_1",
    "sos_2",
    "sosos",
    "sodos",
    "sodoms",
    "cuss",
    "ext",
    "exr",
    "dc",
    "sdc",
    "cat",
    "rank",
    "rating",
    "cps",
    "sts",
    "sosts",
    "null",
)
