#!/usr/bin/env bash
# dambit book through the command line: reproducible and resumable builds (threads, a larger
# --positions, kill -9), books from games checked against hand-computed values, the exact probe
# output, books in use by search, match, hub and dxp, and every bad input a one-line error.
# Usage: book_test.sh path/to/dambit
set -u
dambit=$1
source "$(dirname "$0")/shell_helpers.sh"

build=(book build --variant russian --nodes-per-position 300)
# Twice with one thread, once with two: the same bytes.
"$dambit" "${build[@]}" --positions 80 --out "$dir/a.book" > "$dir/a.txt" 2>&1 || bad "build a: $(cat "$dir/a.txt")"
"$dambit" "${build[@]}" --positions 80 --out "$dir/b.book" > /dev/null 2>&1 || bad "build b"
"$dambit" "${build[@]}" --positions 80 --out "$dir/c.book" --threads 2 > /dev/null 2>&1 || bad "build c"
cmp -s "$dir/a.book" "$dir/b.book" && ok || bad "two builds differ"
cmp -s "$dir/a.book" "$dir/c.book" && ok || bad "two threads change the book"
[ -e "$dir/a.book.part" ] || [ -e "$dir/a.book.tmp" ] && bad "build left its part or tmp file" || ok
grep -Eq '^variant russian, [0-9]+ positions in .*a.book \(nodes=300,eval=xxh64:[0-9a-f]{16},hash=4\); this run: [0-9]+ positions added, [0-9]+ expanded' \
  "$dir/a.txt" && ok || bad "build summary: $(cat "$dir/a.txt")"
# Stopped at 30 positions, then continued to 80: the one-shot book. Run again: nothing changes.
"$dambit" "${build[@]}" --positions 30 --out "$dir/d.book" > /dev/null 2>&1 || bad "build d 30"
cmp -s "$dir/a.book" "$dir/d.book" && bad "a 30-position book equals an 80-position one" || ok
"$dambit" "${build[@]}" --positions 80 --out "$dir/d.book" > /dev/null 2> "$dir/d.err" || bad "build d 80"
grep -q 'extending' "$dir/d.err" && ok || bad "extension not announced: $(cat "$dir/d.err")"
cmp -s "$dir/a.book" "$dir/d.book" && ok || bad "continued book differs from the one-shot one"
"$dambit" "${build[@]}" --positions 80 --out "$dir/d.book" > /dev/null 2>&1 || bad "build d again"
cmp -s "$dir/a.book" "$dir/d.book" && ok || bad "a finished book changed when built again"
# Asked for fewer positions than it holds: said, and the book is left as it is.
"$dambit" "${build[@]}" --positions 30 --out "$dir/d.book" > /dev/null 2> "$dir/d30.err" || bad "build d to 30"
grep -Eq "^book: .*d\.book holds [0-9]+ positions, more than --positions 30: nothing to add\$" "$dir/d30.err" &&
  ! grep -q extending "$dir/d30.err" && cmp -s "$dir/a.book" "$dir/d.book" && ok || bad "fewer positions: $(cat "$dir/d30.err")"

# Killed with -9 in the middle and run again: the book of the run that was never stopped. (About
# 0.8 s of searches, the first 3000 bytes of the journal after a third of it: at 1000 nodes a
# position the whole build took 0.1 s, and a signal sometimes came after its end.)
slow=(book build --variant russian --nodes-per-position 30000 --positions 300)
"$dambit" "${slow[@]}" --out "$dir/full.book" > /dev/null 2>&1 || bad "build full"
# A book cut to its 128-byte header is a truncated book, not "the journal of an unfinished build"
# (a journal is FILE.part): the build command that message sent the user to refused it again.
head -c 128 "$dir/full.book" > "$dir/header-only.book"
expect_error header-only-book 2 "^dambit book: $dir/header-only.book: truncated or corrupt book file\$" -- \
  book info --book "$dir/header-only.book"
