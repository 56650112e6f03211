#!/usr/bin/env bash
# dambit selfplay and dambit tune through the command line: resumable and reproducible data,
# reproducible fits, weights files used by --eval, and every bad input a one-line error.
# Usage: learn_test.sh path/to/dambit
set -u
dambit=$1
source "$(dirname "$0")/shell_helpers.sh"

sp=(selfplay --variant russian --nodes 300 --games 256 --seed 7)
# One thread and two threads: the same file, byte for byte.
"$dambit" "${sp[@]}" --out "$dir/one.dat" --threads 1 > "$dir/one.txt" || bad "selfplay one thread"
"$dambit" "${sp[@]}" --out "$dir/two.dat" --threads 2 > "$dir/two.txt" || bad "selfplay two threads"
if cmp -s "$dir/one.dat" "$dir/two.dat"; then ok; else bad "selfplay: threads change the data"; fi
if grep -Eq '^variant russian, 256 games, [0-9]+ positions in .*one.dat \(nodes=300 random=4-8 max-plies=200 eval=xxh64:[0-9a-f]{16}\)' "$dir/one.txt"; then ok; else
  bad "selfplay summary: $(cat "$dir/one.txt")"; fi
[ -e "$dir/one.dat.part" ] && bad "selfplay left its part file" || ok

# Killed in the middle and run again: the same file as the run that was never stopped. The kill
# can land while the first block (tens of kB) is being written: nothing whole is kept and the run
# starts afresh, unannounced. So up to three tries for a kill after a whole block; every try's
# file must equal the uninterrupted run's.
announced=0
for try in 1 2 3; do
  rm -f "$dir/killed.dat" "$dir/killed.dat.part"
  kill_midway "$dir/killed.dat.part" 4000 "$dambit" "${sp[@]}" --out "$dir/killed.dat" --threads 2
  [ -e "$dir/killed.dat.part" ] || continue
  # A reader refuses the part file.
  expect_error tune-part 2 'incomplete data file' -- tune --data "$dir/killed.dat.part" --out "$dir/x.dbw"
  # Half a block at its end, as a kill in the middle of a write leaves it.
  printf 'GAME\x40\x00\x00\x00torn' >> "$dir/killed.dat.part"
  "$dambit" "${sp[@]}" --out "$dir/killed.dat" --threads 1 > "$dir/resumed.txt" 2> "$dir/resumed.err" ||
    bad "selfplay resume"
  if cmp -s "$dir/one.dat" "$dir/killed.dat"; then ok; else bad "resumed data differs (try $try)"; fi
  if grep -q 'resuming' "$dir/resumed.err"; then announced=1; break; fi
done
[ "$announced" -eq 1 ] && ok || bad "no try resumed a part file: $(cat "$dir/resumed.err" 2>/dev/null)"
# Ctrl-C: the games under way end, the whole blocks stay in the journal, one line says so (status
# 130), and the same command ends with the file of the run that was never stopped.
interrupt_midway "$dir/int.dat.part" 4000 "$dir/int.err" "$dambit" "${sp[@]}" --out "$dir/int.dat" --threads 2
if [ "$interrupted_status" -eq 130 ] &&
   grep -q "^dambit selfplay: interrupted with [0-9]* games ([0-9]* positions) in $dir/int.dat.part; the same command goes on" "$dir/int.err" &&
   "$dambit" "${sp[@]}" --out "$dir/int.dat" > /dev/null 2>&1 && cmp -s "$dir/one.dat" "$dir/int.dat"; then
  ok; else bad "selfplay after Ctrl-C: status $interrupted_status, $(cat "$dir/int.err")"; fi
expect_error exists 2 "exists already" -- "${sp[@]}" --out "$dir/one.dat"
# A part file begun with other settings is not resumed with these.
"$dambit" selfplay --variant russian --nodes 300 --games 300 --seed 9 --out "$dir/q.dat" > /dev/null &
pid=$!
for _ in $(seq 100); do [ -s "$dir/q.dat.part" ] && break; sleep 0.02; done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -e "$dir/q.dat.part" ]; then
  expect_error other-settings 2 "was begun with other settings \(seed=9, now seed=10\); remove it or give them\$" -- \
    selfplay --variant russian --nodes 300 --games 300 --seed 10 --out "$dir/q.dat"
  # The default table size, which the header leaves out, is named all the same (it said "now
  # none" to a user who gave --hash 16).
  expect_error other-hash 2 "was begun with other settings \(hash=16, now hash=8\); remove it or give them\$" -- \
    selfplay --variant russian --nodes 300 --games 300 --seed 9 --hash 8 --out "$dir/q.dat"
