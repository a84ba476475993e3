"""OpenTelemetry GenAI traces: the only place that knows how spans carry calls
(``providers-rules.md``, "Traces").

* A trace is an OTLP JSON export (``resourceSpans[].scopeSpans[].spans[]``, attributes as
  ``[{key, value: {stringValue | intValue | …}}]``), a list of spans (``{name, context,
  parent, start_time, attributes}``, as SDK snapshots write them) or one span's attribute map.
* Calls and answers come from the GenAI conventions — ``gen_ai.input.messages`` /
  ``gen_ai.output.messages`` (JSON text or a list; parts ``{type: "tool_call", id, name,
  arguments}`` and ``{type: "tool_call_response", id, response | result}``), an
  ``execute_tool`` span's ``gen_ai.tool.call.id`` / ``.name`` / ``.arguments`` / ``.result`` —
  or OpenInference's flattened ``llm.input_messages.N.message.tool_calls.M.tool_call.*``.
* :func:`spans` gives the spans in time order (start, parent before child); :func:`read_span`
  the neutral entries of one span, each placed at the attribute that holds it.  A call seen
  again in a later span's history is the same call (the caller dedups by id).
* The gate walks a call as the Open Responses item carrying it.
"""

from __future__ import annotations

import re
from typing import Any

from . import open_responses
from .model import Call, Other, Output, Place

NAME = "otel"
GATE = "open_responses"
KINDS = ("otel_trace",)
# the names of the id a call carries and the one its answer names (gen_ai.tool.call.id, or
# the tool_call id of OpenInference; in every finding's words)
ID_WORDS = ("id", "id")
LABELS = {"otel_trace": "an OpenTelemetry trace (GenAI spans)"}
_OI = re.compile(r"llm\.(input|output)_messages\.(\d+)\.message\.(.+)")
_OI_CALL = re.compile(r"tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments)")
# an id made up by the instrumentation for a call the provider gave no id (Vertex: name_0)
INVENTED = re.compile(r"(.+)_(\d+)")


def _esc(k: str) -> str:
    return k.replace("~", "~0").replace("/", "~1")


def is_attributes(v: Any) -> bool:
    return type(v) is dict and any(isinstance(k, str) and (
        k.startswith("gen_ai.") or k.startswith("llm.input_messages") or
        k.startswith("llm.output_messages")) for k in v)


def is_span(v: Any) -> bool:
    return type(v) is dict and ("attributes" in v) and any(
        k in v for k in ("context", "span_id", "spanId", "trace_id", "traceId", "start_time",
                         "startTimeUnixNano"))


def recognise(v: Any) -> str | None:
    if type(v) is dict and isinstance(v.get("resourceSpans"), list):
        return "otel_trace"
    if is_span(v) or (is_attributes(v) and not isinstance(v.get("type"), str)):
        return "otel_trace"
    return None


def envelope_kind(v: dict) -> str | None:
    return None


def is_call(node: Any, parent_key: Any = None) -> bool:
    return False   # calls live inside attribute texts: the envelope search does not find them


# --------------------------------------------------------------------------- spans

class Span:
    """One span: its attributes as ``{key: (value, place)}``, ids, name and start."""

    __slots__ = ("name", "trace_id", "span_id", "parent_id", "start", "attrs", "place", "order")

    def __init__(self, name, trace_id, span_id, parent_id, start, attrs, place, order):
        self.name, self.trace_id, self.span_id, self.parent_id = name, trace_id, span_id, parent_id
        self.start, self.attrs, self.place, self.order = start, attrs, place, order

    def get(self, key: str, default=None):
        a = self.attrs.get(key)
        return a[0] if a is not None else default

    def where(self) -> dict:
        """What every finding about this span also names."""
        return {"trace_id": self.trace_id, "span_id": self.span_id, "span": self.name}


def _otlp_value(v: Any) -> Any:
    if type(v) is not dict:
        return v
    for k in ("stringValue", "boolValue", "doubleValue"):
        if k in v:
            return v[k]
    if "intValue" in v:
        try:
            return int(v["intValue"])
        except (TypeError, ValueError):
            return v["intValue"]
    if "arrayValue" in v and type(v["arrayValue"]) is dict:
        return [_otlp_value(x) for x in v["arrayValue"].get("values") or ()]
    return v


def _num(v: Any) -> Any:
    return v if type(v) in (int, str) else None


def spans(value: Any, piece) -> list[Span]:
    """Every span of a pasted trace, in time order (start, then parent before child)."""
    found: list[Span] = []
    if type(value) is dict and isinstance(value.get("resourceSpans"), list):
        for r, rs in enumerate(value["resourceSpans"]):
            for s, ss in enumerate((rs or {}).get("scopeSpans") or () if type(rs) is dict else ()):
                for k, sp in enumerate((ss or {}).get("spans") or () if type(ss) is dict else ()):
                    if type(sp) is not dict:
                        continue
                    base = f"/resourceSpans/{r}/scopeSpans/{s}/spans/{k}"
                    attrs = {}
                    for j, a in enumerate(sp.get("attributes") or ()):
                        if type(a) is dict and isinstance(a.get("key"), str):
                            attrs[a["key"]] = (_otlp_value(a.get("value")),
                                               Place(piece, f"{base}/attributes/{j}/value"))
                    found.append(Span(sp.get("name"), sp.get("traceId"), sp.get("spanId"),
                                      sp.get("parentSpanId"), _num(sp.get("startTimeUnixNano")),
                                      attrs, Place(piece, base), len(found)))
    elif isinstance(value, list) or is_span(value):
        for i, sp in enumerate(value if isinstance(value, list) else [value]):
            if type(sp) is not dict:
                continue
            base = f"/{i}" if isinstance(value, list) else ""
            a = sp.get("attributes")
            attrs = {k: (v, Place(piece, f"{base}/attributes/{_esc(k)}"))
                     for k, v in (a.items() if type(a) is dict else ())}
            ctx = sp.get("context") if type(sp.get("context")) is dict else {}
            par = sp.get("parent") if type(sp.get("parent")) is dict else {}
            found.append(Span(sp.get("name"), ctx.get("trace_id", sp.get("trace_id")),
                              ctx.get("span_id", sp.get("span_id")),
                              par.get("span_id", sp.get("parent_id")),
                              _num(sp.get("start_time", sp.get("startTimeUnixNano"))),
                              attrs, Place(piece, base), len(found)))
    elif type(value) is dict:
        attrs = {k: (v, Place(piece, f"/{_esc(k)}")) for k, v in value.items()}
        found.append(Span(None, None, None, None, None, attrs, Place(piece, ""), 0))
    # time order; a span without a start keeps its place in the text
    return sorted(found, key=lambda s: (s.start if type(s.start) is int else -1, s.order))


