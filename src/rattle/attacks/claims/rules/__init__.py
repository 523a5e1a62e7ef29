"""Rule-based claim attacks: offline and deterministic under a seed (paper §2.1 definitions).

One module per technique (temporal, numerical, exaggeration, semantic, reversal, distraction,
multihop, question, cloze) over shared helpers (``common``: subjects, protected name spans,
inflection; ``attach``: where a clause about an entity goes). Every attack takes the claim,
its spaCy parse and a seeded ``random.Random`` and returns a ``ClaimAttack`` whose truth label
is computed from what was written, or a ``Dropped`` with the reason.
"""

from rattle.attacks.claims.rules.cloze import cloze
from rattle.attacks.claims.rules.common import inflect, sentence_count
from rattle.attacks.claims.rules.distraction import COMPONENTS, ENTITY_TYPES, FABRICATED, distraction
from rattle.attacks.claims.rules.exaggeration import exaggeration
from rattle.attacks.claims.rules.multihop import multihop
from rattle.attacks.claims.rules.numerical import numbers, numerical
from rattle.attacks.claims.rules.question import to_question
from rattle.attacks.claims.rules.reversal import reversal
from rattle.attacks.claims.rules.semantic import semantic
from rattle.attacks.claims.rules.temporal import REFERENCE_EVENTS, temporal, time_expressions

__all__ = ["COMPONENTS", "ENTITY_TYPES", "FABRICATED", "REFERENCE_EVENTS", "cloze", "distraction",
           "exaggeration", "inflect", "multihop", "numbers", "numerical", "reversal", "semantic",
           "sentence_count", "temporal", "time_expressions", "to_question"]