kill_midway "$dir/killed.book.part" 3000 "$dambit" "${slow[@]}" --out "$dir/killed.book"
if [ -e "$dir/killed.book.part" ] && [ ! -e "$dir/killed.book" ]; then
  ok
  # A byte of the header's padding damaged (byte 30, after the variant's name): the settings read
  # as the ones given, and the header is called damaged, not "begun with other settings" that
  # were the same ones.
  cp "$dir/killed.book.part" "$dir/hdr.book.part"
  printf '\x01' | dd of="$dir/hdr.book.part" bs=1 seek=30 conv=notrunc 2>/dev/null
  expect_error part-header-damaged 2 "^dambit book: '$dir/hdr.book.part' has a damaged header \(its settings read as the ones given, variant=russian,nodes=30000,.*, but other bytes of it differ\); remove it to start again\$" -- \
    "${slow[@]}" --out "$dir/hdr.book"
  printf 'BOOK\x09\x00\x00\x00torn' >> "$dir/killed.book.part"  # a block cut by the kill
  expect_error part-is-no-book 2 "^dambit book: $dir/killed.book.part: the journal of an unfinished build, not a book \(the same book build command finishes it\)\$" -- book info --book "$dir/killed.book.part"
  "$dambit" "${slow[@]}" --out "$dir/killed.book" > /dev/null 2> "$dir/k.err" || bad "resume"
  grep -q 'resuming' "$dir/k.err" && ok || bad "resume not announced: $(cat "$dir/k.err")"
  grep -q 'damaged' "$dir/k.err" && bad "a torn end called damage: $(cat "$dir/k.err")" || ok
  cmp -s "$dir/full.book" "$dir/killed.book" && ok || bad "resumed book differs"
else
  bad "the build ended before it could be killed"
fi
# Ctrl-C: the positions searched stay in the journal, one line says so (status 130), and the
# same command ends with the book of the run that was never stopped.
interrupt_midway "$dir/int.book.part" 3000 "$dir/int.err" "$dambit" "${slow[@]}" --out "$dir/int.book"
if [ "$interrupted_status" -eq 130 ] &&
   grep -q "^dambit book: interrupted with [0-9]* positions in $dir/int.book.part; the same command goes on" "$dir/int.err" &&
   "$dambit" "${slow[@]}" --out "$dir/int.book" > /dev/null 2>&1 && cmp -s "$dir/full.book" "$dir/int.book"; then
  ok; else bad "book after Ctrl-C: status $interrupted_status, $(cat "$dir/int.err")"; fi
# damaged_journal NAME PYTHON MESSAGE: a journal of an interrupted build, damaged by PYTHON (given
# the file as sys.argv[1]; no kill can do it), then the same command: one line naming the file
# and saying MESSAGE, the positions after the damage searched again, and the same book in the end.
damaged_journal() {
  interrupt_midway "$dir/$1.book.part" 3000 "$dir/$1.err" "$dambit" "${slow[@]}" --out "$dir/$1.book"
  python3 -c "import sys; f = open(sys.argv[1], 'r+b'); $2" "$dir/$1.book.part"
  "$dambit" "${slow[@]}" --out "$dir/$1.book" > /dev/null 2> "$dir/$1.err"
  if grep -Eq "^book: $dir/$1.book.part is damaged: $3 are dropped\$" "$dir/$1.err" &&
     cmp -s "$dir/full.book" "$dir/$1.book"; then
    ok; else bad "damaged journal ($1): $(cat "$dir/$1.err")"; fi
}
# The last byte of the last block's checksum changed.
# That block is the last: nothing follows it, and its own bytes (its head of 8, 40 a position and
# its checksum of 8: two digits at least) are given apart (the count said "the K bytes after it"
# of its own).
damaged_journal dmg 'f.seek(-1, 2); b = f.read(1); f.seek(-1, 2); f.write(bytes([b[0] ^ 0xFF]))' \
  'block [0-9]+ at byte [0-9]+ fails its checksum; its positions \([1-9][0-9]+ bytes by its count\) and the 0 bytes after it'
# The count of positions of the first block (bytes 132-135, after the 128-byte header;
# docs/book.md) made far too large: the block seems to run past the end, as a write a kill cut
# short would, but whole blocks follow it (it was cut silently).
# Its length unknown, the bytes from it to the end are dropped, said as such.
damaged_journal cnt 'f.seek(132); f.write((0xFFFFFF).to_bytes(4, "little"))' \
  'block 1 at byte 128 has a damaged count of positions; its positions and all after it, [0-9]+ bytes,'
expect_error other-settings 2 "built with other settings \(nodes=300, now nodes=301\); give them, or another --out\$" -- \
  book build --variant russian --nodes-per-position 301 --positions 80 --out "$dir/a.book"
