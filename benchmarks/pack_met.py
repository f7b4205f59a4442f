"""Pack a published match equity table as the package ships it: backgammon's
``games/backgammon/met.json``, read by :mod:`plies.games.backgammon.cube`.

``MET`` is one of GNU Backgammon's match equity tables (Debian's ``gnubg`` installs them in
``/usr/share/gnubg/met/``; by default ``Kazaross-XG2.xml``, Neil Kazaross's table rolled out by
eXtreme Gammon to 9 points and by gnubg to 15, extended to 25: the modern standard). Its XML
(gnubg's ``met.dtd``) holds the pre-Crawford table, row i and column j the match winning
chance of a side i + 1 points away against one j + 1 away (row and column 0: the Crawford
game), and one post-Crawford row for both sides: entry j the chance of a side j + 1 away
against a side 1 away after the Crawford game. The pack keeps both, the table's name, its
description and its file, and checks it: a pre-Crawford table of n x n chances with 0.5 on the
diagonal and entries (i, j) and (j, i) summing to 1.

Usage (from the repository root)::

    python benchmarks/pack_met.py [MET] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

DEFAULT = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")
SHIPPED = Path(__file__).resolve().parents[1] / "src/plies/games/backgammon/met.json"
TOLERANCE = 1e-4
"""How far a published table's complementary entries may be from summing to 1 (rounding)."""


def read_met(path: Path) -> dict[str, object]:
    """The table in gnubg's XML at ``path``, as the pack writes it."""
    root = ElementTree.parse(path).getroot()
    info = root.find("info")
    pre = root.find("pre-crawford-table")
    post = root.find("post-crawford-table")
    if info is None or pre is None or post is None:
        raise SystemExit(f"{path}: not a gnubg match equity table (info, pre- and post-Crawford)")
    if pre.get("type") != "explicit" or post.get("type") != "explicit":
        raise SystemExit(f"{path}: a table given by parameters, not explicit entries")
    rows = [[float(me.text or "") for me in row.findall("me")] for row in pre.findall("row")]
    posts = [[float(me.text or "") for me in row.findall("me")] for row in post.findall("row")]
    size = len(rows)
    if any(len(row) != size for row in rows) or len(posts) != 1 or len(posts[0]) != size:
        raise SystemExit(f"{path}: the tables are not {size} x {size} and one row of {size}")
    for i in range(size):
        for j in range(size):
            if abs(rows[i][j] + rows[j][i] - 1) > TOLERANCE or not 0 <= rows[i][j] <= 1:
                raise SystemExit(f"{path}: entries ({i}, {j}) and ({j}, {i}) do not sum to 1")
    return {
        "name": info.findtext("name", "").strip(),
        "description": " ".join(info.findtext("description", "").split()),
        "source": f"GNU Backgammon's {path.name} (gnubg's met/ directory)",
        "length": size,
        "pre_crawford": rows,
        "post_crawford": posts[0],
    }


def _json(table: dict[str, object]) -> str:
    """``table`` as JSON, a row of the tables a line."""
    lines = []
    for key, value in table.items():
        if key == "pre_crawford":
            assert isinstance(value, list)
            rows = ",\n".join(f"    {json.dumps(row)}" for row in value)
            lines.append(f'  "{key}": [\n{rows}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("met", nargs="?", type=Path, default=DEFAULT, help="gnubg's XML table")
    parser.add_argument("--out", type=Path, default=SHIPPED, help="the JSON written")
    arguments = parser.parse_args()
    table = read_met(arguments.met)
    arguments.out.write_text(_json(table), encoding="utf-8")
    print(f"{arguments.out}: {table['name']}, {table['length']} points")


if __name__ == "__main__":
    main()
