#!/usr/bin/env bash
# Files the user names that are missing, damaged or edited: endgame table directories and files,
# perft checkpoints. Each is refused with one line on stderr naming it, never used silently.
# Usage: robust_files_test.sh path/to/dambit
set -u
dambit=$1
. "$(dirname "$0")/shell_helpers.sh"

# --- Table directories that are not there (exit status 2, the directory named) ---
touch "$dir/plain-file"
for action in verify info; do
  expect_error "egtb-$action-no-dir" 2 "no table directory '/nonexistent' for --dir" -- \
    egtb $action --dir /nonexistent
  expect_error "egtb-$action-file" 2 "no table directory '$dir/plain-file' for --dir" -- \
    egtb $action --dir "$dir/plain-file"
done
expect_error egtb-probe-no-dir 2 "no table directory '/nonexistent' for --dir" -- \
  egtb probe --fen 'W:WK1:BK32' --dir /nonexistent
expect_error egtb-probe-file 2 "no table directory '$dir/plain-file' for --dir" -- \
  egtb probe --fen 'W:WK1:BK32' --dir "$dir/plain-file"
expect_error egtb-default-dir 2 "no table directory 'egtb' \(the default of --dir\)" -- \
  egtb verify
# A directory without tables: nothing verified is a failure, not "0 files, 0 bad".
mkdir "$dir/empty"
expect_error egtb-verify-empty 1 "^dambit egtb: error: no table files \(\*\.egtb\) in '$dir/empty'\$" -- \
  egtb verify --dir "$dir/empty"
# info says the same (it printed its column header alone, exit status 0), --json too.
expect_error egtb-info-empty 1 "^dambit egtb: error: no table files \(\*\.egtb\) in '$dir/empty'\$" -- \
  egtb info --dir "$dir/empty"
expect_error egtb-info-empty-json 1 "^dambit egtb: error: no table files \(\*\.egtb\) in '$dir/empty'\$" -- \
  egtb info --dir "$dir/empty" --json
expect_error egtb-build-file 2 "cannot create the table directory '$dir/plain-file' for --dir" -- \
  egtb build --variant russian --pieces 2 --dir "$dir/plain-file"
expect_error egtb-build-under-file 2 "cannot create the table directory '$dir/plain-file/x'" -- \
  egtb build --variant russian --pieces 2 --dir "$dir/plain-file/x"

# --- A damaged table file (exit status 1, the file named) ---
"$dambit" egtb build --variant russian --pieces 3 --dir "$dir/good" --threads 2 >/dev/null 2>&1
cp -r "$dir/good" "$dir/bad"
# White 2 men against 1 black man: a slice the positions below never reach, so that only a check
# of every file (when the tables are opened) finds it. One bit flipped in its last block.
f="$dir/bad/russian-2010.egtb"
byte=$(od -An -tu1 -j $(($(stat -c %s "$f") - 3)) -N1 "$f" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 16)))" |
  dd of="$f" bs=1 seek=$(($(stat -c %s "$f") - 3)) conv=notrunc 2>/dev/null
if cmp -s "$f" "$dir/good/russian-2010.egtb"; then bad "damage: the file did not change"; else ok; fi
damaged="russian-2010.egtb: block 0 checksum mismatch \(damaged file\)"
# The intact tables answer; the damaged ones are refused by every command that uses them.
if "$dambit" solve --fen 'W:WKa1,Kc1:Bh8' --egtb "$dir/good" | grep -q '^win in [0-9]* plies'; then
  ok; else bad "solve-intact: the tables should prove a win"; fi
expect_error search-damaged 1 "$damaged" -- search --fen 'W:WK1:BK32' --depth 2 --egtb "$dir/bad"
expect_error solve-damaged 1 "$damaged" -- solve --fen 'W:WKa1,Kc1:Bh8' --egtb "$dir/bad"
expect_error bench-damaged 1 "$damaged" -- bench --depth 1 --egtb "$dir/bad"
expect_error match-damaged 1 "$damaged" -- match --depth 1 --openings 1 --egtb "$dir/bad"
expect_error probe-damaged 1 "$damaged" -- egtb probe --fen 'W:W21,22:B5' --dir "$dir/bad"
# A position larger than any table is named by its pieces (a slice code has a digit a count:
# twelve men came out as '<').
expect_error probe-too-many 2 "position outside the tables: no table holds a position of 24 pieces \(they go up to 8\)" -- \
  egtb probe --fen 'W:W21-32:B1-12' --dir "$dir/good"