# The table size changes the searches: recorded, and another one refused too.
expect_error other-hash 2 "built with other settings \(hash=4, now hash=8\); give them, or another --out\$" -- \
  book build --variant russian --nodes-per-position 300 --positions 80 --hash 8 --out "$dir/a.book"
# A second build of the book a first build is writing: refused at once (the journal is locked),
# and the first goes on.
expect_busy busy "$dir/busy.book.part" 2 -- \
  book build --variant russian --nodes-per-position 1000 --positions 100000 --out "$dir/busy.book"

# probe: exactly the documented JSON; every move a legal move of the position.
json=$("$dambit" book probe --book "$dir/a.book" --json)
grep -Eq '^\{"moves":\[\{"move":"[a-h][1-8]-[a-h][1-8]","value":-?[0-9]+,"depth":[0-9]+,"weight":[0-9]+\}(,\{"move":"[a-h][1-8]-[a-h][1-8]","value":-?[0-9]+,"depth":[0-9]+,"weight":[0-9]+\})*\]\}$' <<<"$json" &&
  ok || bad "probe json: $json"
legal=$("$dambit" moves --variant russian)
for m in $(grep -Eo '"move":"[^"]*"' <<<"$json" | cut -d'"' -f4); do
  grep -qw -- "$m" <<<"$legal" && ok || bad "book move $m is not legal: $legal"
done
# The expanded start has all seven first moves.
[ "$(grep -o '"move"' <<<"$json" | wc -l)" -eq 7 ] && ok || bad "start not expanded: $json"
[ "$("$dambit" book probe --book "$dir/a.book" --fen 'W:W21,22:B5,6' --json)" = '{"moves":[]}' ] && ok ||
  bad "probe of a position not in the book"
"$dambit" book info --book "$dir/a.book" > "$dir/info.txt" || bad "info"
grep -Eq '^positions (8[0-9]|9[0-9]|1[0-9][0-9]), expanded [0-9]+, depth reached [1-9][0-9]*, size [0-9]+ bytes$' "$dir/info.txt" &&
  ok || bad "info: $(cat "$dir/info.txt")"
size=$(stat -c %s "$dir/a.book")
grep -q "size $size bytes" "$dir/info.txt" && ok || bad "info size, file is $size: $(cat "$dir/info.txt")"

# From games (hand-written): c3-d4 twice, both won by White; a3-b4 once, won by Black.
cat > "$dir/games.pdn" <<'EOF'
[GameType "25"]
[Result "1-0"]
1. c3-d4 f6-e5 2. d4:f6 g7:e5 1-0

[GameType "25"]
[Result "1-0"]
1. c3-d4 f6-g5 1-0

[GameType "25"]
[Result "0-1"]
1. a3-b4 b6-a5 0-1

[GameType "20"]
[Result "1-0"]
1. 32-28 1-0
EOF
"$dambit" book build --variant russian --from-pdn "$dir/games.pdn" --min-games 2 --out "$dir/g2.book" > "$dir/g2.txt" 2>&1 ||
  bad "from games: $(cat "$dir/g2.txt")"
grep -q '^4 games read, 3 used (1 skipped' "$dir/g2.txt" && ok || bad "games summary: $(cat "$dir/g2.txt")"
# Reached twice or more: the start and c3-d4 only; after c3-d4 Black lost both games: -100 for
# Black, +100 for White at the start.
out=$("$dambit" book probe --book "$dir/g2.book" --json)
[ "$out" = '{"moves":[{"move":"c3-d4","value":100,"depth":1,"weight":2}]}' ] && ok || bad "probe g2: $out"
grep -q '^positions 2, expanded 0, depth reached 1' <("$dambit" book info --book "$dir/g2.book") && ok ||
  bad "info g2: $("$dambit" book info --book "$dir/g2.book")"
# Every position once: after c3-d4 Black's best reply loses too (both end in White wins), so
# c3-d4 is +100 with four plies of book below; a3-b4 is -100 (Black won), two plies.
"$dambit" book build --variant russian --from-pdn "$dir/games.pdn" --min-games 1 --out "$dir/g1.book" > /dev/null 2>&1 ||
  bad "from games, min 1"
