#!/usr/bin/env bash
# dambit pdn through the command line: exact output of check (text and JSON), fen, exit statuses,
# usage errors. Usage: pdn_test.sh path/to/dambit
# The files are tests/pdn/*.pdn; the places and positions expected are worked out by hand in
# tests/pdn_test.cpp, which checks the same files through the library.
set -u
dambit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/pdn" || exit 1
pass=0
fail=0
out_file=$(mktemp)
err_file=$(mktemp)
trap 'rm -f "$out_file" "$err_file"' EXIT

# expect NAME STATUS EXPECTED_STDOUT EXPECTED_STDERR -- ARGS...: both outputs exactly.
expect() {
  local name=$1 want_status=$2 want_out=$3 want_err=$4
  shift 5
  "$dambit" "$@" >"$out_file" 2>"$err_file"
  local status=$?
  if [ "$status" -ne "$want_status" ] || [ "$(cat "$out_file")" != "$want_out" ] ||
     [ "$(cat "$err_file")" != "$want_err" ]; then
    echo "FAIL $name: status $status (want $want_status)"
    diff <(echo "$want_out") "$out_file" | head -20
    diff <(echo "$want_err") "$err_file" | head -5
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

# The files of the grammar and the variants: 29 games, 138 plies (grammar 34, russian 11,
# international 13, english 20, pool 6, brazilian 7, czech 6, russian-game 17, international-game
# 24). All are well formed but game 8 of grammar.pdn, which leaves out its result on purpose: it
# is read whole though the next game's tags end it, and is reported for it (its last move "f6-g5"
# stands at column 10 of line 41).
expect clean 1 'grammar.pdn:41:10: game 8: no result: the moves end without one, and there is no Result tag
files 9, games 29, moves 138, errors 1, failed games 1' '' -- \
  pdn check grammar.pdn russian.pdn international.pdn english.pdn pool.pdn brazilian.pdn \
  czech.pdn russian-game.pdn international-game.pdn

expect errors 1 "errors.pdn:3:10: game 1: illegal move '22-17': no piece on 22
errors.pdn:9:4: game 2: ambiguous move 'a1:b6': write every landing square (a1:d4:b6, a1:f6:h4:f2:b6)
errors.pdn:11:1: game 3: bad tag '[Event Moscow]' (want [Name \"value\"])
errors.pdn:12:1: game 3: bad tag '[Site \"Moscow\" extra]' (want [Name \"value\"])
errors.pdn:13:1: game 3: bad tag '[White \"unclosed]' (want [Name \"value\"])
errors.pdn:14:1: game 3: bad tag '[9Round \"1\"]' (want [Name \"value\"])
errors.pdn:18:10: game 4: unmatched ')'
errors.pdn:18:18: game 4: unexpected '}'
errors.pdn:18:20: game 4: unexpected 'hello'
errors.pdn:18:26: game 4: unexpected '\$'
errors.pdn:22:1: game 5: bad FEN tag: unknown square '33' (read as russian: no GameType tag; --variant reads another)
errors.pdn:26:1: game 6: unsupported GameType '22' (dambit plays 20 international, 21 english, 23 pool, 25 russian, 26 brazilian, 29 czech; --variant overrides)
errors.pdn:30:1: game 7: bad GameType '25,W,10,10,A0,0': russian is played on 8x8
errors.pdn:35:16: game 8: result '0-1' disagrees with the Result tag '1-0'
errors.pdn:41:10: game 9: illegal move 'b8-a7': Black, to move, has no legal move
errors.pdn:47:4: game 10: illegal move 'c3:e1': no capture is possible; the legal moves of c3 are c3-b4, c3-d4
errors.pdn:53:4: game 11: illegal move 'c3xa5': the majority rule: a capture of 2 pieces is compulsory (c3xe5xc7)
files 1, games 11, moves 8, errors 17, failed games 11" '' -- pdn check errors.pdn

expect truncated 1 "truncated-comment.pdn:2:16: game 1: truncated file: unclosed comment
truncated-tag.pdn:4:1: game 2: truncated file: unclosed tag
truncated-variation.pdn:2:16: game 1: truncated file: unclosed variation
files 3, games 4, moves 6, errors 3, failed games 3" '' -- \
  pdn check truncated-comment.pdn truncated-tag.pdn truncated-variation.pdn

# --variant replays every game with one set of rules: as English, Pool's backward capture by a
# man is illegal.
expect variant 1 "pool.pdn:10:4: game 2: illegal move '19x17': no capture is possible; the legal moves of 19 are 19-15, 19-16
pool.pdn:16:4: game 3: illegal move '19x26x17': no capture is possible; the legal moves of 19 are 19-15, 19-16
files 1, games 3, moves 4, errors 2, failed games 2" '' -- pdn check pool.pdn --variant english

expect json 1 '{"problems":[
{"file":"truncated-comment.pdn","line":2,"column":16,"game":1,"kind":"truncated","token":"{","message":"truncated file: unclosed comment"}
],"files":1,"games":1,"moves":2,"errors":1,"failed":1}' '' -- pdn check truncated-comment.pdn --json
expect json-clean 0 '{"problems":[],"files":1,"games":1,"moves":24,"errors":0,"failed":0}' '' -- \
  pdn check international-game.pdn --json
if command -v python3 >/dev/null; then
  if "$dambit" pdn check errors.pdn --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["errors"] == len(d["problems"]) == 17 and d["failed"] == 11, d
assert d["problems"][1]["kind"] == "ambiguous-move" and d["problems"][1]["token"] == "a1:b6"
assert d["problems"][2]["token"] == "[Event Moscow]"'; then pass=$((pass + 1)); else
    echo "FAIL json-parse"; fail=$((fail + 1)); fi
fi

# Standard input, and a stream of many games read one at a time: 20000 games of two plies each.
if [ "$("$dambit" pdn check - <grammar.pdn | tail -1)" = 'files 1, games 9, moves 34, errors 1, failed games 1' ]
then pass=$((pass + 1)); else echo "FAIL stdin"; fail=$((fail + 1)); fi
many=$(for i in $(seq 20000); do printf '[Round "%d"]\n1. c3-d4 f6-g5 *\n\n' "$i"; done |
  "$dambit" pdn check -)
if [ "$many" = 'files 1, games 20000, moves 40000, errors 0, failed games 0' ]
then pass=$((pass + 1)); else echo "FAIL many: $many"; fail=$((fail + 1)); fi

# fen: the position after K plies (worked out in tests/pdn_test.cpp).
# A position past move 1 has its move number (F): 24 plies from White's first, move 13.
expect fen-end 0 'W:W34,35,38,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,13,14,16,24:F13' '' -- \
  pdn fen international-game.pdn --game 1 --ply 24
expect fen-start 0 'W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20' '' -- \
  pdn fen international-game.pdn --game 1
expect fen-russian 0 'B:W17,20,21,23,28,29,30,31:B1,2,3,4,5,6:F9' '' -- \
  pdn fen russian-game.pdn --game 1 --ply 17
expect fen-game-range 2 '' "dambit pdn: no game 2 in 'international-game.pdn' (it has 1 game)" -- \
  pdn fen international-game.pdn --game 2
expect fen-ply-range 2 '' "dambit pdn: game 1 of 'international-game.pdn' has 24 plies (want --ply from 0 to 24)" -- \
  pdn fen international-game.pdn --game 1 --ply 25
expect fen-one-ply 2 '' "dambit pdn: game 3 of 'russian.pdn' has 1 ply (want --ply from 0 to 1)" -- \
  pdn fen russian.pdn --game 3 --ply 2
expect fen-illegal 1 '' "dambit pdn: errors.pdn:3:10: game 1: illegal move '22-17': no piece on 22" -- \
  pdn fen errors.pdn --game 1 --ply 2
expect fen-before-illegal 0 'B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12' '' -- \
  pdn fen errors.pdn --game 1 --ply 1
expect fen-bad-fen 1 '' "dambit pdn: errors.pdn:22:1: game 5: bad FEN tag: unknown square '33' (read as russian: no GameType tag; --variant reads another)" -- \
  pdn fen errors.pdn --game 5

work=$(mktemp -d)
trap 'rm -f "$out_file" "$err_file"; rm -rf "$work"' EXIT
# A file without a game has nothing to analyse: an error naming it, and no output file (it
# printed 'games 0, analysed 0, not analysed 0' and exited 0).
printf '{ only a comment }\n' > "$work/nogame.pdn"
expect analyse-no-game 2 '' "dambit pdn: no game in '$work/nogame.pdn'" -- pdn analyse "$work/nogame.pdn" --depth 1 --pdn "$work/nogame-out.pdn"
[ ! -e "$work/nogame-out.pdn" ] && [ ! -e "$work/nogame-out.pdn.tmp" ] && pass=$((pass + 1)) ||
  { echo "FAIL analyse-no-game-output"; fail=$((fail + 1)); }
# analyse (tests/pdn_test.cpp checks the analysis itself): after 6... g5-f4 White's e3 takes three
# men and Black takes one back, so the 12th ply is marked '??'; 2. d4:f6 is White's only legal move.
if "$dambit" pdn analyse russian-game.pdn --depth 6 --json >"$work/a.json" 2>"$work/a.err" &&
   [ ! -s "$work/a.err" ] && python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
plies, summary = rows[:-1], rows[-1]
assert len(plies) == 17 and summary["plies"] == 17 and summary["variant"] == "russian", summary
assert [p["ply"] for p in plies] == list(range(1, 18))
assert plies[11]["move"] == "g5-f4" and plies[11]["number"] == "6..." and plies[11]["mark"] == "??"
assert plies[11]["side"] == "black" and plies[11]["best"] != "g5-f4"
assert plies[2]["move"] == "d4:f6" and plies[2]["forced"] and plies[2]["best"] is None
for side in ("white", "black"):
    mine = [p for p in plies if p["side"] == side and not p["forced"]]
    s = summary[side]
    assert s["moves"] == len(mine) and s["blunders"] == sum(p["mark"] == "??" for p in mine), s
    assert abs(s["average_loss"] - sum(p["loss"] for p in mine) / len(mine)) < 0.006, s
    assert abs(s["average_drop"] - sum(p["drop"] for p in mine) / len(mine)) < 0.06, s
' "$work/a.json"; then pass=$((pass + 1)); else echo "FAIL analyse-json"; fail=$((fail + 1)); fi

# --pdn: the game with its marks and comments, read back by check; no OUT.tmp left behind. The
# game's own "?" on 6... g5-f4 follows the analysis's "??" as its NAG, $2.
if "$dambit" pdn analyse russian-game.pdn --depth 6 --pdn "$work/out.pdn" >"$work/a.txt" &&
   [ "$("$dambit" pdn check "$work/out.pdn")" = 'files 1, games 1, moves 17, errors 0, failed games 0' ] &&
   grep -q 'g5-f4?? \$2 {' "$work/out.pdn" && grep -q '^\[Annotator "dambit pdn analyse, depth 6 a position"\]$' "$work/out.pdn" &&
   [ ! -e "$work/out.pdn.tmp" ] && grep -q '^6\.\.\. *g5-f4?? ' "$work/a.txt" &&
   grep -q '^black: 5 moves, average loss [0-9.]*, average drop [0-9.]*, ' "$work/a.txt" &&
   [ "$(tail -1 "$work/a.txt")" = 'games 1, analysed 1, not analysed 0' ]
then pass=$((pass + 1)); else echo "FAIL analyse-pdn"; fail=$((fail + 1)); fi

# The game's own comments stay where they stood, before the analysis's comment on the same move
# (f6-e5 is Black's first move; the last move 9. g1:e3 is White's); 7. e3:c5, forced, keeps its
# own "!".
if tr '\n' ' ' < "$work/out.pdn" | grep -q 'f6-e5 {the opening called "Otygrysh"} {[-+0-9]*}' &&
   tr '\n' ' ' < "$work/out.pdn" | grep -q 'e3:c5! {three men in one capture}' &&
   tr '\n' ' ' < "$work/out.pdn" | grep -q 'g1:e3 {Black resigns, two men down} {[-+0-9]*} 1-0'
then pass=$((pass + 1)); else echo "FAIL analyse-pdn-comments"; fail=$((fail + 1)); fi

# The game's own variations are written back after the move each stands for, nested ones inside
# their line, their moves as written and numbered from where they stand (a move after a variation
# numbered again); --marks 98,99,100 leaves every move unmarked, so no engine line is added. By
# hand: 1. c3-b4 stands for 1. c3-d4; inside it 1... f6-g5 for 1... b6-a5; 2... e7:g5 for
# 2... g7:e5, and 3. b2-c3 inside it for 3. g3-h4. From a FEN with Black to move and F16: the
# variation of 16... f6-g5 begins "16...", White's reply in it "17.".
printf '[GameType "25"]\n1. c3-d4 (1. c3-b4 b6-a5 (1... f6-g5 2. g3-h4) 2. b4-c5 d6:b4 3. a3:c5) f6-e5\n2. d4:f6 g7:e5 (2... e7:g5 3. g3-h4 (3. b2-c3)) *\n\n[GameType "25"]\n[FEN "B:Wc3,e3:Bf6,h6:H0:F16"]\n16... f6-g5 (16... h6-g5 17. c3-d4) 17. c3-d4 *\n' >"$work/own-rav.pdn"
if "$dambit" pdn analyse "$work/own-rav.pdn" --depth 2 --marks 98,99,100 --pdn "$work/own-rav.out.pdn" >/dev/null &&
   [ "$(tr '\n' ' ' <"$work/own-rav.out.pdn" | sed -E 's/ \{[^}]*\}//g; s/  +/ /g')" = '[GameType "25"] [Annotator "dambit pdn analyse, depth 2 a position"] 1. c3-d4 (1. c3-b4 b6-a5 (1... f6-g5 2. g3-h4) 2. b4-c5 d6:b4 3. a3:c5) 1... f6-e5 2. d4:f6 g7:e5 (2... e7:g5 3. g3-h4 (3. b2-c3)) * [GameType "25"] [FEN "B:Wc3,e3:Bf6,h6:H0:F16"] [Annotator "dambit pdn analyse, depth 2 a position"] 16... f6-g5 (16... h6-g5 17. c3-d4) 17. c3-d4 * ' ] &&
   [ "$("$dambit" pdn check "$work/own-rav.out.pdn")" = 'files 1, games 2, moves 6, errors 0, failed games 0' ]
then pass=$((pass + 1)); else echo "FAIL analyse-pdn-variations: $(cat "$work/own-rav.out.pdn")"; fail=$((fail + 1)); fi

# A marked move gets the engine's line as a variation after its comment: the line begins with the
# comment's best move, from the position before the marked move (so pdn check, which plays each
# variation from there, finds every move of out.pdn legal: checked above, errors 0).
if python3 - "$work/out.pdn" <<'PY'
import re, sys
text = " ".join(open(sys.argv[1]).read().split("\n\n", 1)[1].split())
marked = re.findall(r"(\d+\.(?:\.\.)? )?(\S+?)(\?\?|\?!|\?)(?: \$\d+)?(?: \{[^}]*\})*? \{[-+0-9a-z ]+; best (\S+) [^}]*\} \((\d+\.(?:\.\.)?) (\S+)", text)
assert marked, text
for number, move, mark, best, vnumber, first in marked:
    assert first == best, (move, best, first)
PY
then pass=$((pass + 1)); else echo "FAIL analyse-pdn-engine-line: $(cat "$work/out.pdn")"; fail=$((fail + 1)); fi

# An error after OUT.tmp was opened (no game 2) leaves neither OUT nor OUT.tmp.
"$dambit" pdn analyse russian-game.pdn --game 2 --depth 2 --pdn "$work/g2.pdn" >/dev/null 2>&1
if [ $? -eq 2 ] && [ ! -e "$work/g2.pdn" ] && [ ! -e "$work/g2.pdn.tmp" ]; then pass=$((pass + 1))
else echo "FAIL analyse-tmp"; fail=$((fail + 1)); fi
# OUT.tmp being written by another run (its lock held here by flock): refused at once with one
# line, and OUT.tmp left as it was (the output check used to empty and remove it).
printf 'partial' >"$work/held.pdn.tmp"
# -o and the redirections: the sleep holds neither the lock nor ctest's output pipe, so killing
# flock releases the lock, and the sleep left running keeps nobody waiting (ctest used to wait out
# its 30 s).
flock -o "$work/held.pdn.tmp" sleep 30 </dev/null >/dev/null 2>&1 &
holder=$!
for _ in $(seq 200); do flock -n "$work/held.pdn.tmp" true || break; sleep 0.05; done
err=$("$dambit" pdn analyse russian-game.pdn --depth 2 --pdn "$work/held.pdn" 2>&1 >/dev/null)
status=$?
if [ "$status" -eq 2 ] && grep -q "^dambit pdn: --pdn: '.*held.pdn.tmp' is being written by another run" <<<"$err" &&
   [ "$(wc -l <<<"$err")" -eq 1 ] && [ "$(cat "$work/held.pdn.tmp")" = partial ] && [ ! -e "$work/held.pdn" ]
then pass=$((pass + 1)); else echo "FAIL analyse-busy: status $status, $err"; fail=$((fail + 1)); fi
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
# --variant: OUT carries the GameType of the rules used. A Czech man cannot take backwards, a
# Russian one can (c3:e1 over d2): replayed as Russian, OUT must say GameType 25 to read back.
printf '[GameType "29"]\n[SetUp "1"]\n[FEN "W:W22:B26"]\n\n1. c3:e1 *\n' >"$work/vr.pdn"
if "$dambit" pdn analyse "$work/vr.pdn" --variant russian --depth 2 --pdn "$work/vr.out.pdn" \
     >/dev/null && grep -q '^\[GameType "25"\]$' "$work/vr.out.pdn" &&
   ! grep -q 'GameType "29"' "$work/vr.out.pdn" &&
   [ "$("$dambit" pdn check "$work/vr.out.pdn")" = 'files 1, games 1, moves 1, errors 0, failed games 0' ]
then pass=$((pass + 1)); else echo "FAIL analyse-variant"; fail=$((fail + 1)); fi

# A game that cannot be replayed is reported as check reports it and skipped: exit status 1.
# A game from a FEN tag with a move number (F16): the table, the JSON and the PDN written number
# its moves from there, White's c3-d4 16. and Black's reply 16... (they began at 1.).
printf '[GameType "25"]\n[FEN "W:Wc3,e3:Bf6,h6:H0:F16"]\n1. c3-d4 f6-g5 *\n' >"$work/f16.pdn"
if "$dambit" pdn analyse "$work/f16.pdn" --depth 2 --pdn "$work/f16.out.pdn" >"$work/f16.txt" &&
   grep -q '^16\. *c3-d4' "$work/f16.txt" && grep -q '^16\.\.\. *f6-g5' "$work/f16.txt" &&
   grep -q '^16\. c3-d4' "$work/f16.out.pdn" && grep -q ' 16\.\.\. f6-g5 ' "$work/f16.out.pdn" &&
   "$dambit" pdn analyse "$work/f16.pdn" --depth 2 --json | grep -q '"number":"16\.\.\."'
then pass=$((pass + 1)); else echo "FAIL analyse-fen-number: $(cat "$work/f16.txt" "$work/f16.out.pdn")"; fail=$((fail + 1)); fi
# The draw rules in the analysis (they were ignored before a game's last position).
# (1) The FEN tag's H: three white kings against one, 28 plies of kings alone before the game. Black's
# king on h4 has no capture (h4-g3-f2-e1 ends on the board's edge at e1, the other diagonal is
# empty), so after 1. c1-b2 any reply of Black's is the 30th such ply, and the Kodeks rule of 15
# moves draws: c1-b2 is worth exactly 0 (without H, +2 and more), the game ends drawn.
printf '[GameType "25"]\n[FEN "W:WKc1,Ke1,Kg1:BKh4:H28"]\n[Result "1/2-1/2"]\n1. c1-b2 h4-d8 1/2-1/2\n' >"$work/h28.pdn"
if "$dambit" pdn analyse "$work/h28.pdn" --depth 6 --json >"$work/h28.json" &&
   grep -q '"ply":1,.*"move":"c1-b2",.*"drawn":null,"value":0,' "$work/h28.json" &&
   grep -q '"final_value":0,"drawn":"move-count rules"' "$work/h28.json"
then pass=$((pass + 1)); else echo "FAIL analyse-fen-h: $(cat "$work/h28.json")"; fail=$((fail + 1)); fi
# (2) A third repetition in mid-game: the start position comes back after 2... g7-h8 (ply 4) and
# after 4... g7-h8 (ply 8), its third time: 4... g7-h8 draws (value 0, as its own best move's), and
# 5. a1-b2, played after the game's end, is not judged (it was a blunder that missed a win).
printf '[GameType "25"]\n[FEN "W:WKa1,c3:BKh8,f6"]\n[Result "1/2-1/2"]\n1. a1-b2 h8-g7 2. b2-a1 g7-h8 3. a1-b2 h8-g7 4. b2-a1 g7-h8 5. a1-b2 1/2-1/2\n' >"$work/rep.pdn"
if "$dambit" pdn analyse "$work/rep.pdn" --depth 4 --pdn "$work/rep.out.pdn" >"$work/rep.txt" &&
   grep -Eq '^4\.\.\. +g7-h8 +0 ' "$work/rep.txt" &&
   grep -Eq '^5\. +a1-b2 +0  \(drawn before it: repetition\)$' "$work/rep.txt" &&
   grep -q '^white: 4 moves,' "$work/rep.txt" &&
   tr '\n' ' ' <"$work/rep.out.pdn" | grep -q '5\. a1-b2 {drawn before this move: repetition} 1/2-1/2'
then pass=$((pass + 1)); else echo "FAIL analyse-repetition: $(cat "$work/rep.txt" "$work/rep.out.pdn")"; fail=$((fail + 1)); fi
# A game numbered in its movetext (23.) from a FEN tag without F: its moves keep their numbers in
# the table, the PDN written and pdn fen (three plies from White's 23rd: Black's 24th, F24; they
# began at 1).
printf '[GameType "25"]\n[FEN "W:W21-32:B1-12"]\n[Result "*"]\n23. c3-d4 f6-g5 24. b2-c3 *\n' >"$work/n23.pdn"
if "$dambit" pdn analyse "$work/n23.pdn" --depth 2 --pdn "$work/n23.out.pdn" >"$work/n23.txt" &&
   grep -q '^23\. *c3-d4' "$work/n23.txt" && grep -q '^24\. *b2-c3' "$work/n23.txt" &&
   grep -q '^23\. c3-d4 {' "$work/n23.out.pdn" &&
   [ "$("$dambit" pdn fen "$work/n23.pdn" --game 1 --ply 3)" = 'B:W18,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,16:F24' ]
then pass=$((pass + 1)); else echo "FAIL movetext-number: $(cat "$work/n23.txt" "$work/n23.out.pdn")"; fail=$((fail + 1)); fi
expect analyse-illegal 1 '' "dambit pdn: errors.pdn:3:10: game 1: illegal move '22-17': no piece on 22 (game not analysed)" -- \
  pdn analyse errors.pdn --game 1 --depth 2
# A bad tag and a stray token are problems for check, not for the replay: the game is analysed
# (as pdn fen reads it), exit status 0, and one line on stderr says what was passed over (it was
# said nowhere, and the tags left out of --pdn OUT silently). errors.pdn's game 3 has four bad
# tags and 1. c3-d4.
passed3="dambit pdn: errors.pdn:11:1: game 3: bad tag '[Event Moscow]' (want [Name \"value\"]) (passed over; 3 more problems, which pdn check lists)"
if "$dambit" pdn analyse errors.pdn --game 3 --depth 2 >"$work/an3.out" 2>"$work/an3.err" &&
   [ "$(cat "$work/an3.err")" = "$passed3" ] && grep -Eq '^1\. +c3-d4 ' "$work/an3.out"; then
  pass=$((pass + 1)); else echo "FAIL analyse-bad-tag: $(cat "$work/an3.out" "$work/an3.err")"; fail=$((fail + 1)); fi
expect fen-passed-over 0 'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12' "$passed3" -- \
  pdn fen errors.pdn --game 3
# --game N that cannot be replayed: no game written, so OUT is left as it was (it was replaced
# by an empty file), and OUT.tmp and the journal are removed; an OUT that did not exist is not
# made.
printf 'kept\n' >"$work/keep.pdn"
expect analyse-keep-out 1 '' "dambit pdn: errors.pdn:3:10: game 1: illegal move '22-17': no piece on 22 (game not analysed)
dambit pdn: no game analysed; '$work/keep.pdn' not written" -- pdn analyse errors.pdn --game 1 --depth 1 --pdn "$work/keep.pdn"
if [ "$(cat "$work/keep.pdn")" = kept ] && [ ! -e "$work/keep.pdn.tmp" ] && [ ! -e "$work/keep.pdn.journal" ]; then
  pass=$((pass + 1)); else echo "FAIL analyse-keep-out-files"; fail=$((fail + 1)); fi
"$dambit" pdn analyse errors.pdn --game 1 --depth 1 --pdn "$work/new.pdn" >/dev/null 2>&1
if [ $? -eq 1 ] && [ ! -e "$work/new.pdn" ] && [ ! -e "$work/new.pdn.tmp" ]; then
  pass=$((pass + 1)); else echo "FAIL analyse-no-out"; fail=$((fail + 1)); fi

# A game without moves (a forfeit, its result in its tag) and the next game: a repeated tag name
# begins the second game (the two were one game: game 1 had an illegal move under GameType 25,
# and its players were credited with the International moves).
printf '[Event "A"]\n[White "x"]\n[Black "y"]\n[Result "1-0"]\n[GameType "25"]\n\n[Event "B"]\n[White "u"]\n[Black "v"]\n[Result "2-0"]\n[GameType "20"]\n\n1. 32-28 18-23 2. 37-32 12-18 2-0\n' >"$work/forfeit.pdn"
expect forfeit-check 0 'files 1, games 2, moves 4, errors 0, failed games 0' '' -- pdn check "$work/forfeit.pdn"
if "$dambit" pdn analyse "$work/forfeit.pdn" --depth 1 --pdn "$work/forfeit.out.pdn" >"$work/forfeit.txt" 2>&1 &&
   grep -q '^game 1: russian, x - y, 1-0, 0 plies, depth 1 a position$' "$work/forfeit.txt" &&
   grep -q '^game 2: international, u - v, 2-0, 4 plies, depth 1 a position$' "$work/forfeit.txt" &&
   [ "$(grep -c '^\[GameType ' "$work/forfeit.out.pdn")" -eq 2 ] &&
   [ "$("$dambit" pdn check "$work/forfeit.out.pdn")" = 'files 1, games 2, moves 4, errors 0, failed games 0' ]
then pass=$((pass + 1)); else echo "FAIL forfeit-analyse: $(cat "$work/forfeit.txt")"; fail=$((fail + 1)); fi

# The game's own strengths and NAGs and its Annotator are kept in --pdn OUT: 1. c3-d4 keeps "!"
# when the analysis does not mark it, else the mark comes first and "!" follows as $1; $14
# follows. Quotes in a Russian event name are kept (and escaped), said once on stderr.
printf '[Event "Кубок "Белой ладьи""]\n[Annotator "lidraughts.org"]\n[GameType "25"]\n[FEN "?"]\n\n1. c3-d4! $14 f6-g5 (?!) *\n' >"$work/marks.pdn"
expect marks-check 1 "$work/marks.pdn:1:1: game 1: unescaped '\"' in tag '[Event \"Кубок \"Белой ладьи\"\"]' (read as text; PDN writes it \\\")
files 1, games 1, moves 2, errors 1, failed games 1" '' -- pdn check "$work/marks.pdn"
if "$dambit" pdn analyse "$work/marks.pdn" --depth 1 --pdn "$work/marks.out.pdn" >/dev/null 2>"$work/marks.err" &&
   [ "$(cat "$work/marks.err")" = "dambit pdn: $work/marks.pdn:1:1: game 1: unescaped '\"' in tag '[Event \"Кубок \"Белой ладьи\"\"]' (read as text; PDN writes it \\\") (passed over)" ] &&
   grep -qx '\[Event "Кубок \\"Белой ладьи\\""\]' "$work/marks.out.pdn" &&
   grep -qx '\[Annotator "lidraughts.org; dambit pdn analyse, depth 1 a position"\]' "$work/marks.out.pdn" &&
   [ "$(grep -c '^\[Annotator ' "$work/marks.out.pdn")" -eq 1 ] &&
   tr '\n' ' ' <"$work/marks.out.pdn" | grep -Eq ' 1\. c3-d4(!|(\?!|\?|\?\?) \$1) \$14 ' &&
   tr '\n' ' ' <"$work/marks.out.pdn" | grep -Eq ' f6-g5(\?!|(\?!|\?|\?\?) \$6) ' &&
   [ "$("$dambit" pdn check "$work/marks.out.pdn")" = 'files 1, games 1, moves 2, errors 0, failed games 0' ]
then pass=$((pass + 1)); else echo "FAIL analyse-own-marks: $(cat "$work/marks.err" "$work/marks.out.pdn")"; fail=$((fail + 1)); fi

# A UTF-16 file: one problem (it gave 128 errors of its bytes).
printf '\xff\xfe[\0E\0v\0e\0n\0t\0 \0"\0x\0"\0]\0\n\0' >"$work/utf16.pdn"
expect utf16 1 "$work/utf16.pdn:1:1: game 1: the file is in UTF-16 (its byte order mark is FF FE): save it as UTF-8
files 1, games 1, moves 0, errors 1, failed games 1" '' -- pdn check "$work/utf16.pdn"
# The summary counts every problem: 40 stray words give 16 lines, then one line for the other 24,
# and 40 errors. 300 tags: one line for those past the 256th.
{ echo '[GameType "25"]'; printf '1. c3-d4'; for i in $(seq 40); do printf ' hello'; done; echo ' *'; } >"$work/many.pdn"
"$dambit" pdn check "$work/many.pdn" >"$work/many.out" 2>&1
if [ "$(grep -c ": unexpected 'hello'$" "$work/many.out")" -eq 16 ] &&
   grep -q ': game 1: 24 more errors in this game$' "$work/many.out" &&
   grep -q '^files 1, games 1, moves 1, errors 40, failed games 1$' "$work/many.out"; then
  pass=$((pass + 1)); else echo "FAIL many-errors: $(tail -3 "$work/many.out")"; fail=$((fail + 1)); fi
{ for i in $(seq 300); do echo "[Tag$i \"x\"]"; done; echo '1. c3-d4 *'; } >"$work/tags.pdn"
"$dambit" pdn check "$work/tags.pdn" >"$work/tags.out" 2>&1
if [ "$(grep -c 'more than 256 tags in one game' "$work/tags.out")" -eq 1 ] &&
   grep -q '^files 1, games 1, moves 1, errors 1, failed games 1$' "$work/tags.out"; then
  pass=$((pass + 1)); else echo "FAIL many-tags: $(tail -3 "$work/tags.out")"; fail=$((fail + 1)); fi
expect analyse-marks 2 '' "dambit pdn: bad --marks '50,25,100' (want three increasing drops A,B,C between 0 and 100, e.g. 5,10,15)" -- \
  pdn analyse russian-game.pdn --marks 50,25,100
expect analyse-marks-short 2 '' "dambit pdn: bad --marks '5,10' (want three increasing drops A,B,C between 0 and 100, e.g. 5,10,15)" -- \
  pdn analyse russian-game.pdn --marks 5,10
expect analyse-limits 2 '' 'dambit pdn: give at most one of --depth, --nodes and --movetime' -- \
  pdn analyse russian-game.pdn --depth 3 --nodes 100
expect analyse-game-range 2 '' "dambit pdn: no game 2 in 'russian-game.pdn' (it has 1 game)" -- \
  pdn analyse russian-game.pdn --game 2 --depth 2
expect analyse-no-file 2 '' 'dambit pdn: analyse: no FILE given' -- pdn analyse --depth 2
# Ctrl-C: one line, exit status 130, neither OUT nor OUT.tmp left when no game was finished (17
# plies of 200 ms: game 1 is under way after two seconds, the signal handler long in place).
timeout --foreground --preserve-status -s INT 2 "$dambit" pdn analyse russian-game.pdn --movetime 200 \
  --pdn "$work/int.pdn" >/dev/null 2>"$work/int.err"
status=$?
if [ "$status" -eq 130 ] && [ ! -e "$work/int.pdn" ] && [ ! -e "$work/int.pdn.tmp" ] &&
   [ ! -e "$work/int.pdn.journal" ] &&
   [ "$(cat "$work/int.err")" = "dambit pdn: interrupted in game 1; 0 games analysed before it" ]; then
  pass=$((pass + 1)); else echo "FAIL analyse-interrupted: $status $(cat "$work/int.err")"; fail=$((fail + 1)); fi
# Resuming: the games analysed before an interruption are in OUT.tmp with a journal, and the same
# command analyses the rest (one thread and a node limit: the same output as a run never
# stopped). Ten games of three variants.
cat russian.pdn international.pdn czech.pdn >"$work/ten.pdn"
resume=(pdn analyse "$work/ten.pdn" --nodes 20000)
# The run never stopped reads the games from a pipe: the journal names the input by its bytes.
cat "$work/ten.pdn" | "$dambit" pdn analyse - --nodes 20000 --pdn "$work/ten-ref.pdn" >"$work/ten-ref.txt" 2>&1
source ../interrupt_when.sh
interrupt_when "$work/ten.out.pdn.journal" '^game ' 3 "$work/ten-1.txt" "$work/ten-1.err" \
  "$dambit" "${resume[@]}" --pdn "$work/ten.out.pdn"
"$dambit" "${resume[@]}" --pdn "$work/ten.out.pdn" >"$work/ten-2.txt" 2>"$work/ten-2.err"
status2=$?
if [ "$status" -eq 130 ] && grep -Eq "; they are in $work/ten.out.pdn.tmp, and the same command resumes the analysis\$" "$work/ten-1.err" &&
   [ "$status2" -eq 0 ] && cmp -s "$work/ten.out.pdn" "$work/ten-ref.pdn" &&
   grep -Eq "^dambit pdn: resumed from $work/ten.out.pdn.tmp: the games up to game [3-9] were analysed before \(not printed again\)\$" "$work/ten-2.err" &&
   [ "$(tail -1 "$work/ten-2.txt")" = 'games 10, analysed 10, not analysed 0' ] &&
   [ ! -e "$work/ten.out.pdn.tmp" ] && [ ! -e "$work/ten.out.pdn.journal" ]; then
  pass=$((pass + 1)); else echo "FAIL analyse-resumed: $status $status2 $(cat "$work/ten-1.err" "$work/ten-2.err")"; fail=$((fail + 1)); fi
# Another input, or other limits, with the games of an interrupted analysis: refused, naming what
# changed, and the files left for the right command.
cp "$work/ten-ref.pdn" "$work/other.pdn.tmp"
printf 'dambit analyse journal 1\nsettings input=xxh64:0,nodes=20000\n' >"$work/other.pdn.journal"
err=$("$dambit" pdn analyse russian-game.pdn --nodes 20000 --pdn "$work/other.pdn" 2>&1 >/dev/null)
status=$?
if [ "$status" -eq 2 ] && grep -Eq "^dambit pdn: --pdn: '$work/other.pdn.tmp' holds the games of an interrupted analysis with other settings \(input=xxh64:0, now input=xxh64:[0-9a-f]{16}; .*\); the same settings resume it, or move it away \(or remove it\) to start again\$" <<<"$err" &&
   cmp -s "$work/other.pdn.tmp" "$work/ten-ref.pdn" && [ ! -e "$work/other.pdn" ]; then
  pass=$((pass + 1)); else echo "FAIL analyse-resume-other: $status $err"; fail=$((fail + 1)); fi
cp russian-game.pdn "$work/self.pdn"
expect analyse-out-self 2 '' "dambit pdn: --pdn $work/self.pdn: is the file analysed (the analysed games would replace it)" -- \
  pdn analyse "$work/self.pdn" --depth 2 --pdn "$work/self.pdn"
if cmp -s russian-game.pdn "$work/self.pdn"; then pass=$((pass + 1)); else echo "FAIL analyse-out-self: the file changed"; fail=$((fail + 1)); fi
expect analyse-out-dir 2 '' "dambit pdn: --pdn: cannot write '$work/no/such/out.pdn.tmp': No such file or directory" -- \
  pdn analyse russian-game.pdn --depth 2 --pdn "$work/no/such/out.pdn"

# Usage errors: one line on stderr, exit status 2.
# Without an action: the synopsis of the help (up to its first blank line), and where the rest is.
expect no-action 2 '' "$("$dambit" pdn --help | sed '/^$/,$d')
(dambit pdn --help for the whole description)" -- pdn
expect bad-action 2 '' "dambit pdn: unknown action 'frobnicate' (want check, fen or analyse)" -- pdn frobnicate
expect no-file 2 '' 'dambit pdn: check: no FILE given' -- pdn check
expect missing-file 2 '' "dambit pdn: cannot read 'nosuch.pdn': No such file or directory" -- pdn check grammar.pdn nosuch.pdn
expect bad-variant 2 '' "dambit pdn: unknown variant 'chess' (known: russian, czech, brazilian, pool, english, international)" -- \
  pdn check grammar.pdn --variant chess
expect bad-flag 2 '' "dambit pdn: unknown option '--depth'" -- pdn check grammar.pdn --depth 3
expect fen-no-game 2 '' 'dambit pdn: fen: missing --game' -- pdn fen grammar.pdn
expect fen-two-files 2 '' 'dambit pdn: fen: one FILE only' -- pdn fen grammar.pdn pool.pdn --game 1
expect fen-bad-game 2 '' "dambit pdn: bad value '0' for --game (want an integer from 1 to 1000000000)" -- \
  pdn fen grammar.pdn --game 0
expect help 0 "$("$dambit" pdn --help)" '' -- pdn check --help
if "$dambit" pdn --help | grep -q '^usage: dambit pdn check'; then pass=$((pass + 1)); else
  echo "FAIL help-text"; fail=$((fail + 1)); fi

echo "pdn_test.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
