"""The Gate view: walks one tool-call item through its dialect's rules and gives one verdict
(``replay-rules.md`` for Open Responses items, ``agents-rules.md`` for Agents API actions).

The package face; the rooms behind it:

* :mod:`.rules` — the rule texts, codes and order of both dialects;
* :mod:`.engine` — the one rule engine (:func:`~.engine.decide`) and :class:`Gate`;
* :mod:`.arguments` — reading an arguments string (rule 6);
* :mod:`.toolset` — the tools to check against (read by :mod:`workbench.tools`, compiled once);
* :mod:`.walk` — the explained walk (steps, positions, the comparison with the original);
* :mod:`.agents` — the Agents API answer: door 1's review, door 2's report, the tool_result;
* :mod:`.sentences` — the explanations;  :mod:`.envelope` — what a pasted non-item is;
* :mod:`.entry` — the ways in.  (The gallery of ready cases is :mod:`workbench.gallery`.)
"""

from .engine import Gate
from .entry import REQUEST, gate, gate_value, handle, prepare
from .rules import AGENTS_RULES, RULES, VERDICTS

__all__ = ["REQUEST", "handle", "Gate", "gate", "gate_value", "prepare", "RULES",
           "VERDICTS", "AGENTS_RULES"]
