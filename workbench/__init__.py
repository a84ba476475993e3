"""JSON Workbench: a local tool for looking hard at JSON and gating LLM tool calls."""

__version__ = "0.1.0"