# Black to move is looked up in the colour-flipped slice: the message names it, and says that the
# position (4 White kings against 1 Black king) is stored so (it read as another material).
expect_error probe-flipped 2 "^dambit egtb: position outside the tables: no table of slice 0104 \(white 1 king, black 4 kings\): $dir/good/international-0104.egtb is missing \(this position, white 4 kings, black 1 king, Black to move, is stored colour-flipped: the tables hold White to move\)\$" -- \
  egtb probe --variant international --fen 'B:WK1,K2,K3,K4:BK28' --dir "$dir/good"
out=$("$dambit" egtb verify --dir "$dir/bad" 2>&1)
status=$?
if [ $status -eq 1 ] && grep -Eq "^$dir/bad/$damaged\$" <<<"$out" &&
   grep -q '^16 files, .*, 1 bad$' <<<"$out"; then ok; else
  bad "verify-damaged: status $status, ${out: -300}"; fi
# --full with one file cut to nothing: that file is the one bad; the files whose values derive
# from it pass their own checksums and say they were not re-derived (each was reported as the
# cut file before, 15 bad of 16).
cp -r "$dir/good" "$dir/cut"
: >"$dir/cut/russian-0101.egtb"
out=$("$dambit" egtb verify --dir "$dir/cut" --full 2>&1)
status=$?
if [ $status -eq 1 ] && [ "$(grep -c "^$dir/cut/russian-0101.egtb: " <<<"$out")" -eq 1 ] &&
   grep -q "^$dir/cut/russian-0111.egtb: checksums ok, .*not re-derived: $dir/cut/russian-0101.egtb" <<<"$out" &&
   grep -Eq '^16 files, .*, 1 bad, [0-9]+ not re-derived$' <<<"$out"; then ok; else
  bad "verify-full-cut: status $status, ${out: -600}"; fi
# A Hub server reports it and goes on serving (without the tables).
out=$(printf 'hub\nset-param name=variant value=russian\nset-param name=egtb value=%s\ninit\nping\nquit\n' \
  "$dir/bad" | "$dambit" hub 2>&1)
status=$?
if [ $status -eq 0 ] && grep -Eq "^error message=.*$damaged" <<<"$out" &&
   grep -q '^ready$' <<<"$out" && grep -q '^pong$' <<<"$out"; then ok; else
  bad "hub-damaged: status $status, ${out: -300}"; fi
# A table damaged after the server opened it (as a failing disk would): the search's threads stop,
# the server replies error, turns the tables off, searches again and answers its move, and serves
# on. Before, a helper thread's error ended it.
cp -r "$dir/good" "$dir/late"
coproc HUB { "$dambit" hub 2>&1; }
hub_pid=$HUB_PID  # bash unsets HUB_PID and HUB when the process ends: keep copies of all three
exec {hub_in}>&"${HUB[1]}" {hub_out}<&"${HUB[0]}"
printf 'hub\nset-param name=variant value=russian\nset-param name=threads value=2\nset-param name=egtb value=%s\ninit\n' \
  "$dir/late" >&"$hub_in"
log=""
while IFS= read -r -t 20 line <&"$hub_out"; do log+="$line"$'\n'; [ "$line" = ready ] && break; done
printf '\x55' | dd of="$dir/late/russian-0101.egtb" bs=1 \
  seek=$(($(stat -c %s "$dir/late/russian-0101.egtb") - 3)) conv=notrunc 2>/dev/null
