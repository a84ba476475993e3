"""The rule cores' small functions, pinned where tests/mutation/run mutmut found a mutant that
no test caught (issue 28): each test names the rule it holds.  The big behaviours are pinned in
test_pinned_rules.py; these are the edges around them."""

from __future__ import annotations

import pytest

from workbench.jsontext.pointer import (escape_token, normalized_path, pointer_of, split_pointer,
                                        unescape_token)

# --------------------------------------------------------------------------- jsontext/pointer.py


@pytest.mark.parametrize("name, token", [("a/b", "a~1b"), ("m~n", "m~0n"), ("~1", "~01"),
                                         ("/~", "~1~0"), ("", ""), ("plain", "plain")])
def test_pointer_tokens_escape_and_unescape_per_rfc_6901(name, token):
    assert escape_token(name) == token
    assert unescape_token(token) == name
    assert split_pointer("/" + token + "/0") == [name, "0"]
    assert pointer_of([name, 0]) == "/" + token + "/0"
