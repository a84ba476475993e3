"""Agents API sessions (``agents-rules.md``): pending actions and history calls kept apart,
``tool_result`` events matched to actions by the exact ``(turn_id, call_id)`` pair, the
orchestration items, door 1 (the tools are strict) and door 2 (each pending action through the
gate's ``agents_api`` dialect), and the chain ``{session_id, links}``.

What can be pasted: a session object (``items``, ``required_actions``, ``status``, ``agent``), a
session's creation body (``agent``, ``environment``, ``input``), an ``agent.session.*`` event
(``requires_action`` carries the session), a list of session events (JSON array, JSON Lines or
SSE), or ``{"session": {...}, "events": [...]}``.  A ``tool_result`` is an event of type
``agent.session.input.tool_result`` (or an object with ``turn_id``, ``call_id`` and
``success``).

Chain links are those of the rules (``agent``, ``turn``, ``function_call``, ``tool_result``,
``subagent`` with ``via``) plus the other orchestration items under their own type; each link
may carry its place, ``broken: true`` and the indices of its findings.
"""

from __future__ import annotations

from typing import Any, Callable

from ..dialects import agents
from ..dialects.model import named
from ..errors import WorkbenchError
from ..jsontext import dumps_value
from .read import split_array
from .report import SEVERITY, Place, edit_diff, show_diff
from .report import key as key_of

RESULT_TYPE = agents.RESULT_TYPE
ORCHESTRATION = agents.ORCHESTRATION


def _q(v) -> str:
    return f'"{v}"' if isinstance(v, str) else "missing"


_is_result = agents.is_result


def _text(v) -> str | None:
    return v if isinstance(v, str) and v else None


def _object_in(v) -> dict | None:
    """``v`` as an object: itself, or the object a JSON text in it holds (an output written
    as a string); None for anything else (a text that is not an object is not read)."""
    if type(v) is dict:
        return v
    if isinstance(v, str) and v.lstrip().startswith("{"):
        from ..jsontext import NOT_QUICK, quick_value
        got = quick_value(v)
        return got if got is not NOT_QUICK and type(got) is dict else None
    return None


def subagent_of(it: dict) -> tuple[str | None, str]:
    """The id of the subagent a ``create_subagent_call`` made, and the pointer (relative to
    the item) it was read at: its ``subagent_id``, else the ``subagent_id`` / ``agent_id`` in
    its arguments or its output (agents-rules.md: "each subagent joined to its
    create_subagent_call"); ``(None, "")`` when it names none.  The item's own ``agent_id``
    is who asked, never the subagent."""
    if _text(it.get("subagent_id")) is not None:
        return it["subagent_id"], "/subagent_id"
    for field in ("arguments", "output"):
        inner = _object_in(it.get(field))
        if inner is None:
            continue
        for k in ("subagent_id", "agent_id"):
            if _text(inner.get(k)) is not None:
                return inner[k], f"/{field}" + (f"/{k}" if type(it[field]) is dict else "")
    return None, ""


def _pair_of(v: dict) -> tuple:
    """The exact pair (turn_id, call_id) that ties an action, a call and a result."""
    return (key_of(v.get("turn_id")), key_of(v.get("call_id")))


def _objects(placed, check=None):
    """The ``(object, place)`` entries of ``placed`` (values that are not objects skipped),
    calling ``check`` (a deadline's) before each entry when given."""
    for v, place in placed:
        if check is not None:
            check()
        if type(v) is dict:
            yield v, place


def _pinned_link(obj: str, v: dict, place, **extra) -> dict:
    """A chain link for a call or a result: its pins and name as written; a pin the paste does
    not give is left out and said in ``unknown`` (agents-rules.md: drawn as unknown, with the
    reason, never as null)."""
    link = {"object": obj}
    for k in ("call_id", "turn_id", "name"):
        if k in v and v[k] is not None and (k != "name" or obj == "function_call"):
            link[k] = v[k]
    missing = [k for k in ("call_id", "turn_id") if k not in link]
    if missing:
        link["unknown"] = f"this {obj} has no " + " and no ".join(missing)
    link.update(extra)
    link.update({"_at": place, "_findings": []})
    return link


