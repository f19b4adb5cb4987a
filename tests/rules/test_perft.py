"""Move generation pinned against the committed fixed-seed count table (a regression, like chess perft)."""
import json

import pytest

from advisor.engine import games
from advisor.perft import TABLE, table

PINNED = json.loads(TABLE.read_text()) if TABLE.exists() else {}


@pytest.mark.parametrize("gid", sorted(games()))
def test_perft_table_matches(gid):
    assert gid in PINNED, f"no perft row for {gid}: run python -m advisor.perft --write {gid} and review it"
    assert table(gid) == PINNED[gid]