out=$("$dambit" book probe --book "$dir/g1.book" --json)
[ "$out" = '{"moves":[{"move":"c3-d4","value":100,"depth":4,"weight":2},{"move":"a3-b4","value":-100,"depth":2,"weight":1}]}' ] &&
  ok || bad "probe g1: $out"
# Games given twice (a database merged twice) count once: the same White, Black, Event, Date and
# Round, moves and result. Below, game 3 repeats game 1; game 2 has other players; game 4 has
# game 1's tags and moves but its result, in its Result tag alone, is the other; games 5 and 6
# name no players, so nothing tells them apart: two games. Six games read, five used, one given twice, and
# all six reach c3-d4 but the repeat: weight 5.
g='1. c3-d4 f6-g5'
printf '[White "A"]\n[Black "X"]\n[Result "1-0"]\n%s 1-0\n\n[White "B"]\n[Black "X"]\n[Result "1-0"]\n%s 1-0\n\n[White "A"]\n[Black "X"]\n[Result "1-0"]\n%s 1-0\n\n[White "A"]\n[Black "X"]\n[Result "0-1"]\n%s\n\n[Result "1-0"]\n%s 1-0\n\n[White "?"]\n[Black "?"]\n[Result "1-0"]\n%s 1-0\n' \
  "$g" "$g" "$g" "$g" "$g" "$g" > "$dir/players.pdn"
out=$("$dambit" book build --variant russian --from-pdn "$dir/players.pdn" --min-games 1 --out "$dir/players.book" 2>&1)
grep -q '^6 games read, 5 used (1 skipped: 0 another variant or start, 0 no result, 0 not replayed, 1 given twice)' <<<"$out" &&
  ok || bad "games given twice: $out"
out=$("$dambit" book probe --book "$dir/players.book" --json)
grep -q '^{"moves":\[{"move":"c3-d4","value":-\?[0-9]*,"depth":2,"weight":5}\]}$' <<<"$out" && ok || bad "players probe: $out"
# The file given twice: its four named games once more, all given twice; the two unnamed count.
out=$("$dambit" book build --variant russian --from-pdn "$dir/players.pdn" "$dir/players.pdn" --min-games 1 --out "$dir/players2.book" 2>&1)
grep -q '^12 games read, 7 used (5 skipped: 0 another variant or start, 0 no result, 0 not replayed, 5 given twice)' <<<"$out" &&
  ok || bad "file given twice: $out"

# --min-games counts the games that reach a position through kept positions alone. Three games,
# G = 2: c3-d4 b6-a5 is reached by games 1 and 2 along c3-d4 (kept: 2 games); game 3 reaches it
# by g3-h4 b6-a5 c3-d4 (g3-h4 first: 1 game, left out, so game 3 is in no position after the
# start). After c3-d4 b6-a5, game 1 plays g3-h4 and game 2 b2-c3: once each, left out. The
# position after c3-d4 b6-a5 g3-h4 is the one after game 3's third move too, which made 2 games
# of it and kept it with the value of game 1 alone. So: the start (3 games), c3-d4 (2) and
# c3-d4 b6-a5 (2, a leaf: White won one, lost one): 3 positions.
cat > "$dir/mg.pdn" <<'EOF'
[White "a1"]
[Black "b1"]
1. c3-d4 b6-a5 2. g3-h4 a7-b6 1-0

[White "a2"]
[Black "b2"]
1. c3-d4 b6-a5 2. b2-c3 f6-g5 0-1

[White "a3"]
[Black "b3"]
1. g3-h4 b6-a5 2. c3-d4 d6-c5 1/2-1/2
EOF
out=$("$dambit" book build --variant russian --from-pdn "$dir/mg.pdn" --out "$dir/mg.book" 2>&1)
grep -q '^3 games read, 3 used (0 skipped: .*), 3 positions reached by 2 or more$' <<<"$out" && ok || bad "min-games through kept positions: $out"
leaf='W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13'  # after c3-d4 b6-a5
out=$("$dambit" book probe --book "$dir/mg.book" --fen "$leaf")
[ "$out" = 'no book move: a leaf of the book, value 0, 2 games' ] && ok || bad "probe of a leaf: $out"
out=$("$dambit" book probe --book "$dir/mg.book" --fen "$leaf" --json)
[ "$out" = '{"moves":[]}' ] && ok || bad "probe of a leaf, json: $out"
out=$("$dambit" search --book "$dir/mg.book" --moves "c3-d4 b6-a5" --nodes 1000)
grep -q '^book ' <<<"$out" && bad "a leaf gave a book move: $out" || ok
# A book from games alone searches nothing: the options of a search or of its size are refused
# (--positions 500 gave the games' 3 positions without a word).
for opt in "--positions 500" "--hours 1" "--threads 2" "--hash 64" "--eval hand"; do
  expect_error "games-only${opt% *}" 2 "^dambit book: ${opt% *} goes with a search \(--nodes-per-position or --depth\); a book from games alone keeps the positions the games reached\$" -- \
    book build --variant russian --from-pdn "$dir/mg.pdn" $opt --out "$dir/opt.book"