def _call_link(call: dict, place, *, pending: bool) -> dict:
    return _pinned_link("function_call", call, place, pending=pending)


class Session:
    def __init__(self, ctx):
        self.ctx = ctx
        self.report = ctx.report
        self.session_id = None
        self.agent: dict | None = None
        self.agent_place = None
        self.history: list[tuple[dict, Place]] = []     # session items
        self.actions: list[tuple[dict, Place]] = []     # required_actions
        self.results: list[tuple[dict, Place]] = []     # tool_result events
        self.events_given = False
        self.explicit_events = False

    # -- gathering ----------------------------------------------------------------------

    def take_session(self, s: dict, piece, base: str) -> None:
        if not isinstance(self.session_id, str):
            sid = s.get("id") if isinstance(s.get("id"), str) else s.get("session_id")
            self.session_id = sid if isinstance(sid, str) else self.session_id
        if type(s.get("agent")) is dict and self.agent is None:
            self.agent = s["agent"]
            self.agent_place = Place(piece, base + "/agent")
        for key in ("items", "input", "data"):
            items = s.get(key)
            if isinstance(items, list):
                for i, it in enumerate(items):
                    self.history.append((it, Place(piece, f"{base}/{key}/{i}")))
        ra = s.get("required_actions")
        if isinstance(ra, list):
            seen = {_pair_of(a) for a, _ in _objects(self.actions)}
            for i, a in enumerate(ra):
                if type(a) is dict and _pair_of(a) in seen:
                    continue  # the same action in a later snapshot
                self.actions.append((a, Place(piece, f"{base}/required_actions/{i}")))

    def take_event(self, ev: Any, piece, base: str) -> None:
        if type(ev) is not dict:
            return
        if _is_result(ev):
            self.results.append((ev, Place(piece, base)))
            return
        if type(ev.get("session")) is dict:
            self.take_session(ev["session"], piece, base + "/session")
        elif "required_actions" in ev or "items" in ev or type(ev.get("agent")) is dict or \
                isinstance(ev.get("data"), list):
            self.take_session(ev, piece, base)
        elif agents.is_item(ev):   # a bare list of session items
            self.history.append((ev, Place(piece, base)))
            return
        if type(ev.get("item")) is dict:
            self.history.append((ev["item"], Place(piece, base + "/item")))
        if isinstance(ev.get("session_id"), str) and self.session_id is None:
            self.session_id = ev["session_id"]

    def gather(self) -> None:
        src = self.ctx.src
        if src.form == "json":
            v = src.value
            piece = src.pieces[0]
            if isinstance(v, list):
                self.events_given = True
                for p in split_array(src):
                    self.take_event(p.value, p, "")
            elif type(v.get("session")) is dict and isinstance(v.get("events"), list):
                self.explicit_events = True
                self.take_session(v["session"], piece, "/session")
                for i, ev in enumerate(v["events"]):
                    self.take_event(ev, piece, f"/events/{i}")
            else:
                self.take_event(v, piece, "")
        else:
            self.events_given = True
            for b in src.bad:
                self.report.bad_line(b, "the event on it is lost.")
            for p in src.pieces:
                self.take_event(p.value, p, "")
        self.ctx.events = len(src.pieces)

    # -- the checks ---------------------------------------------------------------------

    def run(self) -> None:
        """Gather the session, then its checks in order: door 1 (the tools), the history
        items, the pending actions (door 2), the results matched to them, the actions left
        unanswered; the chain and the results go to the context."""
        ctx = self.ctx
        self.gather()
        self._tools()
        self.subagents = self._subagents()
        self.links: list[dict] = []
        self.turn_links: dict[str, dict] = {}
        self.call_links: dict[tuple, dict] = {}
        self.current_turn = None
        self.history_pairs: dict[tuple, tuple] = {}
        self.pending: dict[tuple, dict] = {}
        self._agent_link()
        for it, place in _objects(self.history, ctx.deadline.check):
            self._history_item(it, place)
        for a, place in _objects(self.actions, ctx.deadline.check):
            self._pending_action(a, place)
        # events count as given when the text holds a result, or is a snapshot with its
        # events ({"session": …, "events": […]})
        self.events_given = bool(self.results) or self.explicit_events
        results_out = [self._result(res, place) for res, place in self.results]
        self._unanswered()
        self._answered_by(results_out)
        ctx.results = results_out
        for link in self.links:
            if not link.get("_findings"):
                link.pop("_findings", None)
        ctx.chain = {"session_id": self.session_id, "links": self.links}
        ctx.outputs += len(self.results)

    # -- the chain ----------------------------------------------------------------------

    def _agent_link(self) -> None:
        """The agent's link: ``agent.id`` (or its name), else the ``agent_id`` the items name
        that is no subagent's (who asked for a subagent, who sent a message); an agent object
        without either is drawn as unknown, with the reason (agents-rules.md: "the chain names
        every id it was given")."""
        agent = self.agent
        if agent is not None:
            agent_id = _text(agent.get("id")) or _text(agent.get("name"))
            link = {"object": "agent", "_at": self.agent_place}
            if agent_id is not None:
                link["id"] = agent_id
            else:
                link["unknown"] = "the agent object has neither an id nor a name"
            self.links.append(link)
            return
        for it, place in _objects(self.history):
            who = _text(it.get("agent_id"))
            if who is not None and who not in self.subagents and \
                    it.get("type") != "function_call":
                self.links.append({"object": "agent", "id": who,
                                   "_at": place.child("/agent_id")})
                return

    def _turn(self, tid, place) -> None:
        if isinstance(tid, str) and tid != self.current_turn:
            self.current_turn = tid
            if tid not in self.turn_links:
                link = {"object": "turn", "id": tid, "_at": place}
                self.turn_links[tid] = link
                self.links.append(link)

    # -- history items: one check per item type -------------------------------------------

    def _history_item(self, it: dict, place) -> None:
        t = it.get("type")
        if t == "handoff":
            self._handoff(it, place)
        elif _is_result(it):
            self.results.append((it, place))
        else:
            self._turn(it.get("turn_id"), place)
            if t == "function_call":
                self._history_call(it, place)
            elif t in ORCHESTRATION:
                self._orchestration(it, t, place)

    def _handoff(self, it: dict, place) -> None:
        f = self.report.add("handoff_type",
                            "There is no item type handoff in the Agents API: this confuses "
                            "the SDK's in-process handoff object with the session's "
                            "orchestration items (create_subagent_call, "
                            "send_subagent_input_call …). Use those.", place.child("/type"))
        link = {"object": "handoff", "_at": place, "_findings": [f] if f else []}
        if _text(it.get("id")) is not None:
            link["id"] = it["id"]
        self.links.append(link)

    def _history_call(self, it: dict, place) -> None:
        pair = _pair_of(it)
        who = it.get("agent_id") if "agent_id" in it else it.get("from")
        link = _call_link(it, place, pending=False)
        if isinstance(who, str) and who in self.subagents:
            link["agent_id"] = who
            self._flag(link, "subagent_function_call",
                       f"This function call is attributed to the subagent {_q(who)}: "
                       "subagents cannot run function tools, so the host must not execute "
                       "it. Route the request through the main agent.",
                       place.child("/agent_id" if "agent_id" in it else "/from"),
                       [("subagent", self.subagents[who])])
        self.history_pairs.setdefault(pair, (it, place, link))
        self.call_links.setdefault(pair, link)
        self.links.append(link)
        self.ctx.call(agents.read_call(it, place, 0), pending=False, role="history")

    def _orchestration(self, it: dict, t: str, place) -> None:
        if t == "create_subagent_call":
            sid, _where = subagent_of(it)
            link = {"object": "subagent", "via": "create_subagent_call", "_at": place}
            if sid is not None:
                link["id"] = sid
            else:
                link["unknown"] = ("this create_subagent_call names no subagent (no subagent_id "
                                   "or agent_id in it, its arguments or its output)")
            if _text(it.get("agent_id")) is not None:
                link["agent_id"] = it["agent_id"]   # who asked
            via_id = _text(it.get("call_id")) or _text(it.get("id"))
            if via_id is not None:
                link["via_id"] = via_id
            self.links.append(link)
            return
        link = {"object": t, "_at": place}
        ident = _text(it.get("id")) or _text(it.get("call_id"))
        if ident is not None:
            link["id"] = ident
        for k in ("subagent_id", "from", "agent_id"):
            if isinstance(it.get(k), str):
                link[k] = it[k]
        self.links.append(link)

    # -- pending actions: door 2 through the gate ---------------------------------------

    def _pending_action(self, a: dict, place) -> None:
        ctx = self.ctx
        pair = _pair_of(a)
        self._turn(a.get("turn_id"), place)
        r = ctx.gates.agents(a)
        link = _call_link(a, place, pending=True)
        if pair in self.pending:
            self._flag(link, "duplicate_call_id",
                       f"Two pending actions share the pair turn_id {_q(pair[0])} / "
                       f"call_id {_q(pair[1])}: one result cannot say which it answers.",
                       place.child("/call_id"), [("first", self.pending[pair]["place"])])
        entry = ctx.call(agents.read_call(a, place, 0, pending=True), r["verdict"],
                         pending=True, role="pending", report=r.get("report"),
                         tool_result=r.get("tool_result"), reason=r.get("reason"))
        self.pending.setdefault(pair, {"action": a, "place": place, "gate": r, "link": link,
                                       "answered": [], "entry": entry, "near": []})
        self.links.append(link)
        self.call_links[pair] = link

    # -- results: the registered result checks, tried in order ---------------------------

    def _result(self, res: dict, place) -> dict:
        self.ctx.deadline.check()
        pair = _pair_of(res)
        link = _pinned_link("tool_result", res, place)
        if "success" in res and res["success"] is not None:
            link["success"] = res["success"]
        self._result_shape(res, place, link)
        matched = None
        for _code, check in RESULT_CHECKS:
            claimed, matched = check(self, res, pair, place, link)
            if claimed:
                break
        self._place_result_link(link, matched, pair)
        return {"_at": place, "turn_id": res.get("turn_id"), "call_id": res.get("call_id"),
                "success": res.get("success"), "matched": matched}

    def _place_result_link(self, link: dict, matched, pair) -> None:
        """A result's link right after its call's (and the results before it), else last."""
        links = self.links
        target = self.call_links.get(matched) if matched is not None else None
        if target is not None and target in links:
            at = links.index(target) + 1
            at += sum(1 for x in links[at:] if x.get("object") == "tool_result" and
                      x.get("call_id") == pair[1])
            links.insert(at, link)
        else:
            links.append(link)

    def _unanswered(self) -> None:
        for p, info in self.pending.items():
            if info["answered"] or info["near"]:
                continue
            a = info["action"]
            if self.events_given:
                self._flag(info["link"], "action_unanswered",
                           f"The pending action {named(a.get('name'))} (turn_id {_q(p[0])}, "
                           f"call_id {_q(p[1])}) has no tool_result among the events: the "
                           "session waits for it. Gate it and answer it with the same pair.",
                           info["place"])
            else:
                self.report.add("pending_call",
                                f"The pending action {named(a.get('name'))} (turn_id {_q(p[0])}, "
                                f"call_id {_q(p[1])}) waits for a tool_result: the gate says "
                                f"{info['gate'].get('verdict')}; answer with the same pair.",
                                info["place"])

    def _answered_by(self, results_out: list) -> None:
        """Each pending call's ``answered_by``: the indices of the results that answer it."""
        index_of_pair: dict = {}
        for k, r in enumerate(results_out):
            if r["matched"] is not None:
                index_of_pair.setdefault(r["matched"], []).append(k)
        for p, info in self.pending.items():
            if info["entry"] is not None:
                info["entry"]["answered_by"] = index_of_pair.get(p, [])

    def _flag(self, link: dict, code: str, message: str, place, related=()):
        """A finding that breaks ``link`` (the chain shows it at the link)."""
        f = self.report.add(code, message, place, related)
        link["_findings"].append(f)
        return f

    def _result_shape(self, res: dict, place, link) -> None:
        success = res.get("success")
        if type(success) is not bool:
            self._flag(link, "result_success_not_boolean",
                       ("This tool_result has no success" if "success" not in res else
                        f"success is {dumps_value(success).decode('utf-8')}, not true or false")
                       + ": the host decides nothing from it (\"true\" is not true). Write "
                       "success as a boolean.",
                       place.child("/success" if "success" in res else ""))
        if success is True and "output" in res and not isinstance(res["output"], str):
            self._flag(link, "result_output_not_string",
                       "success: true with an output that is not a string: serialise "
                       "the tool's result first (\"output\": \"{\\\"status\\\":"
                       "\\\"paid\\\"}\").", place.child("/output"))
        if success is False and not (isinstance(res.get("error"), str) and res["error"].strip()):
            self._flag(link, "result_failure_without_error",
                       "success: false with no error: neither a person nor the model "
                       "can tell what failed. Name every failing field, e.g. "
                       "\"order_id failed schema: expected ^[A-Z]-\\d{4}$\".",
                       place.child("/error" if "error" in res else "/success"))

    def _near(self, pair, pending):
        t, c = pair
        best = None
        for p in pending:
            diffs = {}
            if p[1] != c:
                d = edit_diff(c, p[1]) if isinstance(c, str) and isinstance(p[1], str) else None
                if d is None:
                    continue
                diffs["call_id"] = d
            if p[0] != t:
                d = edit_diff(t, p[0]) if isinstance(t, str) and isinstance(p[0], str) else None
                if d is None and "call_id" in diffs:
                    continue
                diffs["turn_id"] = d or [{"at": 0, "left": str(t), "right": str(p[0])}]
            if not diffs:
                continue
            size = sum(len(d) for d in diffs.values())
            if best is None or size < best[2]:
                best = (p, diffs, size)
        return None if best is None else (best[0], best[1])

    def _request_tools(self) -> list:
        """The request's tool definitions (the ``tools`` field) as a list, for door 1."""
        tools = getattr(self.ctx.gates, "tools_value", None)
        if isinstance(tools, dict):
            tools = tools.get("tools") if isinstance(tools.get("tools"), list) else [tools]
        return tools if isinstance(tools, list) else []

    def _subagents(self) -> dict:
        out = {}
        for it, place in _objects(self.history):
            if it.get("type") == "create_subagent_call":
                sid, _where = subagent_of(it)
                if sid is not None:
                    out.setdefault(sid, place)
            elif it.get("type") in ("send_subagent_input_call", "interrupt_subagent_call") and \
                    isinstance(it.get("subagent_id"), str):
                out.setdefault(it["subagent_id"], place)
        return out

    def _tools(self) -> None:
        """Tools from the text's agent.tools when the request gave none; door 1 for each."""
        ctx = self.ctx
        tools = self.agent.get("tools") if self.agent else None
        if ctx.gates.tools is None and isinstance(tools, list) and tools:
            from .calls import Gates
            try:
                ctx.gates = Gates(dumps_value(tools).decode("utf-8"), ctx.limits)
            except WorkbenchError as exc:
                ctx.tools_unread = exc.message
        from_request = False
        if not isinstance(tools, list):
            tools = self._request_tools()
            from_request = True
            if not tools:
                return
        from ..validate.review import review_schema
        for i, t in enumerate(tools):
            if type(t) is not dict or t.get("type", "function") != "function":
                continue
            params = t.get("parameters")
            if type(params) is not dict:
                continue
            try:
                notes = review_schema(params)
            except Exception:  # pragma: no cover - the review never fails on a dict
                notes = []
            for n in notes[:20]:
                inner = f"/{i}/parameters{n.get('pointer', '')}"
                if from_request:  # the place is in the request's tools, not in the text
                    place, extra = None, {"field": "tools", "tools_pointer": inner}
                else:
                    place = Place(self.agent_place.piece,
                                  f"{self.agent_place.pointer}/tools{inner}")
                    extra = {}
                self.report.add("tool_not_strict",
                                f"Door 1: the tool {named(t.get('name'))} is not strict — "
                                f"{n.get('message')}. A wide schema lets the model fill in "
                                "what the host never meant to accept.", place,
                                review=n.get("code"), **extra)


