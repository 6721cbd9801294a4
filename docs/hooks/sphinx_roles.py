"""griffe extension: Sphinx roles in docstrings (``:func:`solve```) read as code on the site.

The package's docstrings cross-reference with reStructuredText roles, which Python's help()
shows as written; Markdown would print the role's name.  Each role becomes an inline code
span of its target (``~`` and a leading ``.`` dropped): shown as code, never a link that could
break the ``--strict`` build.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|data|mod|meth|attr|exc|obj):`~?\.?([^`]+)`")


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(r"`\1`", obj.docstring.value)