done
[ -e "$dir/opt.book" ] || [ -e "$dir/opt.book.part" ] && bad "a refused option left a file" || ok

# A book of ballots has no start position: info says so, with its roots (the 156 openings of the
# ACF deck; a root's FEN for probe), where it printed no value line.
"$dambit" book build --variant english --ballots english-3move --positions 100 --nodes-per-position 100 \
  --out "$dir/en3.book" > /dev/null 2>&1 || bad "english ballots book"
out=$("$dambit" book info --book "$dir/en3.book")
root=$(sed -nE 's/^start position not in the book; 156 roots, e\.g\. (W:.*)$/\1/p' <<<"$out")
[ -n "$root" ] && [ "$("$dambit" book probe --book "$dir/en3.book" --fen "$root")" != "not in the book" ] && ok ||
  bad "info of a ballots book: $out"

# Settings that would not fit the header's 88 bytes (they would be cut, and two builds pass for
# one): refused before any work, nothing written.
expect_error long-settings 2 "the settings 'nodes=1000000000000000000,.*' do not fit the file's header \(88 bytes\)" -- \
  book build --variant russian --from-pdn "$dir/games.pdn" --min-games 1000000 \
  --nodes-per-position 1000000000000000000 --out "$dir/long.book"
[ -e "$dir/long.book" ] || [ -e "$dir/long.book.part" ] && bad "long settings left a file" || ok

# Ctrl-C while the games are read (a million games, seconds of reading): one line says so, status
# 130, and nothing is left (it was killed by the signal, silently, leaving a journal).
yes '[Result "1-0"] 1. c3-d4 f6-g5 2. g3-h4 1-0' | head -n 1000000 > "$dir/big.pdn"
env --default-signal=INT "$dambit" book build --variant russian --from-pdn "$dir/big.pdn" --min-games 1 \
  --out "$dir/big.book" > /dev/null 2> "$dir/big.err" &
pid=$!
for _ in $(seq 1500); do [ -e "$dir/big.book.part" ] && break; sleep 0.02; done
sleep 0.3
kill -INT $pid 2>/dev/null
wait $pid
status=$?
if [ "$status" -eq 130 ] && [ ! -e "$dir/big.book.part" ] && [ ! -e "$dir/big.book" ] &&
   grep -q '^dambit book: interrupted while reading the games; nothing is kept, and the same command starts again$' "$dir/big.err"; then
  ok; else bad "Ctrl-C while reading games: status $status, $(cat "$dir/big.err")"; fi
rm -f "$dir/big.pdn"
expect_error pdn-pipe 2 "--from-pdn: '/dev/fd/[0-9]+' is not a regular file" -- \
  book build --variant russian --from-pdn <(cat "$dir/games.pdn") --out "$dir/pipe.book"
# '-' is no file: standard input is refused by name (it said "cannot read '-': No such file or
# directory"), and nothing is written.
expect_error pdn-stdin 2 "--from-pdn: '-': standard input is not read here \(the games are read three times, and a pipe gives them once\); save them to a file" -- \
  book build --variant russian --from-pdn - --out "$dir/stdin.book"
[ -e "$dir/stdin.book" ] || [ -e "$dir/stdin.book.part" ] && bad "--from-pdn - left a file" || ok
# A game used past a bad tag says so on stderr, one line for the game (it was used silently).
printf '[Event Moscow]\n[GameType "25"]\n[Result "1-0"]\n1. c3-d4 f6-g5 1-0\n' > "$dir/badtag.pdn"
out=$("$dambit" book build --variant russian --from-pdn "$dir/badtag.pdn" --min-games 1 --out "$dir/badtag.book" 2>&1 >/dev/null)
[ "$out" = "book: $dir/badtag.pdn:1:1: game 1: bad tag '[Event Moscow]' (want [Name \"value\"]) (passed over)" ] &&
  ok || bad "passed over in a book: $out"