# --------------------------------------------------------------------------- the result checks
# (code, function) in the order they are tried; each returns (claimed, matched pair or None).

RESULT_CHECKS: list[tuple[str, Callable]] = []


def _result_check(code: str):
    def register(fn):
        assert code in SEVERITY, code
        RESULT_CHECKS.append((code, fn))
        return fn
    return register


@_result_check("duplicate_output")
def _answers_pending(s: Session, res: dict, pair, place, link):
    """The pair of a pending action: its answer (a second one is duplicate_output; success
    after the gate refused the action is result_executed_after_failed_check)."""
    info = s.pending.get(pair)
    if info is None:
        return False, None
    if info["answered"]:
        s._flag(link, "duplicate_output",
                f"A second tool_result answers turn_id {_q(pair[0])} / call_id {_q(pair[1])}: "
                "send exactly one result per action.", place.child("/call_id"),
                [("action", info["place"]), ("first", info["answered"][0])])
    info["answered"].append(place)
    if res.get("success") is True and info["gate"].get("execute") is False:
        s._flag(link, "result_executed_after_failed_check",
                f"This result says success: true, but the action's arguments fail the tool's "
                f"schema ({info['gate'].get('verdict')}): the host executed a call its own "
                "check refused. Answer success: false with the failing fields instead.",
                place.child("/success"), [("action", info["place"])])
    return True, pair