# --------------------------------------------------------------------------- reading

def provider(span: Span) -> str | None:
    p = span.get("gen_ai.provider.name") or span.get("gen_ai.system")
    return p if isinstance(p, str) else None


def _messages(v: Any, parse) -> list:
    if isinstance(v, str):
        try:
            v = parse(v)
        except Exception:
            return []
    return v if isinstance(v, list) else []


def read_span(span: Span, pos0: int, parse) -> list:
    """The neutral entries of one span, in order (its input messages, then its output
    messages, then an ``execute_tool`` span's call and result); ``parse`` reads a JSON text
    exactly.  Each entry's ``item`` is ``(span, part)``."""
    entries: list = []
    pos = pos0
    for key in ("gen_ai.input.messages", "gen_ai.output.messages"):
        a = span.attrs.get(key)
        if a is None:
            continue
        place = a[1]
        for m in _messages(a[0], parse):
            if type(m) is not dict:
                continue
            for part in m.get("parts") or () if isinstance(m.get("parts"), list) else ():
                if type(part) is not dict:
                    continue
                t = part.get("type")
                if t == "tool_call":
                    entries.append(Call(NAME, place, pos, (span, part), name=part.get("name"),
                                        call_id=part.get("id"), id=part.get("id"),
                                        args=part.get("arguments"), status="completed"))
                elif t == "tool_call_response":
                    entries.append(Output(NAME, place, pos, (span, part), call_id=part.get("id")))
                else:
                    entries.append(Other(NAME, place, pos, (span, part),
                                         continues=m.get("role") not in ("system",)))
            pos += 1
    entries += _openinference(span, pos)
    pos = max([pos] + [e.pos + 1 for e in entries])
    cid = span.attrs.get("gen_ai.tool.call.id")
    if cid is not None:
        name = span.get("gen_ai.tool.name")
        args = span.attrs.get("gen_ai.tool.call.arguments")
        entries.append(Call(NAME, cid[1], pos, (span, None), name=name, call_id=cid[0],
                            id=cid[0], args=args[0] if args else None, status="completed"))
        res = span.attrs.get("gen_ai.tool.call.result")
        if res is not None:
            entries.append(Output(NAME, res[1], pos + 1, (span, None), call_id=cid[0]))
    return entries


def _openinference(span: Span, pos0: int) -> list:
    msgs: dict = {}
    for k, (v, place) in span.attrs.items():
        m = _OI.fullmatch(k) if isinstance(k, str) else None
        if m is None:
            continue
        side, n, rest = m.group(1), int(m.group(2)), m.group(3)
        msg = msgs.setdefault((side == "output", n), {"calls": {}, "place": place})
        c = _OI_CALL.fullmatch(rest)
        if c is not None:
            msg["calls"].setdefault(int(c.group(1)), {})[c.group(2)] = (v, place)
        else:
            msg[rest] = v
    entries: list = []
    waiting: list = []   # the ids of the last assistant message's calls, for a tool message
    for pos, ((_out, _n), msg) in enumerate(sorted(msgs.items()), pos0):
        if msg["calls"]:
            waiting = [c.get("id", (None,))[0] for _m, c in sorted(msg["calls"].items())]
        for _m, call in sorted(msg["calls"].items()):
            cid = call.get("id", (None, msg["place"]))
            entries.append(Call(NAME, cid[1], pos, (span, None),
                                name=call.get("function.name", (None,))[0], call_id=cid[0],
                                id=cid[0], args=call.get("function.arguments", (None,))[0],
                                status="completed"))
        if msg.get("role") == "tool":
            # an instrumentation that drops tool_call_id: the answer of the next call in order
            cid = msg["tool_call_id"] if "tool_call_id" in msg else (
                waiting.pop(0) if waiting else None)
            entries.append(Output(NAME, msg["place"], pos, (span, None), call_id=cid))
        elif not msg["calls"]:
            entries.append(Other(NAME, msg["place"], pos, (span, None),
                                 continues=msg.get("role") != "system"))
    return entries


def invented(call: Call) -> bool:
    """The instrumentation made the id up (``get_current_weather_0`` for a call named
    ``get_current_weather``)."""
    m = INVENTED.fullmatch(call.call_id) if isinstance(call.call_id, str) else None
    return m is not None and m.group(1) == call.name


# --------------------------------------------------------------------------- writing

def walkable(call: Call) -> dict:
    return open_responses.write(call)


def write(call: Call) -> dict:
    return {"type": "tool_call", "id": call.call_id, "name": call.name, "arguments": call.args}
