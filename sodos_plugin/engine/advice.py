"""The seed's advice as warnings — never silent, never fatal (docs/rules.md §2).

Sensei's Library, "SODOS": its use as the *first* tiebreak in Swiss events is
controversial; several organisations advise against SODOS in McMahon events; SODOMS
"definitely should not be used when negative initial McMahon scores are used".
OpenGotha warns about mixing W (wins) and M (McMahon score) criteria (docs/rules.md §2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

SODOS_FAMILY = {"SODOS", "SODOSW", "SODOSM", "SODOMS"}
ON_MMS = {"SODOSM", "SODOMS"}
#: The built-in criteria by the score they read; generic names (SOS, SOSOS ...) take
#: the system's: W in a Swiss, M in a McMahon.
ON_WINS = {"NBW", "SOSW", "SOSW-1", "SOSW-2", "SOSOSW", "SODOSW", "CUSSW"}
ON_MCMAHON = {"MMS", "SOSM", "SOSM-1", "SOSM-2", "SOSOSM", "SODOSM", "SODOMS", "CUSSM"}


def advice(
    system: str,
    criteria: Sequence[str],
    start_scores: Callable[[], Sequence[int]] | None = None,
) -> list[str]:
    """Warnings for a criteria list; ``start_scores`` is called only when SODOMS is used."""
    warnings = []
    names = [c.upper() for c in criteria]
    if system == "swiss" and len(names) > 1 and names[1] in {"SODOS", "SODOSW"}:
        warnings.append(
            f"{criteria[1]} as the first tiebreak in a Swiss is controversial "
            "(Sensei's Library, SODOS); consider SOS first"
        )
    if system == "mcmahon":
        used = [c for c, n in zip(criteria, names) if n in SODOS_FAMILY]
        if used:
            warnings.append(
                f"{', '.join(used)} in a McMahon: several organisations advise against "
                "SODOS/SODOMS in McMahon events (Sensei's Library, SODOS)"
            )
    wins = [c for c, n in zip(criteria, names) if n in ON_WINS]
    mcmahon = [c for c, n in zip(criteria, names) if n in ON_MCMAHON]
    if wins and mcmahon:
        warnings.append(
            f"{', '.join(wins)} (on wins) mixed with {', '.join(mcmahon)} (on McMahon scores): "
            "OpenGotha warns against mixing W and M criteria"
        )
    on_mms = [
        c for c, n in zip(criteria, names) if n in ON_MMS or (n == "SODOS" and system == "mcmahon")
    ]
    if on_mms and start_scores is not None and any(s < 0 for s in start_scores()):
        warnings.append(
            f"{', '.join(on_mms)} with negative start McMahon scores: SODOMS must not be used "
            "when negative start scores are used (Sensei's Library, SODOS)"
        )
    return warnings