# White king on 1, black king on 32 (the Hub squares in order): every position in that one file.
printf 'pos pos=WWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeB\nlevel depth=6\ngo think\n' >&"$hub_in"
while IFS= read -r -t 20 line <&"$hub_out"; do log+="$line"$'\n'; [[ $line == done* ]] && break; done
# Setting `egtb` again, to the same directory, opens the tables again. Shown by the file still
# damaged: opening it reports the damage again (before, the server kept the tables off, silent).
printf 'set-param name=egtb value=%s\ninit\nping\nquit\n' "$dir/late" >&"$hub_in"
again=""
while IFS= read -r -t 20 line <&"$hub_out"; do again+="$line"$'\n'; done
exec {hub_in}>&- {hub_out}<&-
wait "$hub_pid"
status=$?
if [ $status -eq 0 ] &&
   grep -Eq '^error message=.*search failed: .*russian-0101.egtb: block 0 checksum mismatch.*the tables are off' <<<"$log" &&
   grep -q '^done move=' <<<"$log" && ! grep -q 'no legal move' <<<"$log"; then ok; else
  bad "hub-damaged-late: status $status, ${log: -400}"; fi
if grep -Eq "^error message=.*tables in $dir/late: .*russian-0101.egtb: block 0 checksum mismatch" <<<"$again" &&
   grep -q '^ready$' <<<"$again" && grep -q '^pong$' <<<"$again"; then ok; else
  bad "hub-egtb-reopen: $again"; fi
# A DXP server does not start with them (it would listen, and play without the tables).
"$dambit" egtb build --variant international --pieces 2 --dir "$dir/intl" --threads 2 >/dev/null 2>&1
f10="$dir/intl/international-0101.egtb"
printf '\x55' | dd of="$f10" bs=1 seek=$(($(stat -c %s "$f10") - 3)) conv=notrunc 2>/dev/null
err=$(timeout 10 "$dambit" dxp --listen 127.0.0.1:$((20000 + RANDOM % 20000)) --egtb "$dir/intl" \
  2>&1 >/dev/null)
status=$?
if [ $status -eq 1 ] && grep -q "international-0101.egtb: block 0 checksum mismatch" <<<"$err" &&
   [ "$(wc -l <<<"$err")" -eq 1 ]; then ok; else bad "dxp-damaged: status $status, ${err:0:300}"; fi
# The same build command makes the damaged file again, as it was.
"$dambit" egtb build --variant russian --pieces 3 --dir "$dir/bad" --threads 2 >/dev/null 2>&1
if cmp -s "$f" "$dir/good/russian-2010.egtb" &&
   "$dambit" egtb verify --dir "$dir/bad" | grep -q ', 0 bad$'; then ok; else
  bad "rebuild-damaged: the file was not made again"; fi
# A FIFO named like a table: reported as no regular file, not waited on (open() blocked, with
# Ctrl-C and kill unanswered, until a writer came).
cp -r "$dir/good" "$dir/fifo"
rm "$dir/fifo/russian-0201.egtb"
mkfifo "$dir/fifo/russian-0201.egtb"
out=$(timeout 60 "$dambit" egtb verify --dir "$dir/fifo" 2>&1)
status=$?
if [ $status -eq 1 ] && grep -q "^$dir/fifo/russian-0201.egtb: not a regular file\$" <<<"$out" &&
   grep -q ', 1 bad$' <<<"$out"; then ok; else bad "egtb-fifo: status $status, ${out:0:300}"; fi

# --- perft checkpoints ---
# perft-reference.md, Russian start, drop: 7, 49, 302, 1469, 7482, 37986, 190146.
ck="$dir/ck"
if "$dambit" perft --depth 6 --checkpoint "$ck" | grep -q '^    6            37986 '; then ok; else
  bad "checkpoint-write"; fi
cp "$ck" "$dir/ck.good"
# With --json, a depth from the checkpoint has its seconds as every row has them (a decimal number
# with six places; it was the integer 0).
out=$("$dambit" perft --depth 6 --checkpoint "$dir/ck.good" --json 2>&1)
if grep -q '^{"depth":5,"nodes":7482,"seconds":0.000000,"checkpoint":true}$' <<<"$out"; then ok; else
  bad "checkpoint-json: ${out: -300}"; fi
out=$("$dambit" perft --depth 7 --checkpoint "$ck" 2>&1)
if grep -q '^    5             7482 .*(from the checkpoint)$' <<<"$out" &&
   grep -q '^    7           190146 ' <<<"$out"; then ok; else bad "checkpoint-resume: ${out: -300}"; fi
