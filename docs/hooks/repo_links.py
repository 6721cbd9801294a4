"""mkdocs hook: links from a docs page to files of the repository outside ``docs/``.

The pages are read on GitHub as well as on the site, so they link committed files such as
``../results/pe424/report.md``.  mkdocs cannot publish files outside ``docs_dir`` and would
warn (an error under ``--strict``); this hook checks that each such file exists in the
repository, failing the build when one does not (a broken link stays an error), and writes the
link as its repository path in code, which the site cannot link to.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

LINK = re.compile(r"\[([^\]]+)\]\((\.\./[^)#\s]+)(#[^)\s]*)?\)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    docs = Path(config["docs_dir"]).resolve()
    here = (docs / page.file.src_path).parent
    repository = docs.parent

    def repository_path(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        path = (here / target).resolve()
        if path.is_relative_to(docs):
            return match.group(0)  # inside docs/: mkdocs checks it
        if not path.is_relative_to(repository) or not path.exists():
            raise PluginError(f"{page.file.src_path}: broken link to {target}")
        shown = path.relative_to(repository).as_posix()
        return text if text.strip("`") == shown else f"{text} (`{shown}` in the repository)"

    return LINK.sub(repository_path, markdown)