@_result_check("history_call_answered")
def _answers_history(s: Session, res: dict, pair, place, link):
    if pair not in s.history_pairs:
        return False, None
    it, hplace, _hlink = s.history_pairs[pair]
    s._flag(link, "history_call_answered",
            f"This result answers the history call {named(it.get('name'))} (call_id {_q(pair[1])}), "
            "which is not pending: it was answered in its own turn. Only required_actions "
            "wait for a result; drop this one.", place.child("/call_id"), [("call", hplace)])
    return True, pair


@_result_check("result_pair_mismatch")
def _near_pending(s: Session, res: dict, pair, place, link):
    near = s._near(pair, s.pending)
    if near is None:
        return False, None
    p, diffs = near
    info = s.pending[p]
    words = "; ".join(f"{k} {_q(pair[0] if k == 'turn_id' else pair[1])} for "
                      f"{_q(p[0] if k == 'turn_id' else p[1])} ({show_diff(d)})"
                      for k, d in diffs.items())
    rel = {"turn_id": p[0], "call_id": p[1]}
    if "call_id" in diffs:
        rel["diff"] = diffs["call_id"]
    if "turn_id" in diffs:
        rel["turn_diff"] = diffs["turn_id"]
    f = s._flag(link, "result_pair_mismatch",
                f"This result's pair differs from the pending action's: {words}. The harness "
                "matches the pair character for character, so the action stays unanswered "
                "and the turn stalls. Copy turn_id and call_id exactly.",
                place.child("/call_id" if "call_id" in diffs else "/turn_id"),
                [("action", info["place"], rel)])
    info["near"].append(f)
    info["link"]["_findings"].append(f)
    return True, None


@_result_check("result_without_action")
def _answers_nothing(s: Session, res: dict, pair, place, link):
    s._flag(link, "result_without_action",
            f"This result (turn_id {_q(pair[0])}, call_id {_q(pair[1])}) answers no pending "
            "action and no history call: nothing waits for it. Check the pair against "
            "required_actions.", place.child("/call_id"))
    return True, None


def analyse_session(ctx) -> None:
    Session(ctx).run()