# An edited count, as the QA found it read: refused (exit status 2), the file named.
sed 's/^depth 5 7482$/depth 5 100/' "$dir/ck.good" >"$ck"
expect_error checkpoint-edited 2 "checkpoint '$ck': damaged: its checksum does not match" -- \
  perft --depth 7 --checkpoint "$ck"
sed 's/^depth 1 7$/depth 1 -5/' "$dir/ck.good" >"$ck"
expect_error checkpoint-negative 2 "checkpoint '$ck': damaged" -- perft --depth 7 --checkpoint "$ck"
head -c $(($(stat -c %s "$dir/ck.good") - 10)) "$dir/ck.good" >"$ck"
expect_error checkpoint-torn 2 "checkpoint '$ck': damaged" -- perft --depth 7 --checkpoint "$ck"
# A file of the old format (no checksum): refused as written by an older dambit.
printf 'dambit-perft-checkpoint 1\n%s\ndepth 1 7\n' "$(sed -n 2p "$dir/ck.good")" >"$ck"
expect_error checkpoint-old 2 "checkpoint '$ck': written by an older dambit" -- \
  perft --depth 3 --checkpoint "$ck"
# The refused files are left as they were.
if grep -q '^depth 1 7$' "$ck"; then ok; else bad "checkpoint-kept: a refused file was replaced"; fi
# Ctrl-C saves the checkpoint as the next subtree finishes (status 130, one line saying so), and
# the same command goes on to the published count (depth 11 drop: 110917189).
env --default-signal=INT "$dambit" perft --depth 11 --threads 1 --checkpoint "$dir/ci" > /dev/null 2> "$dir/ci.err" &
pid=$!
for _ in $(seq 1500); do grep -q '^depth 8 ' "$dir/ci" 2>/dev/null && break; sleep 0.01; done
kill -INT $pid 2>/dev/null
wait $pid
status=$?
# A run that finished before the signal came is no failure of this test (a fast machine).
if [ "$status" -eq 130 ] && grep -q '^dambit perft: interrupted at depth [0-9]* (' "$dir/ci.err" ||
   [ "$status" -eq 0 ]; then ok; else bad "checkpoint-interrupt: status $status, $(cat "$dir/ci.err")"; fi
if "$dambit" perft --depth 11 --threads 1 --checkpoint "$dir/ci" | grep -q '^   11        110917189 '; then
  ok; else bad "checkpoint-interrupt-resume"; fi
[ ! -e "$dir/ci.lock" ] && ok || bad "checkpoint-interrupt: FILE.lock left"
# A checkpoint that cannot be written: refused before any output (exit status 2).
expect_error checkpoint-no-dir 2 "^dambit perft: --checkpoint /nonexistent-dir/x: cannot write '/nonexistent-dir/x.lock'" -- \
  perft --depth 3 --checkpoint /nonexistent-dir/x
expect_error checkpoint-is-dir 2 "^dambit perft: --checkpoint: '$dir' is a directory\$" -- \
  perft --depth 3 --checkpoint "$dir"
# perft --verify: a time budget of 0 s would skip every row.
expect_error verify-zero-budget 2 "bad value '0' for --max-seconds" -- perft --verify --max-seconds 0
expect_error verify-negative-budget 2 "bad value '-1' for --max-seconds \(want a number from 0.001 to 1000000000\)" -- \
  perft --verify --max-seconds -1
# The smallest budget: the rows past it say so with the budget as given (it read "past the 0 s"),
# and with less than a millisecond left, without an estimate (it read "about 0 s, past the 0.001
# s budget", then "more than the 0 s left"), and not "spent" while cheaper rows still run.
out=$("$dambit" perft --verify --max-seconds 0.001)
if grep -Eq 'skipped \((the 0.001 s budget is spent|less than a millisecond left of the 0.001 s budget|(under 0.001|about [0-9.]+) s, more than the 0.001 s left of the 0.001 s budget)\)$' <<<"$out" &&
   ! grep -q 'about 0 s' <<<"$out" && ! grep -q 'the 0 s left' <<<"$out"; then
  ok; else bad "verify-small-budget: $(grep skipped <<<"$out" | head -3)"; fi

