"""Schemathesis against the project's own OpenAPI description (/api/openapi.json): generated
requests for every operation must get answers that match the description — no 5xx, documented
status codes, response bodies of the documented shape (issue 8)."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from workbench.web.openapi import spec

pytestmark = pytest.mark.slow

schema = schemathesis.openapi.from_dict(spec())


@pytest.fixture(scope="module")
def base_url(server):
    return server.url


@schema.parametrize()
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_api_matches_its_description(case, base_url):
    response = case.call(base_url=base_url, timeout=30)
    assert response.status_code < 500, response.text[:500]
    # a request of the right shape may still carry content that cannot be processed (invalid
    # JSON text, say): the API answers that with a documented 422, so "schema-valid data must be
    # accepted" does not hold for this API and is left out
    case.validate_response(response, excluded_checks=[positive_data_acceptance])
