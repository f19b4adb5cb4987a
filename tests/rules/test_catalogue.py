"""Every game has a catalogue entry in seeds/ that agrees with its engine."""
import pytest

from advisor.catalogue import REQUIRED, entry
from advisor.engine import games, get_game


@pytest.mark.parametrize("gid", sorted(games()))
def test_entry_is_complete_and_matches_the_engine(gid):
    e = entry(gid)
    missing = [k for k in REQUIRED if k not in e]
    assert not missing, f"seeds/{gid}.toml lacks {missing}"
    g = get_game(gid)
    assert e["id"] == gid and e["name"] == g.name and e["packs"] == g.packs
    layout = g.layout(g.check_options({}))
    assert sorted(a["name"] for a in e["areas"]) == sorted(layout.names)
    for d in e["decisions"]:
        assert {"question", "decision", "reason"} <= set(d)
        if d.get("option"):
            assert d["option"] in {o.name for o in g.option_list}, f"decision names unknown option {d['option']}"
    assert e["rules"] and all(isinstance(r, str) and r for r in e["rules"])