# A game played until Black has no piece left (37 plies; a random game, replayed by the book
# builder). Before the last move, h6:f8, White's man on h6 takes Black's last piece, the man on
# g7: the only capture, so the only legal move, and Black has no move after it. Its value is a
# win one ply from the end: printed "win 1" (31000 - 1 in JSON), as search prints its scores.
game='c3-b4 b6-a5 d2-c3 a7-b6 c1-d2 h6-g5 g3-f4 f6-e5 f4:h6 e5-d4 e3:c5:a7 e7-f6 c3-d4 a5:c3:e5 h2-g3 d8-e7 g1-h2 c7-b6 a7:c5 d6:b4 a3:c5 e7-d6 c5:e7:g5 e5-f4 g5:e3 b8-a7 e3-d4 g7-f6 f2-e3 f8-e7 b2-c3 f6-e5 d4:f6:d8 a7-b6 d8:a5 h8-g7 h6:f8'
printf '[GameType "25"]\n[Result "1-0"]\n%s 1-0\n' "$game" > "$dir/won.pdn"
"$dambit" book build --variant russian --from-pdn "$dir/won.pdn" --min-games 1 --out "$dir/won.book" > /dev/null 2>&1 ||
  bad "from a won game"
before=$("$dambit" pdn fen "$dir/won.pdn" --game 1 --ply 36)
out=$("$dambit" book probe --book "$dir/won.book" --fen "$before")
grep -Eq '^h6:f8 +value +win 1 depth +1 weight 1$' <<<"$out" && ok || bad "probe win 1: $out"
out=$("$dambit" book probe --book "$dir/won.book" --fen "$before" --json)
[ "$out" = '{"moves":[{"move":"h6:f8","value":30999,"depth":1,"weight":1}]}' ] && ok || bad "probe win 1 json: $out"
out=$("$dambit" search --book "$dir/won.book" --fen "$before")
grep -q '^book h6:f8 value win 1 depth 1 weight 1$' <<<"$out" && ok || bad "search book win 1: $out"

# Checked and extended by search: every position searched, the book grown to 40 positions.
"$dambit" book build --variant russian --from-pdn "$dir/games.pdn" --min-games 2 --nodes-per-position 300 \
  --positions 40 --out "$dir/gs.book" > /dev/null 2>&1 || bad "from games with search"
grep -Eq '^positions (4[0-9]|5[0-9]),' <("$dambit" book info --book "$dir/gs.book") && ok ||
  bad "info gs: $("$dambit" book info --book "$dir/gs.book")"

# In use. search: the book's best move, no search.
best=$(grep -Eo '"move":"[^"]*"' <<<"$json" | head -1 | cut -d'"' -f4)
out=$("$dambit" search --variant russian --book "$dir/a.book" --depth 3)
grep -Eq "^book $best value -?[0-9]+ depth [0-9]+ weight [0-9]+\$" <<<"$out" && grep -q "^bestmove $best\$" <<<"$out" &&
  ! grep -q '^depth' <<<"$out" && ok || bad "search --book: $out"
out=$("$dambit" search --variant russian --book "$dir/a.book" --book-ply 0 --depth 3)
grep -q '^depth 3' <<<"$out" && ok || bad "search --book-ply 0 searched: $out"
# match: A with the book plays its best move first from the start; its PDN passes pdn check.
"$dambit" match --variant russian --depth 2 --opening-plies 0 --a "book=$dir/a.book" --pgn "$dir/m.pdn" > "$dir/m.txt" 2>&1 ||
  bad "match --a book=: $(cat "$dir/m.txt")"
