"""User-tunable search settings kept beside an index (``settings.json``).

Unlike the other index files this one is meant to be edited (by hand or by
``citerag tune-threshold``), so it is validated on load instead of being
covered by the manifest's checksums.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from citerag.errors import IndexCorrupted

SETTINGS_FILE = "settings.json"


class IndexSettings(BaseModel):
    model_config = ConfigDict(extra="allow")

    min_score: float | None = None  # below it, a hit does not count ("not found")
    retriever: str | None = None  # default retriever for search/ask

    def write(self, directory: Path) -> None:
        data = self.model_dump(exclude_none=True)
        path = Path(directory) / SETTINGS_FILE
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def read(cls, directory: Path) -> "IndexSettings":
        path = Path(directory) / SETTINGS_FILE
        if not path.is_file():
            return cls()
        try:
            return cls.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError, ValidationError) as exc:
            raise IndexCorrupted(f"{path} is not valid settings JSON ({exc}); fix or delete it") from exc