fi
# A part file whose first block fails its check (one.dat copied as the part file of a run with
# its settings, and a byte of the first block's positions changed; docs/learning.md: the block
# starts at byte 128, its positions 16 bytes later): the run says so, plays those games again, and
# ends with one.dat (the blocks were dropped without a word).
cp "$dir/one.dat" "$dir/dm.dat.part"
python3 -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(128 + 16 + 5); b = f.read(1); f.seek(128 + 16 + 5); f.write(bytes([b[0] ^ 0xFF]))" "$dir/dm.dat.part"
"$dambit" "${sp[@]}" --out "$dir/dm.dat" > /dev/null 2> "$dir/dm.err"
# The block's own bytes and those after it add up to the file from byte 128 (the count said "the
# K bytes after it" of all of them, the block's own included); the block's are 16 + 32 a record
# + 8, at least 56.
sizes=$(sed -En "s/^selfplay: .*dm.dat.part is damaged: the block at byte 128 fails its check; it \(([0-9]+) bytes by its count\) and the ([0-9]+) bytes after it are dropped, and their games played again\$/\1 \2/p" "$dir/dm.err")
# shellcheck disable=SC2086
set -- $sizes
if [ $# -eq 2 ] && [ $(($1 + $2)) -eq $(($(stat -c %s "$dir/one.dat") - 128)) ] && [ $((($1 - 24) % 32)) -eq 0 ] && [ "$1" -ge 56 ] &&
   cmp -s "$dir/dm.dat" "$dir/one.dat"; then ok; else bad "damaged selfplay part: $(cat "$dir/dm.err")"; fi
# A second run on the output a first run is writing: refused at once (the part file is locked),
# and the first goes on; before the lock the second resumed the part file under the first and
# both appended to it.
expect_busy busy "$dir/busy.dat.part" 2 -- \
  selfplay --variant russian --nodes 300 --games 100000 --seed 11 --out "$dir/busy.dat"
expect_error no-out 2 "needs --out" -- selfplay --games 3
expect_error bad-random 2 "first bound is above" -- selfplay --out "$dir/r.dat" --random-plies 8-4
expect_error games-and-positions 2 "not both" -- selfplay --out "$dir/r.dat" --games 3 --positions 9
# A rate far too large makes the fit diverge: the man's weight goes beyond a hundred men, which
# every loader refuses. Nothing is written (the fit used to say "weights written" and exit 0 with
# a file search would not load) and no checkpoint is left to block the next, smaller rate.
out=$("$dambit" tune --data "$dir/one.dat" --out "$dir/big.dbw" --epochs 20 --rate 100000 --threads 1 2>"$dir/big.err")
status=$?
if [ $status -eq 1 ] && grep -q "^dambit tune: error: the fit diverged: $dir/big.dbw: weight [0-9]* of the hand-made and king terms is -\?[0-9]*, beyond +-10000 (a hundred men); nothing written" "$dir/big.err" &&
   [ ! -e "$dir/big.dbw" ] && [ ! -e "$dir/big.dbw.checkpoint" ] && [ ! -e "$dir/big.dbw.tmp" ]; then ok; else
  bad "diverged fit: status $status, $(tail -1 "$dir/big.err"), $(ls "$dir"/big.dbw* 2>&1)"; fi
# --out naming an existing file that holds no weights (here a data file not given to --data):
# refused before any work, the file kept.
cp "$dir/one.dat" "$dir/keep.dat"
expect_error out-not-weights 2 "--out $dir/keep.dat: exists and is not a weights file; it is not replaced" -- \
  tune --data "$dir/two.dat" --out "$dir/keep.dat" --epochs 1
cmp -s "$dir/one.dat" "$dir/keep.dat" && ok || bad "out-not-weights: the data file was changed"
# A checkpoint that cannot be read (a directory in its place): a usage error naming it.
mkdir "$dir/ckd.dbw.checkpoint"
expect_error checkpoint-directory 2 "cannot read tune checkpoint '$dir/ckd.dbw.checkpoint': Is a directory" -- \
  tune --data "$dir/one.dat" --out "$dir/ckd.dbw" --epochs 1
# Without random plies every game is the same game (one seed, one engine, nodes fixed): after the
# first block of 64 games no block finds a new position, and --positions 100000 could never be
# reached. The run stops there, finishes the file with what it holds (a data file tune reads) and
# says so, exit status 1; it used to play on forever.
out=$(timeout 60 "$dambit" selfplay --variant russian --nodes 100 --random-plies 0 --positions 100000 \
  --out "$dir/same.dat" 2>"$dir/same.err")
status=$?
if [ $status -eq 1 ] && grep -q "^variant russian, 128 games, " <<<"$out" &&
   grep -q "^dambit selfplay: the last 64 games found no position the file did not hold: the games repeat, so 100000 positions cannot be reached" "$dir/same.err" &&
   [ -e "$dir/same.dat" ] && [ ! -e "$dir/same.dat.part" ] &&
   "$dambit" tune --data "$dir/same.dat" --out "$dir/same.dbw" --epochs 1 > /dev/null 2>&1; then ok; else
  bad "selfplay --positions with repeating games: status $status, $out, $(cat "$dir/same.err")"; fi

# The fit: the same weights for one thread and three; the held-out loss reported.
tune=(tune --variant russian --data "$dir/one.dat" --epochs 40 --model patterns)
"$dambit" "${tune[@]}" --out "$dir/w1.dbw" --threads 1 > "$dir/t1.txt" 2>/dev/null || bad "tune"
"$dambit" "${tune[@]}" --out "$dir/w3.dbw" --threads 3 > /dev/null 2>&1 || bad "tune three threads"
if cmp -s "$dir/w1.dbw" "$dir/w3.dbw"; then ok; else bad "tune: threads change the weights"; fi
grep -Eq '^held-out loss: fitted 0\.[0-9]+, hand-made 0\.[0-9]+ \([0-9]+ positions\)$' "$dir/t1.txt" && ok ||
  bad "tune output: $(cat "$dir/t1.txt")"
"$dambit" tune --variant russian --data "$dir/one.dat" --epochs 20 --model hand --out "$dir/h.dbw" \
  > "$dir/th.txt" 2>/dev/null && grep -q "model hand: 41 parameters" "$dir/th.txt" && ok || bad "tune hand model"

# Interrupted and run again, the fit goes on from its checkpoint and ends with the weights of the
# fit that never stopped (w1.dbw), byte for byte: after Ctrl-C (status 130, one line saying so),
# and after kill -9 (the epochs since the last save are done again). --checkpoint-seconds 0 saves
# after every epoch, so that the stop lands in the middle.
ck=(tune --variant russian --data "$dir/one.dat" --epochs 40 --model patterns --checkpoint-seconds 0)
env --default-signal=INT "$dambit" "${ck[@]}" --out "$dir/c.dbw" > /dev/null 2> "$dir/c.err" &
pid=$!
for _ in $(seq 1500); do [ -s "$dir/c.dbw.checkpoint" ] && break; sleep 0.02; done
kill -INT $pid 2>/dev/null
wait $pid
status=$?
if [ "$status" -eq 130 ] && grep -Eq '^dambit tune: interrupted after epoch [0-9]+ of 40; the same command goes on from there' "$dir/c.err" &&
   [ -s "$dir/c.dbw.checkpoint" ] && [ ! -e "$dir/c.dbw" ]; then ok; else
  bad "tune interrupted: status $status, $(cat "$dir/c.err")"; fi
"$dambit" "${ck[@]}" --out "$dir/c.dbw" > /dev/null 2> "$dir/c2.err" || bad "tune resumed"
if grep -q '^tune: going on from epoch [0-9]* ' "$dir/c2.err" && cmp -s "$dir/w1.dbw" "$dir/c.dbw" &&
   [ ! -e "$dir/c.dbw.checkpoint" ]; then ok; else bad "tune after Ctrl-C: $(cat "$dir/c2.err")"; fi
kill_midway "$dir/k.dbw.checkpoint" 0 "$dambit" "${ck[@]}" --out "$dir/k.dbw"
"$dambit" "${ck[@]}" --out "$dir/k.dbw" > /dev/null 2>&1 || bad "tune after kill -9"
if cmp -s "$dir/w1.dbw" "$dir/k.dbw"; then ok; else bad "tune after kill -9: other weights"; fi
# Another fit's checkpoint, or a damaged one, is refused by name, and left as it is.
kill_midway "$dir/o.dbw.checkpoint" 0 "$dambit" "${ck[@]}" --out "$dir/o.dbw"
expect_error tune-other-checkpoint 2 "tune checkpoint '$dir/o.dbw.checkpoint': of another fit \(seed=1, now seed=2; " -- \
  "${ck[@]}" --seed 2 --out "$dir/o.dbw"
printf 'x' >> "$dir/o.dbw.checkpoint"
expect_error tune-damaged-checkpoint 2 "tune checkpoint '$dir/o.dbw.checkpoint': damaged" -- \
  "${ck[@]}" --out "$dir/o.dbw"

# --init: no epochs, the weights started from come out unchanged (the same evaluation: the same
# bench signature, the same held-out loss); the starting weights' loss is reported; a file made
# for another layout, variant or no weights at all is refused.
init=(tune --variant russian --data "$dir/one.dat" --model patterns --init "$dir/w1.dbw")
"$dambit" "${init[@]}" --epochs 0 --out "$dir/i0.dbw" > "$dir/ti0.txt" 2>/dev/null ||
  bad "tune --init"
sig() { "$dambit" bench --variant russian --depth 6 --eval "$1" | grep '^nodes '; }
if [ -n "$(sig "$dir/w1.dbw")" ] && [ "$(sig "$dir/w1.dbw")" = "$(sig "$dir/i0.dbw")" ]; then ok; else
  bad "tune --init --epochs 0 changed the evaluation"; fi
fitted=$(sed -nE 's/^held-out loss: fitted (0\.[0-9]+), .*/\1/p' "$dir/t1.txt")
if [ -n "$fitted" ] && grep -q "^held-out loss: fitted $fitted, " "$dir/ti0.txt" &&
   grep -q "^held-out loss of the starting weights: $fitted, " "$dir/ti0.txt"; then ok; else
  bad "tune --init losses: $(cat "$dir/ti0.txt")"; fi
grep -q -- "--init $dir/w1.dbw (K" "$dir/i0.dbw" && ok || bad "tune --init not in the description"
# Further epochs from the fitted weights: the fit-set loss falls no higher than where it began.
"$dambit" "${init[@]}" --epochs 10 --out "$dir/i10.dbw" > "$dir/ti10.txt" 2>/dev/null
start=$(sed -nE 's/.*loss of the starting weights on the fit set (0\.[0-9]+)$/\1/p' "$dir/ti10.txt")
end=$(sed -nE 's/.*fit-set loss (0\.[0-9]+)$/\1/p' "$dir/ti10.txt")
if [ -n "$start" ] && [ -n "$end" ] && awk -v a="$start" -v b="$end" 'BEGIN { exit !(b <= a) }'; then ok; else
  bad "tune --init: fit-set loss $start then $end"; fi
expect_error init-layout 2 "w1.dbw: 9 pattern windows, the fit has 25" -- \
  tune --data "$dir/one.dat" --out "$dir/c.dbw" --pattern-step 1 --init "$dir/w1.dbw"
expect_error init-model 2 "w1.dbw: 9 pattern windows, the fit has 0" -- \
  tune --data "$dir/one.dat" --out "$dir/c.dbw" --model hand --init "$dir/w1.dbw"
expect_error init-hand 2 "--init 'hand' names no weights" -- tune --data "$dir/one.dat" --out "$dir/c.dbw" --init hand
expect_error init-missing 2 "cannot read weights file" -- tune --data "$dir/one.dat" --out "$dir/c.dbw" --init "$dir/none.dbw"

# The same data twice (selfplay is deterministic: the same seed and settings make the same file,
# as one.dat and two.dat are) is refused, naming both; --holdout 0 says there is no held-out loss.
expect_error same-data 2 "two.dat: the same data as $dir/one.dat \(seed 7, " -- \
  tune --data "$dir/one.dat,$dir/two.dat" --out "$dir/c.dbw"
"$dambit" tune --variant russian --data "$dir/one.dat" --epochs 2 --model hand --holdout 0 \
  --out "$dir/h0.dbw" > "$dir/h0.txt" 2>/dev/null
grep -q '^held-out loss: none (no position held out: --holdout 0)$' "$dir/h0.txt" &&
  ! grep -q '0\.000000' "$dir/h0.txt" && ok || bad "tune --holdout 0: $(cat "$dir/h0.txt")"
# A part file begun with other weights under the same file name (the next round of a fit) is not
# resumed: the header names the weights by their checksum, not by the option's text.
cp "$dir/w1.dbw" "$dir/cur.dbw"
kill_midway "$dir/m.dat.part" 200 "$dambit" selfplay --variant russian --nodes 300 --games 300 \
  --seed 12 --eval "$dir/cur.dbw" --out "$dir/m.dat"
if [ -e "$dir/m.dat.part" ]; then
  cp "$dir/h.dbw" "$dir/cur.dbw"
  expect_error other-weights 2 "was begun with other settings" -- \
    selfplay --variant russian --nodes 300 --games 300 --seed 12 --eval "$dir/cur.dbw" --out "$dir/m.dat"
else
  bad "other-weights: the selfplay run was not stopped midway (no m.dat.part)"
fi

# The hand model: 37 hand-made weights (2 material, 20 advancement, 3, 10 runaway, 2 king), 3 king
# terms (king_opening, sole_king_opening, sole_king_ending) and the tempo = 41.
# Every 4x4 window (step 1): 41 + 25 windows * 6561 indices * 2 phases = 328091; the file loads
# for a search.
"$dambit" tune --variant russian --data "$dir/one.dat" --epochs 20 --pattern-step 1 --out "$dir/s1.dbw" \
  > "$dir/ts1.txt" 2>/dev/null && grep -q "model patterns: 328091 parameters" "$dir/ts1.txt" && ok ||
  bad "tune --pattern-step 1: $(cat "$dir/ts1.txt")"
"$dambit" search --variant russian --depth 6 --eval "$dir/s1.dbw" | grep -q '^bestmove ' && ok ||
  bad "search with step-1 weights"
expect_error tune-step 2 "'3' for --pattern-step" -- tune --data "$dir/one.dat" --out "$dir/c.dbw" --pattern-step 3

# Edge strips: 41 + 9 windows * 6561 * 2 + 4 strips * 19683 indices * 2 phases = 275603; the file
# loads for a search; --init from weights without strips adds them (the windows kept: with no
# epochs the search is the same as with the starting weights), a file with strips refuses a fit
# without them, and strips need the patterns model.
"$dambit" tune --variant russian --data "$dir/one.dat" --epochs 20 --strips --out "$dir/st.dbw" \
  > "$dir/tst.txt" 2>/dev/null && grep -q "model patterns: 275603 parameters" "$dir/tst.txt" && ok ||
  bad "tune --strips: $(cat "$dir/tst.txt")"
"$dambit" search --variant russian --depth 6 --eval "$dir/st.dbw" | grep -q '^bestmove ' && ok ||
  bad "search with strip weights"
"$dambit" "${init[@]}" --strips --epochs 0 --out "$dir/is0.dbw" > /dev/null 2>&1 || bad "tune --init --strips"
if [ "$(sig "$dir/w1.dbw")" = "$(sig "$dir/is0.dbw")" ]; then ok; else
  bad "tune --init --strips --epochs 0 changed the evaluation"; fi
expect_error init-strips 2 "st.dbw: has edge strips, the fit has none \(--strips\)" -- \
  tune --data "$dir/one.dat" --out "$dir/c.dbw" --init "$dir/st.dbw"
expect_error strips-hand 2 "--strips needs --model patterns" -- \
  tune --data "$dir/one.dat" --out "$dir/c.dbw" --model hand --strips
# The hand model has no windows: --pattern-step was taken and did nothing.
expect_error pattern-step-hand 2 "--pattern-step needs --model patterns" -- \
  tune --data "$dir/one.dat" --out "$dir/c.dbw" --model hand --pattern-step 1

# The weights in use, and every way a weights file can be wrong.
"$dambit" search --variant russian --depth 6 --eval "$dir/w1.dbw" | grep -q '^bestmove ' && ok || bad "search --eval FILE"
"$dambit" bench --variant russian --depth 5 --eval "$dir/w1.dbw" | grep -q '^nodes ' && ok || bad "bench --eval FILE"
# A book built with a weights file, then extended after the file was rewritten with other
# weights (the next round of a fit under the same name): refused, naming both weights by their
# digests (the file's name stayed the same, so it was extended with the new weights mixed in).
cp "$dir/w1.dbw" "$dir/cur-book.dbw"
"$dambit" book build --variant russian --positions 12 --nodes-per-position 200 --eval "$dir/cur-book.dbw" \
  --out "$dir/w.book" > /dev/null 2>&1 || bad "book with a weights file"
cp "$dir/h.dbw" "$dir/cur-book.dbw"
expect_error book-other-weights 2 "built with other settings \(eval=xxh64:[0-9a-f]{16}, now eval=xxh64:[0-9a-f]{16}\)" -- \
  book build --variant russian --positions 20 --nodes-per-position 200 --eval "$dir/cur-book.dbw" --out "$dir/w.book"
cp "$dir/w1.dbw" "$dir/cur-book.dbw"
"$dambit" book build --variant russian --positions 20 --nodes-per-position 200 --eval "$dir/cur-book.dbw" \
  --out "$dir/w.book" > /dev/null 2>&1 && ok || bad "book extended with the same weights"
expect_error eval-missing 2 "cannot read weights file '$dir/none.dbw'" -- search --eval "$dir/none.dbw" --depth 2
# A name with a newline in it (a file's bytes can put one in a message too, as a weights
# file's variant name did): the message is still one line, the newline shown as '?'.
expect_error eval-newline 2 "cannot read weights file '$dir/no\?ne.dbw'" -- \
  search --eval "$dir/no"$'\n'"ne.dbw" --depth 2
expect_error egtb-dir-newline 2 "no table directory 'eg\?tb' for --dir" -- \
  egtb probe --fen 'W:WK1:BK32' --dir eg$'\n'tb
cp "$dir/w1.dbw" "$dir/damaged.dbw"
printf '\x55' | dd of="$dir/damaged.dbw" bs=1 seek=300 conv=notrunc 2>/dev/null
expect_error eval-damaged 2 "checksum mismatch" -- search --eval "$dir/damaged.dbw" --depth 2
head -c 100 "$dir/w1.dbw" > "$dir/short.dbw"
expect_error eval-truncated 2 "truncated weights file" -- search --eval "$dir/short.dbw" --depth 2
expect_error eval-variant 2 "weights for russian, not international" -- \
  search --variant international --eval "$dir/w1.dbw" --depth 2
expect_error eval-not-weights 2 "not a dambit weights file" -- search --eval "$dir/one.dat" --depth 2
expect_error tune-variant 2 "data of russian, not czech" -- tune --variant czech --data "$dir/one.dat" --out "$dir/c.dbw"
expect_error tune-model 2 "unknown --model 'deep'" -- tune --data "$dir/one.dat" --out "$dir/c.dbw" --model deep
expect_error tune-not-data 2 "not a dambit selfplay data file" -- tune --data "$dir/w1.dbw" --out "$dir/c.dbw"
expect_error match-eval 2 "cannot read weights file" -- match --b "eval=$dir/none.dbw" --openings 1 --depth 1

# The loss tool: every game a side lost is analysed once, each found a search or an evaluation
# problem or no fall; the counts add up to the losses of the summary line.
out=$("$dambit" match --depth 3 --openings 4 --a eval=hand --analyse-losses 2>&1)
summary=$(grep '^games ' <<<"$out")
a_losses=$(sed -E 's/.*B wins ([0-9]+).*/\1/' <<<"$summary")
b_losses=$(sed -E 's/.*A wins ([0-9]+),.*/\1/' <<<"$summary")
check_counts() {  # LETTER LOSSES
  local line n s e u
  line=$(grep "^losses of $1: " <<<"$out")
  read -r n s e u < <(sed -E 's/^losses of .: ([0-9]+) analysed, search ([0-9]+), evaluation ([0-9]+), no fall ([0-9]+)$/\1 \2 \3 \4/' <<<"$line")
  if [ -n "$line" ] && [ "$n" -eq "$2" ] && [ $((s + e + u)) -eq "$n" ] &&
     [ "$(grep -c "^loss [0-9]*\.[12] by $1: " <<<"$out")" -eq "$n" ]; then ok; else
    bad "analyse-losses $1: '$line' for $2 losses"; fi
}
check_counts A "$a_losses"
check_counts B "$b_losses"

echo "learn_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
