"""A store target as it may be printed or logged: a URL's password masked (which backend a
target names is `livetb.backends`' to say)."""

from __future__ import annotations

import re


def shown(target: str) -> str:
    """`target` as it may be printed or logged: a URL's password masked (a path is kept)."""
    target = re.sub(r"^(postgres(?:ql)?://[^:/@?]*):[^@/?]*@", r"\1:***@", target)
    return re.sub(r"^(postgres(?:ql)?://.*[?&]password=)[^&]*", r"\1***", target)
