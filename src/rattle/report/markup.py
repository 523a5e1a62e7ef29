"""HTML text escaping for every page rattle writes (model output is untrusted text)."""

from __future__ import annotations

import html


def esc(value: object) -> str:
    """``value`` as HTML text, quotes escaped too (safe in attributes)."""
    return html.escape(str(value), quote=True)
