"""The dialect rooms (issue 22): one reader per envelope into one neutral model, and the calls
list of a transcript agreeing with "walk this call" — the same verdict, for every call of every
gallery case and of every shared recording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import dialects, gallery
from workbench.gate import gate
from workbench.limits import DEFAULT_LIMITS
from workbench.transcript import analyse
from workbench.web import paste

WEATHER_CALL = {"id": "call_w", "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\":\"Lyon\"}"}}


def chat_completion(finish_reason: str | None) -> dict:
    choice = {"index": 0, "message": {"role": "assistant", "content": None,
                                      "tool_calls": [WEATHER_CALL]}}
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    return {"id": "chatcmpl-1", "object": "chat.completion", "choices": [choice]}


def walks(text: str, schema: str = "") -> list[tuple[dict, str | None]]:
    """Each listed call of the Gate page's report for ``text`` and the verdict of walking it
    (the no-JavaScript page's walk form: its item and the tools the page would send)."""
    result = paste.report({"item": text, "schema": schema}, DEFAULT_LIMITS)
    if result is None:
        return []
    tools = schema or result.get("walk_schema") or None
    out = []
    for call in result["calls"][:paste.WALKABLE]:
        item = call.get("walk_item")
        out.append((call, None if item is None else
                    gate(item, tools, dialect=call["rules"])["verdict"]))
    return out


@pytest.mark.parametrize("finish_reason, verdict", [
    ("length", "status"), ("content_filter", "status"), ("tool_calls", "ok"), ("stop", "ok"),
    (None, "ok")])
def test_a_chat_call_walks_to_the_verdict_the_list_shows(finish_reason, verdict):
    # issue 22: cut off by "length", listed `status` (blocked) but walked as completed: ok
    text = json.dumps(chat_completion(finish_reason), indent=1)
    (call,) = analyse(text)["calls"]
    assert call["verdict"] == verdict and call["dialect"] == "chat_completions"
    assert call["walk"]["status"] == ("incomplete" if verdict == "status" else "completed")
    ((listed, walked),) = walks(text)
    assert listed["verdict"] == walked == verdict
    # the one-item gate's envelope gives the same item, and so the same verdict
    env = gate(text)["envelope"]
    assert env["calls"][0]["equivalent"] == call["walk"]
    assert env["calls"][0]["equivalent_verdict"] == verdict


def test_the_one_mapping_reads_and_writes_back():
    c = dialects.chat.read_call(WEATHER_CALL, None, 0, "completed")
    assert (c.dialect, c.name, c.call_id, c.id, c.args) == (
        "chat_completions", "get_weather", "call_w", "call_w", "{\"city\":\"Lyon\"}")
    assert dialects.chat.write(c) == WEATHER_CALL
    assert dialects.walkable(c) == {"type": "function_call", "id": "call_w", "call_id": "call_w",
                                    "name": "get_weather", "arguments": "{\"city\":\"Lyon\"}",
                                    "status": "completed"}
    action = {"type": "function_call", "turn_id": "t1", "call_id": "c1", "name": "f",
              "arguments": {"a": 1}}
    a = dialects.agents.read_call(action, None, 0, pending=True)
    assert dialects.agents.write(a) == action and dialects.walkable(a) is action
    assert dialects.open_responses.write(a)["arguments"] == "{\"a\":1}"


@pytest.mark.parametrize("value, kind", [
    ({"object": "response", "output": []}, "response"), ({"input": []}, "item_list"),
    ({"choices": [{"delta": {}}]}, "chat_stream"), ({"choices": []}, "chat_completion"),
    ({"messages": []}, "chat_messages"), ({"required_actions": []}, "agents_session"),
    ({"type": "response.created"}, "response_stream"), ({"type": "function_call"}, "item")])
def test_one_classifier(value, kind):
    assert dialects.classify(value) == kind


# --------------------------------------------------------------------------- list == walk

def _gallery():
    for c in gallery.ALL:
        yield pytest.param(gallery.text_of(c), gallery.tools_of(c), id=c["name"])


@pytest.mark.parametrize("text, schema", list(_gallery()))
def test_every_gallery_call_walks_to_its_listed_verdict(text, schema):
    for call, walked in walks(text, schema):
        assert walked == call["verdict"], call


RUN_STATES = Path(__file__).resolve().parents[1] / "data" / "run_state"


def _recordings():
    """Every shared recording (realworld, realworld2's providers, the Open Responses fixtures'
    streams) and the SDKs' real run states kept with the tests."""
    from conftest import shared_dir
    files = sorted(RUN_STATES.glob("*/*.json"))
    root = shared_dir()
    if root is None:
        return files
    base = root / "reference" / "realworld"
    files += sorted(p for p in (base / "transcripts").iterdir() if p.name != "index.jsonl")
    files += sorted(p for p in (base / "streams").iterdir() if p.name != "index.jsonl")
    files += sorted(p for p in (root / "reference" / "realworld2").rglob("*") if p.is_file()
                    and p.suffix in (".json", ".sse", ".txt", ".jsonl")
                    and p.name != "index.jsonl")
    files += sorted((root / "reference" / "openresponses-fixtures").glob("stream_*.txt"))
    return files


@pytest.mark.parametrize("path", _recordings(), ids=lambda p: p.name)
def test_every_recorded_call_walks_to_its_listed_verdict(path: Path):
    text = path.read_text(encoding="utf-8")
    for call, walked in walks(text):
        assert walked == call["verdict"], call


def test_every_recorded_item_walks_to_its_listed_verdict():
    from conftest import shared_dir
    root = shared_dir()
    if root is None:
        pytest.skip("../shared is not here")
    lines = (root / "reference/realworld/items.jsonl").read_text(encoding="utf-8").splitlines()
    checked = 0
    for line in lines:
        rec = json.loads(line)
        text = rec.get("text") or json.dumps(rec["item"], indent=1)
        for call, walked in walks(text):
            assert walked == call["verdict"], (rec["source"], call)
            checked += 1
    assert checked > 30


# --------------------------------------------------------------------------- the house

ROOMS = ("workbench.gate", "workbench.transcript", "workbench.dialects", "workbench.gallery",
         "workbench.web.paste")


def _import_graph() -> dict[str, set[str]]:
    """Module -> the workbench modules it imports, imports inside functions included."""
    import ast
    root = Path(__file__).resolve().parents[2] / "workbench"
    files = {}
    for p in root.rglob("*.py"):
        parts = p.relative_to(root.parent).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    graph: dict[str, set[str]] = {}
    for mod, p in files.items():
        pkg = mod if p.name == "__init__.py" else mod.rsplit(".", 1)[0]
        deps = set()
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.ImportFrom):
                base = pkg
                for _ in range(max(n.level - 1, 0)):
                    base = base.rsplit(".", 1)[0]
                target = (base + ("." + n.module if n.module else "")) if n.level else n.module
                for a in n.names:
                    sub = f"{target}.{a.name}"
                    deps.add(sub if sub in files else target)
            elif isinstance(n, ast.Import):
                deps.update(a.name for a in n.names)
        graph[mod] = {d for d in deps if d in files and d != mod}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.add(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(group)
    return out


def test_no_import_circle_in_the_gate_the_transcript_and_the_dialects():
    graph = _import_graph()
    assert "workbench.gate.engine" not in graph["workbench.gate.walk"]   # it was a circle
    touched = [g for g in _cycles(graph) if any(m.startswith(ROOMS) for m in g)]
    assert touched == []


def test_no_function_over_120_lines_in_these_rooms():
    import ast
    root = Path(__file__).resolve().parents[2]
    long = []
    for room in ROOMS:
        base = root / room.replace(".", "/")
        for p in ([base.with_suffix(".py")] if base.with_suffix(".py").exists()
                  else base.rglob("*.py")):
            for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                        n.end_lineno - n.lineno >= 120:
                    long.append((str(p), n.name, n.end_lineno - n.lineno + 1))
    assert long == []


def _texts():
    for c in gallery.ALL:
        yield pytest.param(gallery.text_of(c), gallery.tools_of(c) or None, id=c["name"])
    for p in _recordings():
        yield pytest.param(p.read_text(encoding="utf-8"), None, id=p.name)


def _said(r: dict) -> list[tuple[str, str]]:
    """Every sentence of an answer, with what says it: the findings' messages, each call's
    reason, note and caller link, a chain link's unknown id, the unread tools."""
    out = [(f["code"], f["message"]) for f in r["findings"]]
    for c in r["calls"]:
        out += [("call", c[k]) for k in ("reason", "note") if isinstance(c.get(k), str)]
        if "caller" in c:
            out.append(("caller", c["caller"].get("missing", "")))
    for link in (r["chain"] or {}).get("links", []):
        out.append(("chain", link.get("unknown", "")))
    if r.get("tools_unread"):
        out.append(("tools", r["tools_unread"]))
    return out


@pytest.mark.parametrize("text, tools", list(_texts()))
def test_no_message_prints_none_for_a_missing_value(text, tools):
    import re
    r = analyse(text, tools)
    said = _said(r)
    assert not [w for _who, w in said if re.search(r"\bNone\b|\bundefined\b", w)]
    # null only for a null the text holds (or a schema's words, the spec's or the unread
    # tools', which quote values and name the type "null"), never for a value that is missing
    if "null" not in text:
        assert not [w for who, w in said if who not in ("spec_schema", "tools") and re.search(r"\bnull\b", w)]
    # a chain link names each id it was given, and says an id it was not given is unknown
    for link in (r["chain"] or {}).get("links", []):
        assert None not in link.values(), link


def _shape(r: dict) -> tuple:
    """What must not change when a text is re-written: the calls and the finding codes."""
    return (r["kind"], [(c["call_id"], c["name"], c["verdict"], c.get("role")) for c in r["calls"]],
            sorted(f["code"] for f in r["findings"] if f["code"] != "bom"))


@pytest.mark.parametrize("text, tools", list(_texts()))
def test_a_bom_cr_crlf_or_a_rewrite_reads_the_same(text, tools):
    """issue 23: the same calls and findings whatever the line ends, a BOM, or (for one JSON
    value) compact or indented re-serialisation."""
    base = _shape(analyse(text, tools))
    # a recording saved with a BOM (semantic-kernel's) is read without it too
    bare = text.removeprefix("\ufeff")
    variants = ["\ufeff" + bare, bare, text.replace("\n", "\r\n"), text.replace("\n", "\r")]
    try:
        value = json.loads(bare)
    except ValueError:
        value = None
    if value is not None and "\\u" not in text:   # escapes re-written would move a lone surrogate
        variants += [json.dumps(value, separators=(",", ":"), ensure_ascii=False),
                     json.dumps(value, indent=4, ensure_ascii=False)]
    for v in variants:
        assert _shape(analyse(v, tools)) == base
