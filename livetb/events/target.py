"""What a store target names: a `postgresql://` (or `postgres://`) URL is PostgreSQL, anything
else the path of a SQLite file; and the target as it may be printed."""

from __future__ import annotations

import re

_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str) -> bool:
    """Whether `target` names a PostgreSQL database rather than a SQLite file."""
    return target.startswith(_SCHEMES)


def shown(target: str) -> str:
    """`target` as it may be printed or logged: a URL's password masked."""
    if not is_url(target):
        return target
    target = re.sub(r"^(postgres(?:ql)?://[^:/@?]*):[^@/?]*@", r"\1:***@", target)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", target)
