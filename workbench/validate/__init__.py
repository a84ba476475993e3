"""The Validate view: JSON Schema (2020-12, 2019-09, draft 7/6/4), every error located, nothing
fetched, bounded pattern time, and a strictness review of tool schemas."""

from .core import REQUEST, compile_schema, handle, run, tool_parameters, validate_value, validity_check

__all__ = ["REQUEST", "handle", "compile_schema", "run", "validate_value", "tool_parameters", "validity_check"]
