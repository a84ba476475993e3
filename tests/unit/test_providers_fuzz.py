"""Mutated Anthropic, Gemini and OTel recordings never crash the transcript core: every answer
is a result or a WorkbenchError (a 4xx), never another exception (a 500).  Seeded."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_transcript_fuzz import mutations_answered

REAL = Path("/work/shared/reference/realworld2")
SEED_FILES = ["anthropic/0013_anthropic-sdk-go__cassettes__tool_runner_concurrent__i3_request.json",
              "anthropic/0062_anthropic-sdk-typescript__incomplete_partial_json_response.sse",
              "anthropic/0061_anthropic-sdk-typescript__stream-a-toolrefusal.sse",
              "anthropic/0066_anthropic-sdk-typescript__nockFixtures__ToolRunner__2_response.json",
              "gemini/0142_opentelemetry-python-contrib__cassettes__test_tool_events__i0_request.json",
              "gemini/0288_llm-gemini__test_gemini__test_tools_with_gemini_3_thought_signatures__i0_stream.json",
              "gemini/0287_llm-gemini__test_gemini__test_tools__i2_request.json",
              "otel/0016_logfire__test_claude_agent_sdk__L758.json",
              "otel/0019_logfire__test_litellm__L103.json",
              "otel/0005_opentelemetry-python-contrib__test_function_calling_experimental__L141.json"]


@pytest.mark.skipif(not REAL.is_dir(), reason="realworld2 is not on this machine")
def test_provider_mutations_answer_or_refuse_never_crash():
    seeds = [(REAL / f).read_text(encoding="utf-8") for f in SEED_FILES]
    answered, refused = mutations_answered(seeds, random.Random(20261202), 1200)
    print(f"\nprovider mutations: {answered} answered, {refused} refused with a 4xx, 0 crashed")
    assert answered > 400
