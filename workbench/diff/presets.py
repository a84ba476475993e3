"""Presets: named sets of diff options for a common comparison.

``providers`` — two providers' answers to one request.  Each provider mints its own ids,
timestamps and usage counts, so those differ in every answer and hide the one difference that
matters.  The preset

* ignores the members each provider mints for itself (:data:`PROVIDER_FIELDS`: ids, call ids,
  timestamps, usage, system fingerprints, encrypted reasoning content), at any depth of the
  document but never inside the JSON held by a string (an ``id`` inside ``arguments`` is the
  caller's data);
* aligns the items of ``output`` (and ``input``) arrays by their ``type`` and ``name``, then by
  position (a reasoning item one provider adds does not shift the function calls);
* compares JSON inside strings (``arguments``) as parsed JSON.

The answer's ``ignored`` lists every ignore pattern with how many differing members it hid, so
nothing is hidden silently; ``preset_keep`` turns a pattern of the preset back on.
"""

from __future__ import annotations

PROVIDER_FIELDS: list[tuple[str, str]] = [
    ("$..id", "ids of responses, items and messages"),
    ("$..call_id", "function call ids"),
    ("$..response_id", "response ids"),
    ("$..item_id", "item ids"),
    ("$..previous_response_id", "the previous response's id"),
    ("$..created_at", "timestamps"),
    ("$..created", "timestamps (Chat Completions)"),
    ("$..completed_at", "timestamps"),
    ("$..started_at", "timestamps"),
    ("$..updated_at", "timestamps"),
    ("$..expires_at", "timestamps"),
    ("$..usage", "token counts"),
    ("$..system_fingerprint", "backend fingerprints"),
    ("$..encrypted_content", "encrypted reasoning content"),
]

PRESETS = {"providers": PROVIDER_FIELDS}


def preset_patterns(name: str, keep=()) -> list[tuple[str, str]]:
    """The ``(pattern, what)`` pairs of a preset, without those the user turned back on."""
    kept = {k.strip() for k in keep}
    return [(p, what) for p, what in PRESETS[name] if p not in kept]
