"""``workbench convert`` as a user runs it (a new process): the converted text on standard
output, what did not travel placed in FILE on standard error, ``--json`` the API's answer from the
real server, and the exit statuses of the README's table."""

from __future__ import annotations

import json

from conftest import run_workbench

REQUEST = {"input": [
    {"type": "message", "role": "user", "content": "Weather in Zürich?"},
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {"type": "function_call", "call_id": "call_1", "name": "get_weather",
     "arguments": '{"city":"Zürich","lat":47.3769,"big":123456789012345678901234567890}'},
    {"type": "function_call_output", "call_id": "call_1", "output": "4 °C"}]}


def _file(tmp_path, value, name="t.json") -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False,
                                                                    indent=1), encoding="utf-8")
    return str(path)


def test_convert_prints_the_converted_text_and_places_what_did_not_travel(tmp_path):
    path = _file(tmp_path, REQUEST)
    code, out, err = run_workbench("convert", "--to", "anthropic", path, env={"NO_COLOR": "1"})
    assert code == 0, err
    msgs = json.loads(out)["messages"]
    use = msgs[1]["content"][0]
    assert use["type"] == "tool_use" and use["id"] == "call_1"
    assert '"big": 123456789012345678901234567890' in out and '"lat": 47.3769' in out
    assert msgs[2]["content"][0] == {"type": "tool_result", "tool_use_id": "call_1",
                                     "content": "4 °C"}
    # the reasoning item is item 1 of input: its line in the file (indent=1: line 8)
    lines = open(path, encoding="utf-8").read().split("\n")
    line = next(i for i, t in enumerate(lines, 1) if '"reasoning"' in t) - 1
    assert f"{path}:{line}:" in err and "not portable reasoning" in err


def test_convert_json_is_the_api_answer(server, tmp_path):
    text = json.dumps(REQUEST, ensure_ascii=False)
    path = _file(tmp_path, text)
    code, out, _err = run_workbench("convert", "--to", "gemini", path, "--json")
    assert code == 0
    status, answer = server.api("convert", {"text": text, "to": "gemini"})
    assert status == 200 and json.loads(out) == answer


def test_convert_exit_statuses(tmp_path):
    # 1: the converted text has an error finding under the target's rules
    dangling = {"input": [{"type": "message", "role": "user", "content": "a"},
                          {"type": "function_call", "call_id": "c1", "name": "f",
                           "arguments": "{}"},
                          {"type": "message", "role": "user", "content": "b"}]}
    code, out, err = run_workbench("convert", "--to", "anthropic", _file(tmp_path, dangling))
    assert code == 1 and "unanswered_call" in err and json.loads(out)["messages"]
    code, _out, _err = run_workbench("convert", "--to", "gemini", _file(tmp_path, dangling))
    assert code == 0   # Gemini accepts it: a warning
    # 2: cannot convert (a duplicate key inside the arguments), placed in the file
    dup = {"input": [{"type": "function_call", "call_id": "c", "name": "f",
                      "arguments": '{"a":1,"a":2}'}]}
    path = _file(tmp_path, dup, "dup.json")
    code, out, err = run_workbench("convert", "--to", "chat", path)
    assert code == 2 and out == ""
    lines = open(path, encoding="utf-8").read().split("\n")
    line, text = next((i, t) for i, t in enumerate(lines, 1) if '"arguments"' in t)
    column = text.index('"arguments"') + 1
    assert f"{path}:{line}:{column}:" in err and "'a' twice" in err
    # 2: a kind that does not convert; 64: a target that does not exist
    code, _out, err = run_workbench("convert", "--to", "chat", "-",
                                    stdin=b'{"type": "function_call", "call_id": "c"}')
    assert code == 2 and "do not convert" in err
    code, _out, err = run_workbench("convert", "--to", "cobol", path)
    assert code == 64 and "invalid choice" in err


def test_convert_from_tells_a_text_only_anthropic_request(tmp_path):
    text = {"system": "Be brief.", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "hi"}]}]}
    path = _file(tmp_path, text)
    code, out, err = run_workbench("convert", "--to", "open_responses", "--from", "anthropic",
                                   path, "--json")
    answer = json.loads(out)
    assert code == 0 and answer["from"] == "anthropic"
    assert json.loads(answer["text"])["input"][0]["content"] == "Be brief."
    code, out, _err = run_workbench("convert", "--to", "open_responses", path, "--json")
    auto = json.loads(out)
    assert auto["from"] == "chat"   # told from the text: it is Chat-shaped too
    assert any(e["pointer"] == "/system" for e in auto["not_portable"])
