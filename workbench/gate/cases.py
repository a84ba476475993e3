"""Moved: the gallery is :mod:`workbench.gallery` (this name stays for old imports)."""

from ..gallery import SESSION_CASES, TRANSCRIPT_CASES  # noqa: F401
from ..gallery import by_name as case_by_name  # noqa: F401
from ..gallery.items import *  # noqa: F401,F403
from ..gallery.items import CASES, NAMESPACE_TOOL, OK_ITEM, SALES_SCHEMA, SALES_TOOL  # noqa: F401