# A checkpoint's .tmp left by a build killed while writing it is removed once its unit is built.
mkdir "$dir/stale"
head -c 1000 /dev/zero >"$dir/stale/russian-0101.checkpoint.tmp"
if "$dambit" egtb build --variant russian --pieces 2 --dir "$dir/stale" --threads 1 >/dev/null 2>&1 &&
   [ ! -e "$dir/stale/russian-0101.checkpoint.tmp" ]; then ok; else bad "egtb-stale-checkpoint-tmp"; fi
# A damaged checkpoint (a byte flipped) is said, naming the file, and its unit starts again (it
# was thrown away silently). The checkpoint: a build interrupted after 1 s (the handler is set long
# before), here within its last unit, 0203+0302 (4 million positions, some 6 s); on a slower
# machine, or under the sanitizers, within an earlier one: its checkpoint is the one damaged.
cpb=(egtb build --variant russian --pieces 5 --slice 0302 --threads 1 --dir "$dir/cp")
timeout --foreground --preserve-status -s INT 1 "$dambit" "${cpb[@]}" >/dev/null 2>"$dir/cp.err"
status=$?
cps=("$dir"/cp/*.checkpoint)
if [ "$status" -eq 130 ] && [ ${#cps[@]} -eq 1 ] && [ -s "${cps[0]}" ]; then
  ok
  cp_file=${cps[0]}
  at=$(($(stat -c %s "$cp_file") / 2))
  byte=$(od -An -tu1 -j "$at" -N1 "$cp_file" | tr -d ' ')
  printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$cp_file" bs=1 seek="$at" conv=notrunc 2>/dev/null
  # The same command: the line at the start of that unit, then (interrupted again, or finished on
  # a fast machine) nothing else about the checkpoint.
  timeout --foreground --preserve-status -s INT 1 "$dambit" "${cpb[@]}" >/dev/null 2>"$dir/cp.err"
  status=$?
  if { [ "$status" -eq 130 ] || [ "$status" -eq 0 ]; } &&
     [ "$(grep -c 'checkpoint' "$dir/cp.err")" -eq 1 ] &&
     grep -q "^dambit egtb build: $cp_file is damaged (checksum mismatch); the unit starts again\$" "$dir/cp.err"
  then ok; else bad "egtb-damaged-checkpoint: status $status, $(cat "$dir/cp.err")"; fi
else
  bad "egtb-damaged-checkpoint: no checkpoint made: status $status, ${cps[*]}, $(cat "$dir/cp.err")"
fi
rm -rf "$dir/cp"
# tune: the weights must not replace a data file given.
expect_error tune-out-is-data 2 "--out $dir/full.dat: is the data file '$dir/full.dat'" -- \
  tune --data "$dir/full.dat" --out "$dir/full.dat"

# --- Outputs that stop taking bytes (a full disk), made by a file size limit: the write fails
# (EFBIG, with SIGXFSZ ignored) while the games of other threads are under way. One line on
# stderr and exit status 1, never an abort (it was "terminate called without an active
# exception", status 134). A selfplay journal keeps its whole blocks for the next run.
full_disk() {  # full_disk NAME KB ARGS...
  local name=$1 kb=$2 out status
  shift 2
  out=$( (ulimit -f "$kb"; trap '' XFSZ; timeout 120 "$dambit" "$@") 2>&1 >/dev/null)
  status=$?
  if [ "$status" -eq 1 ] && grep -q "cannot write '.*': File too large" <<<"$out" &&
     [ "$(wc -l <<<"$out")" -eq 1 ]; then ok; else bad "$name: status $status, '${out:0:300}'"; fi
}
full_disk selfplay-full 16 selfplay --positions 100000 --nodes 200 --threads 2 --out "$dir/full.dat"
full_disk match-full 4 match --depth 2 --openings 30 --concurrency 2 --pgn "$dir/full.pdn"
# The same selfplay again, without the limit, goes on from the journal's whole blocks.
if [ -s "$dir/full.dat.part" ] &&
   "$dambit" selfplay --positions 3000 --nodes 200 --out "$dir/full.dat" >/dev/null 2>&1 &&
   [ -s "$dir/full.dat" ]; then ok; else bad "selfplay-full-resume"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
