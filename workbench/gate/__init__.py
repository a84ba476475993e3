"""The Gate view: walks one tool-call item through format → schema → diff and gives one verdict
(the rules of ``replay-rules.md``)."""

from .core import REQUEST, RULES, VERDICTS, Gate, gate, gate_value, handle, page_context, prepare

__all__ = ["REQUEST", "handle", "page_context", "Gate", "gate", "RULES", "VERDICTS", "gate_value", "prepare"]
