#!/usr/bin/env python3
"""Converts pydraughts's opening ballot files (JSON) into dambit's ballot text files.

Usage: scripts/ballots_from_pydraughts.py PYDRAUGHTS_DIR
Writes src/play/ballots/russian.txt, brazilian.txt, russian-3move.txt and english-3move.txt: a
header citing the source, then one ballot per line, `name<TAB>FEN`, in the order of the source
file's "standard" list.

The source's English 3-move file's "lost" list names ballot 013 twice and misses 026 (9-13 24-19
10-15), which the ACF deck bars (CheckerBoard's table of the 174 three-move openings marks it
barred, like the other 17): 026 is left out, and 156 ballots remain, the ACF deck.
"""
import json
import pathlib
import sys

COMMIT = "3277325"
NAMES = """\
# The names are the source's keys: section and number, then the moves in short column notation
#   ("ab4" = the man on column a moves to b4); "---" marks a ballot with relocated pieces (the
#   FEN is the position to play from; every FEN here has been checked for a legal move).
"""
HEADER = """\
# {title}
# Source: https://github.com/AttackingOrDefending/pydraughts, commit {commit},
#   file draughts/ballot_files/{file} ({count} entries, {which}), converted by
#   scripts/ballots_from_pydraughts.py: one ballot per line, name<TAB>FEN, in the file's order.
{names}# Licence of the source: MIT.
#
# MIT License
#
# Copyright (c) 2021-2024 Ioannis Pantidis
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction, including without limitation the rights
# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
# copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in all
# copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
# SOFTWARE.
"""


def convert(source: pathlib.Path, target: pathlib.Path, title: str, skip=(), names: str = NAMES) -> None:
    data = json.loads(source.read_text())
    keys = [k for k in data["standard"] if k not in skip]
    which = f'its "standard" list less {len(skip)}' if skip else 'all in its "standard" list'
    lines = [HEADER.format(title=title, commit=COMMIT, file=source.name, count=len(keys),
                           which=which, names=names)]
    for key in keys:
        fen = data["all"][key]
        if "\t" in key or "\n" in key:
            raise SystemExit(f"{source}: key {key!r} holds a tab or newline")
        lines.append(f"{key}\t{fen}\n")
    target.write_text("".join(lines))


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    src = pathlib.Path(sys.argv[1]) / "draughts" / "ballot_files"
    out = pathlib.Path(__file__).resolve().parent.parent / "src" / "play" / "ballots"
    convert(src / "russian.json", out / "russian.txt", "Russian draughts: the tournament opening ballots")
    convert(src / "brazilian.json", out / "brazilian.txt", "Brazilian draughts: the tournament opening ballots")
    convert(src / "150russian_and_brazilian.json", out / "russian-3move.txt",
            "Russian and Brazilian draughts: the 150 three-move ballots (two White moves and one Black\n"
            "# move, 15 groups of 10; a few are shorter, and 5-VII is the free opening)")
    convert(src / "3move_english.json", out / "english-3move.txt",
            "English draughts (checkers): the ACF three-move deck, 156 openings (Black's move,\n"
            "# White's reply, Black's second move)",
            skip=["026 09-13 24-19 10-15"],
            names="# The names are the source's keys: the ACF number, then the three moves in numeric notation,\n"
                  "#   Black first (a capture is written with '-'); every FEN here has been checked for a legal\n"
                  "#   move. The source lists 157 as standard: its list of barred openings names 013 twice and\n"
                  "#   misses 026 (9-13 24-19 10-15), barred in the ACF deck (CheckerBoard's table of the 174\n"
                  "#   openings marks it barred with the other 17), so 026 is left out.\n")


if __name__ == "__main__":
    main()