grep -q "^dambit match russian.*vs B" "$dir/m.txt" && grep -q "A .*book=$dir/a.book" "$dir/m.txt" && ok || bad "match names: $(head -1 "$dir/m.txt")"
first=$(grep -A3 '^\[FEN' "$dir/m.pdn" | grep -Eo '^1\. [^ ]+' | head -1 | cut -d' ' -f2)
[ "$first" = "$best" ] && ok || bad "match: A's first move $first, book's best $best"
"$dambit" pdn check "$dir/m.pdn" > "$dir/check.txt" 2>&1 && ok || bad "pdn check of match --pgn: $(cat "$dir/check.txt")"
# hub: the parameter book; the book's move comes without a search (no info line).
out=$(printf 'hub\nset-param name=variant value=russian\nset-param name=book value=%s\ninit\npos\nlevel depth=3\ngo think\nquit\n' \
  "$dir/a.book" | "$dambit" hub)
grep -q '^param name=book ' <<<"$out" && grep -q '^done move=' <<<"$out" && ! grep -q '^info' <<<"$out" && ok ||
  bad "hub book: $out"

# Bad input: one line naming what is wrong, status 2.
expect_error bad-fen 2 "xyz" -- book probe --book "$dir/a.book" --fen 'W:Wxyz:B1'
expect_error missing-book 2 "cannot read '$dir/none.book'" -- book probe --book "$dir/none.book"
cp "$dir/a.book" "$dir/corrupt.book"
printf '\x55' | dd of="$dir/corrupt.book" bs=1 seek=200 conv=notrunc 2>/dev/null
expect_error corrupt-book 2 "corrupt book file" -- book info --book "$dir/corrupt.book"
head -c 100 "$dir/a.book" > "$dir/short.book"
expect_error short-book 2 "not a dambit book file" -- book probe --book "$dir/short.book"
expect_error probe-variant 2 "a russian book, not --variant international" -- \
  book probe --variant international --book "$dir/a.book"
expect_error search-variant 2 "--book: .*a russian book, not international" -- \
  search --variant international --book "$dir/a.book" --depth 2
expect_error match-book 2 "--a book=$dir/none.book: cannot read '$dir/none.book'" -- \
  match --a "book=$dir/none.book" --depth 1 --openings 1
expect_error match-book-ply 2 "bad value 'x' for --b book-ply=x" -- match --b book-ply=x --depth 1 --openings 1
expect_error match-book-margin 2 "bad value '-1' for --a book-margin=-1" -- match --a book-margin=-1 --depth 1 --openings 1
expect_error dxp-book 2 "--book: .*a russian book, not international" -- dxp --connect 127.0.0.1:9 --book "$dir/a.book"
expect_error hub-book 2 "--book: .*not a dambit book file" -- hub --book "$dir/short.book"
expect_error positions 2 "bad value '0' for --positions" -- book build --out "$dir/x.book" --positions 0
expect_error margin 2 "bad value '-1' for --book-margin" -- search --book "$dir/a.book" --book-margin -1
expect_error margin-alone 2 "--book-margin goes with --book" -- search --book-margin 5 --depth 1
expect_error both-limits 2 "not both" -- book build --out "$dir/x.book" --positions 5 --hours 1
expect_error no-out 2 "needs --out" -- book build --positions 5
expect_error no-pdn 2 "cannot read '$dir/none.pdn'" -- book build --out "$dir/x.book" --from-pdn "$dir/none.pdn"
# A PDN file without a usable game (no result): an error, and no book nor journal left behind
# that a later run would take for a finished or resumable one.
printf '[Event "x"]\n[Result "*"]\n1. c3-d4 *\n' > "$dir/unusable.pdn"
"$dambit" book build --variant russian --from-pdn "$dir/unusable.pdn" --out "$dir/none.book" \
  > "$dir/none.out" 2> "$dir/none.err"
status=$?
if [ "$status" -eq 1 ] && grep -q "^1 game read, 0 used (1 skipped" "$dir/none.out" &&
   grep -q "no position reached by 2 or more of the 0 games used (1 read)" "$dir/none.err" &&
   [ "$(wc -l < "$dir/none.err")" -eq 1 ] && [ ! -e "$dir/none.book" ] &&
   [ ! -e "$dir/none.book.part" ]; then ok; else
  bad "pdn-no-game: status $status, $(cat "$dir/none.out" "$dir/none.err"), $(ls "$dir"/none.book* 2>&1)"; fi
expect_error action 2 "unknown action 'grow'" -- book grow
expect_error ballots 2 "unknown ballots 'nope'" -- book build --out "$dir/x.book" --ballots nope

echo "book_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
