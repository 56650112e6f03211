#!/usr/bin/env bash
# dambit match against engines of other programs, through the real interface: dambit's own Hub
# engine, and fake Hub engines (small bash scripts) that play an illegal move, crash, or hang.
# Usage: match_test.sh path/to/dambit
set -u
dambit=$1
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && echo "  ${2:0:600}"; fail=$((fail + 1)); }

# A fake Hub engine: the handshake, then what `go` gets is the script's argument. Its version is
# 1, or what the file fake.version beside it says.
cat >"$tmp/fake.sh" <<'SCRIPT'
#!/usr/bin/env bash
# fake.sh illegal|crash|hang|sleep
while IFS= read -r line; do
  case "$line" in
    hub) echo "id name=fake-$1 version=$(cat "$(dirname "$0")/fake.version" 2>/dev/null || echo 1)"; echo "param name=variant value=russian type=enum values=\"russian\""; echo wait ;;
    init) echo ready ;;
    go*)
      case "$1" in
        illegal) echo "info depth=1 score=0.00"; echo "done move=1-2" ;;
        crash) exit 3 ;;
        hang) ;;
        sleep) sleep 30 ;;  # thinks, deaf to stop, until its move time is long past
      esac ;;
    quit) exit 0 ;;
  esac
done
SCRIPT
chmod +x "$tmp/fake.sh"

# run NAME ARGS...: runs dambit match, output in $tmp/NAME.out, status in $status.
run() {
  local name=$1
  shift
  timeout 120 "$dambit" match "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  status=$?
}

# dambit against dambit's own Hub engine: two games and the summary.
run hub --b "hub:'$dambit' hub" --movetime 20 --openings 1 --max-plies 120 --pgn "$tmp/hub.pdn"
if [ "$status" -eq 0 ] && grep -Eq '^games 2, A wins [0-9]+, draws [0-9]+, B wins [0-9]+, A scores' "$tmp/hub.out" &&
   grep -q "vs B hub:'$dambit' hub (dambit 0.9)" "$tmp/hub.out" && grep -q '^forfeits: A 0, B 0$' "$tmp/hub.out" &&
   [ "$(grep -c '^\[Event ' "$tmp/hub.pdn")" -eq 2 ]; then ok; else bad hub-dambit "$(cat "$tmp/hub.out" "$tmp/hub.err")"; fi

# The pairs line counts the openings by A's points over their two games, as the opening lines
# give them (A-B R1: A is White in R1; B-A R2: A is Black in R2), and its score is the games'.
run pairs --a lmr=off --depth 4 --openings 6 --hash 16
want=$(awk '/^opening / {
  split($0, g, /A-B |, B-A /); split(g[2], r1, " "); split(g[3], r2, " ")
  a = (r1[1] == "1-0") + (r2[1] == "0-1") + 0.5 * (r1[1] == "1/2-1/2") + 0.5 * (r2[1] == "1/2-1/2")
  n[a * 2]++ } END { printf "%d %d %d %d %d", n[0], n[1], n[2], n[3], n[4] }' "$tmp/pairs.out")
got=$(sed -nE "s/^pairs 6, A's points a pair 0 0.5 1 1.5 2: ([0-9 ]+), Elo A-B .* \(95%, from the pairs\)$/\1/p" "$tmp/pairs.out")
if [ "$status" -eq 0 ] && [ -n "$got" ] && [ "$got" = "$want" ]; then ok; else
  bad pairs "want '$want', got '$got': $(cat "$tmp/pairs.out")"; fi

# Each side's line ends with the wall time of its moves as the harness timed them: the mean and
# the longest, which no answer can exceed without a forfeit (the move time 20 ms and the grace
# of 1000 ms), and the mean at most the longest.
times_ok=1
for side in A B; do
  t=$(grep "^$side: [0-9]* moves, " "$tmp/hub.out" | sed -En 's/.*, ([0-9.]+) ms\/move, longest ([0-9]+) ms$/\1 \2/p')
  # shellcheck disable=SC2086
  set -- $t
  if [ $# -ne 2 ] || ! awk -v m="$1" -v l="$2" 'BEGIN { exit !(m <= l && l <= 1020) }'; then times_ok=0; fi
done
if [ "$times_ok" -eq 1 ]; then ok; else bad hub-move-times "$(cat "$tmp/hub.out")"; fi

# A second match writing the PDN file a first match is writing: refused at once (FILE.tmp is
# locked), and the first goes on with its file untouched (the output check used to empty it).
"$dambit" match --nodes 20000 --openings 100 --opening-plies 4 --pgn "$tmp/busy.pdn" >/dev/null 2>&1 &
first=$!
for _ in $(seq 1500); do [ -s "$tmp/busy.pdn.tmp" ] && break; sleep 0.02; done
size=$(stat -c %s "$tmp/busy.pdn.tmp")
run busy --depth 2 --openings 1 --pgn "$tmp/busy.pdn"
if [ "$status" -eq 2 ] && [ ! -s "$tmp/busy.out" ] &&
   grep -q "^dambit match: --pgn: '.*busy.pdn.tmp' is being written by another run" "$tmp/busy.err" &&
   kill -0 "$first" 2>/dev/null && [ "$(stat -c %s "$tmp/busy.pdn.tmp")" -ge "$size" ]; then ok; else
  bad busy-pgn "status $status: $(cat "$tmp/busy.err")"; fi
kill -9 "$first" 2>/dev/null; wait "$first" 2>/dev/null

# The fake engines: every game of theirs is forfeited, with the reason in the output and in the
# PDN, and the match plays both pairs to the end. In each pair B is Black in game 1 (its first
# move comes after A's) and White in game 2.
for kind in illegal crash hang; do
  case $kind in
    illegal) reason="illegal move '1-2'" ;;
    crash) reason='the engine exited with status 3' ;;
    hang) reason='no answer within 320 ms' ;;
  esac
  run "$kind" --b "hub:$tmp/fake.sh $kind" --movetime 20 --grace 300 --openings 2 --pgn "$tmp/$kind.pdn"
  pairs=$(grep -c "^opening [12]/2 .*: A-B 1-0 (forfeit by Black: $reason, 1 plies), B-A 0-1 (forfeit by White: $reason, 0 plies)" "$tmp/$kind.out")
  if [ "$status" -eq 0 ] && [ "$pairs" -eq 2 ] &&
     grep -q '^forfeits: A 0, B 4$' "$tmp/$kind.out" &&
     grep -q '^games 4, A wins 4, draws 0, B wins 0' "$tmp/$kind.out" &&
     [ "$(grep -c "{forfeit by [A-Za-z]*: $reason}" "$tmp/$kind.pdn")" -eq 4 ]; then ok; else
    bad "fake-$kind" "$(cat "$tmp/$kind.out" "$tmp/$kind.err")"; fi
done
# The crashing engine was started again for each game (four games, one start each). It played
# no move, but each request it crashed on is timed: the times follow.
if grep -Eq '^B: 0 moves, hub engine .fake-crash 1., restarted 3 times, [0-9.]+ ms/move, longest [0-9]+ ms$' "$tmp/crash.out"; then ok; else
  bad crash-restarts "$(grep '^B:' "$tmp/crash.out")"; fi
# The move a side forfeits on counts in its times (it was left out: a side that lost on time
# showed only its moves before). The hanging engine answered none of its four requests, and the
# harness gave up on each after 320 ms (20 + the grace 300): the mean and the longest are at
# least that, less the few milliseconds lost to whole-millisecond waits and truncated times (a
# run showed 319.8), so at least 310 ms.
t=$(grep '^B: 0 moves, ' "$tmp/hang.out" | sed -En 's/.*, ([0-9.]+) ms\/move, longest ([0-9]+) ms$/\1 \2/p')
# shellcheck disable=SC2086
set -- $t
if [ $# -eq 2 ] && awk -v m="$1" -v l="$2" 'BEGIN { exit !(m >= 310 && l >= 310) }'; then ok; else
  bad hang-times "$(grep '^B:' "$tmp/hang.out")"; fi
# A Hub engine that cannot be started again ends the match (it made every later game a forfeit
# win for A, exit status 0, "Elo +inf"). once.sh starts fake.sh crash twice and then exits with
# status 5 at once. Pair 1: B crashes in each game (the first start, then the restart for game
# 2); pair 2 game 1 needs a second restart, which fails. So one pair counts (2 games, both A's),
# the summary is printed, one line names B's engine and why, exit status 1, and FILE.tmp and the
# journal stay for a resume. The resume (the start count reset: a mended engine) goes on from
# pair 2 and meets the same end after pair 2; a third run finishes pair 3: 6 games in FILE.
cat >"$tmp/once.sh" <<SCRIPT
#!/usr/bin/env bash
n=\$((\$(cat "$tmp/once.starts" 2>/dev/null || echo 0) + 1))
echo "\$n" >"$tmp/once.starts"
[ "\$n" -le 2 ] || exit 5
exec "$tmp/fake.sh" crash
SCRIPT
chmod +x "$tmp/once.sh"
lost_ok=1
for round in 1 2 3; do
  rm -f "$tmp/once.starts"
  run "lost$round" --b "hub:$tmp/once.sh" --movetime 20 --openings 3 --pgn "$tmp/lost.pdn"
  out="$tmp/lost$round.out" err="$tmp/lost$round.err"
  if [ "$round" -lt 3 ]; then
    [ "$status" -eq 1 ] && grep -q "^games $((2 * round)), A wins $((2 * round)), draws 0, B wins 0" "$out" &&
      grep -q '^B: 0 moves, hub engine .fake-crash 1., restarted 1 time' "$out" &&
      [ "$(wc -l <"$err")" -eq 1 ] &&
      grep -q "^dambit match: error: B: hub engine '$tmp/once.sh' could not be started again: the engine exited with status 5 before 'wait'; the match ends after $round of 3 openings; their games are in $tmp/lost.pdn.tmp, and the same command resumes the match\$" "$err" &&
      [ -e "$tmp/lost.pdn.tmp" ] && [ -e "$tmp/lost.pdn.journal" ] && [ ! -e "$tmp/lost.pdn" ] || lost_ok=0
  else
    [ "$status" -eq 0 ] && [ "$(grep -c '^\[Event ' "$tmp/lost.pdn")" -eq 6 ] &&
      grep -q "^resumed from $tmp/lost.pdn.tmp: 2 of 3 openings played\$" "$out" || lost_ok=0
  fi
  [ "$round" -eq 1 ] || grep -q "^resumed from $tmp/lost.pdn.tmp: $((round - 1)) of 3 openings played\$" "$out" || lost_ok=0
  [ "$lost_ok" -eq 1 ] || { bad "hub-not-restarted-$round" "status $status: $(cat "$out" "$err")"; break; }
done
[ "$lost_ok" -eq 0 ] || ok
# No engine process is left behind.
sleep 0.2
if ! pgrep -f "$tmp/fake.sh" >/dev/null; then ok; else bad leftover-processes "$(pgrep -af "$tmp/fake.sh")"; fi

# A Fischer clock: dambit against its Hub engine at 2 s + 0.05 s, no loss on time.
run tc --b "hub:$dambit hub" --tc 2+0.05 --openings 1 --max-plies 100
if [ "$status" -eq 0 ] && grep -q '^games 2,' "$tmp/tc.out" && ! grep -q 'forfeit by' "$tmp/tc.out" &&
   grep -q '^forfeits: A 0, B 0$' "$tmp/tc.out"; then ok; else bad tc "$(cat "$tmp/tc.out" "$tmp/tc.err")"; fi

# SPRT: a line per pair with the ratio and the bounds ln(0.05/0.95) and ln(0.95/0.05).
run sprt --depth 2 --openings 3 --a lmr=off --sprt 'elo0=0 elo1=5 alpha=0.05 beta=0.05'
if [ "$status" -eq 0 ] && [ "$(grep -Ec '^LLR -?[0-9]+\.[0-9]{2} \[-2\.94, 2\.94\]$' "$tmp/sprt.out")" -ge 1 ] &&
   grep -Eq '^(SPRT: no decision|H[01] accepted)' "$tmp/sprt.out"; then ok; else
  bad sprt "$(cat "$tmp/sprt.out" "$tmp/sprt.err")"; fi

# An LLR that rounds to zero is written 0.00, never -0.00 (two drawn pairs at depth 1 gave it).
run llr0 --depth 1 --openings 2 --sprt elo0=0,elo1=5
if [ "$status" -eq 0 ] && grep -q '^LLR ' "$tmp/llr0.out" && ! grep -q 'LLR -0\.00' "$tmp/llr0.out"; then ok; else
  bad llr-zero "$(grep LLR "$tmp/llr0.out")"; fi

# Ctrl-C: the pairs finished are summed up (the summary line), one line on stderr says where the
# games are, the PDN stays in FILE.tmp (FILE is never a half match), exit status 130; the signal
# comes when the handler is long in place, under the sanitizers too.
timeout --foreground --preserve-status -s INT 2 "$dambit" match --movetime 10 --openings 40 --pgn "$tmp/int.pdn" \
  >"$tmp/int.out" 2>"$tmp/int.err"
status=$?
# With no pair finished (a slow build) there is nothing to keep: no FILE.tmp, no journal.
if [ "$status" -eq 130 ] && grep -Eq '^games [0-9]+, A wins' "$tmp/int.out" && [ ! -e "$tmp/int.pdn" ] &&
   { { grep -Eq "^dambit match: interrupted after [1-9][0-9]* of 40 openings; their games are in $tmp/int.pdn.tmp, and the same command resumes the match\$" "$tmp/int.err" &&
       [ -e "$tmp/int.pdn.tmp" ] && [ -e "$tmp/int.pdn.journal" ]; } ||
     { grep -Eq "^dambit match: interrupted after 0 of 40 openings\$" "$tmp/int.err" &&
       [ ! -e "$tmp/int.pdn.tmp" ] && [ ! -e "$tmp/int.pdn.journal" ]; }; }; then ok; else
  bad interrupted "status $status: $(tail -2 "$tmp/int.out") $(cat "$tmp/int.err")"; fi

# Resuming: the same command goes on from the pairs an interrupted match finished. With one
# thread and a node limit the games do not depend on the run, so the whole match, interrupted
# (two games at once) and resumed, writes the same PDN and pair lines as a match never stopped.
# The resume may count fewer openings than the first run played (--openings 6 there, 40 here):
# the PDN then holds the first six pairs.
resume_args=(--nodes 4000 --opening-plies 3)
"$dambit" match "${resume_args[@]}" --openings 6 --pgn "$tmp/ref.pdn" >"$tmp/ref.out" 2>&1
# interrupt_after NAME N: starts the 40-opening match writing $tmp/NAME.pdn and sends it SIGINT
# once its journal holds N pairs; status in $status.
source "$(dirname "$0")/interrupt_when.sh"
interrupt_after() {
  interrupt_when "$tmp/$1.pdn.journal" '^pair ' "$2" "$tmp/$1-int.out" "$tmp/$1-int.err" \
    "$dambit" match "${resume_args[@]}" --openings 40 --concurrency 2 --pgn "$tmp/$1.pdn"
}
pairs_of() { grep '^opening ' "$1" | sed -E 's/^opening ([0-9]+)\/[0-9]+/opening \1/'; }
interrupt_after res 2
run res "${resume_args[@]}" --openings 6 --pgn "$tmp/res.pdn"
if [ "$status" -eq 0 ] && grep -Eq "^resumed from $tmp/res.pdn.tmp: [2-6] of 6 openings played\$" "$tmp/res.out" &&
   cmp -s "$tmp/res.pdn" "$tmp/ref.pdn" && [ "$(pairs_of "$tmp/res.out")" = "$(pairs_of "$tmp/ref.out")" ] &&
   [ ! -e "$tmp/res.pdn.tmp" ] && [ ! -e "$tmp/res.pdn.journal" ]; then ok; else
  bad resumed "status $status: $(head -3 "$tmp/res.out") $(cat "$tmp/res.err")"; fi

# What a resume refuses or mends, each from a copy of one interrupted match's files:
interrupt_after cut 2
cp "$tmp/cut.pdn.tmp" "$tmp/cut.saved.tmp" && cp "$tmp/cut.pdn.journal" "$tmp/cut.saved.journal"
restore() { cp "$tmp/cut.saved.tmp" "$tmp/cut.pdn.tmp" && cp "$tmp/cut.saved.journal" "$tmp/cut.pdn.journal"; }
# - other settings: refused, naming the change, the files left as they are;
run other --nodes 4001 --opening-plies 3 --openings 6 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 2 ] && [ ! -s "$tmp/other.out" ] &&
   grep -q "holds the games of an interrupted match with other settings (nodes=4000, now nodes=4001); the same settings resume it, or move it away" "$tmp/other.err" &&
   cmp -s "$tmp/cut.pdn.tmp" "$tmp/cut.saved.tmp"; then ok; else
  bad resume-other-settings "status $status: $(cat "$tmp/other.err")"; fi
# - no journal (a match of an older dambit): refused;
rm "$tmp/cut.pdn.journal"
run nojournal "${resume_args[@]}" --openings 6 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 2 ] && grep -q "holds the games of an interrupted match without its journal" "$tmp/nojournal.err"; then
  ok; else bad resume-no-journal "status $status: $(cat "$tmp/nojournal.err")"; fi
# - killed after writing games and before their journal line (or in the middle of either): the
#   games past the journal are cut off and played again;
restore
printf '[Event "dambit match russian, nod' >>"$tmp/cut.pdn.tmp"
printf 'pair 9 12' >>"$tmp/cut.pdn.journal"
run torn "${resume_args[@]}" --openings 6 --pgn "$tmp/cut.pdn"
# (When the interrupted run finished more than six pairs before it stopped, as on a loaded
# machine, a line says that only six are kept: that one is allowed.)
if [ "$status" -eq 0 ] && cmp -s "$tmp/cut.pdn" "$tmp/ref.pdn" &&
   [ -z "$(grep -v 'only their pairs are kept$' "$tmp/torn.err")" ]; then ok; else
  bad resume-torn "status $status: $(cat "$tmp/torn.err")"; fi
# - a byte of the first pair changed: reported, and every pair played again. The pair's own
#   bytes run from 0 to its end in the journal (`pair 1 END ...`), and the bytes after it are
#   the rest of FILE.tmp (the count said "the K bytes after it" of the pair's own and the rest).
restore
end1=$(awk '$1 == "pair" && $2 == 1 { print $3 }' "$tmp/cut.pdn.journal")
size=$(stat -c %s "$tmp/cut.pdn.tmp")
sed -i '1s/dambit match/dambit matcH/' "$tmp/cut.pdn.tmp"
run damaged "${resume_args[@]}" --openings 6 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 0 ] && cmp -s "$tmp/cut.pdn" "$tmp/ref.pdn" && ! grep -q '^resumed' "$tmp/damaged.out" &&
   grep -q "^dambit match: $tmp/cut.pdn.tmp is damaged: the game pair of opening 1 fails its check; it ($end1 bytes) and the $((size - end1)) bytes after it are played again\$" "$tmp/damaged.err"; then
  ok; else bad resume-damaged "status $status: $(cat "$tmp/damaged.err")"; fi
# - the last pair damaged (its last byte changed): its bytes are those after the pair before it,
#   and nothing follows it (the count said "the N bytes after it" of its own N).
restore
last=$(grep -c '^pair ' "$tmp/cut.pdn.journal")
endp=$(awk -v k=$((last - 1)) '$1 == "pair" && $2 == k { print $3 }' "$tmp/cut.pdn.journal")
endl=$(awk -v k="$last" '$1 == "pair" && $2 == k { print $3 }' "$tmp/cut.pdn.journal")
size=$(stat -c %s "$tmp/cut.pdn.tmp")
printf 'X' | dd of="$tmp/cut.pdn.tmp" bs=1 seek=$((endl - 2)) conv=notrunc 2>/dev/null
run damaged-last "${resume_args[@]}" --openings 6 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 0 ] && [ "$endl" -eq "$size" ] && cmp -s "$tmp/cut.pdn" "$tmp/ref.pdn" &&
   grep -q "^dambit match: $tmp/cut.pdn.tmp is damaged: the game pair of opening $last fails its check; it ($((endl - endp)) bytes) and the 0 bytes after it are played again\$" "$tmp/damaged-last.err"; then
  ok; else bad resume-damaged-last "status $status, $last pairs: $(cat "$tmp/damaged-last.err")"; fi
# - a whole line of the journal that cannot be read (not a torn last one): said, and the pairs
#   from there played again;
restore
sed -i '3s/^pair 1 /pair 1 x/' "$tmp/cut.pdn.journal"
run garbled "${resume_args[@]}" --openings 6 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 0 ] && cmp -s "$tmp/cut.pdn" "$tmp/ref.pdn" &&
   grep -Eq "^dambit match: $tmp/cut.pdn.journal is damaged at line 3: the games in $tmp/cut.pdn.tmp are played again\$" "$tmp/garbled.err"; then
  ok; else bad resume-journal-damaged "status $status: $(cat "$tmp/garbled.err")"; fi
# - a journal of another kind (an analysis's): refused as such;
restore
sed -i '1s/match/analyse/' "$tmp/cut.pdn.journal"
run otherkind "${resume_args[@]}" --openings 6 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 2 ] && grep -q "holds the games of an interrupted match, and '$tmp/cut.pdn.journal' is not a journal of dambit match; move it away" "$tmp/otherkind.err"; then
  ok; else bad resume-other-kind "status $status: $(cat "$tmp/otherkind.err")"; fi
# - the same evaluation under another name (the games' tags would name two): refused;
restore
run evalname "${resume_args[@]}" --eval learned --openings 6 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 2 ] && grep -Eq "\(a.eval=auto:xxh64:[0-9a-f]+, now a.eval=learned:xxh64:[0-9a-f]+; " "$tmp/evalname.err"; then
  ok; else bad resume-eval-name "status $status: $(cat "$tmp/evalname.err")"; fi
# - fewer openings than were played: the first ones kept, and the rest said to be dropped.
restore
run fewer "${resume_args[@]}" --openings 1 --pgn "$tmp/cut.pdn"
if [ "$status" -eq 0 ] && [ "$(grep -c '^\[Event ' "$tmp/cut.pdn")" -eq 2 ] &&
   grep -Eq "^dambit match: $tmp/cut.pdn.tmp holds [0-9]+ game pairs; the match has 1 opening now, and only their pairs are kept\$" "$tmp/fewer.err"; then
  ok; else bad resume-fewer "status $status: $(cat "$tmp/fewer.err")"; fi

# - --sprt added on a resume, deciding within the pairs played before: they are all counted and
#   kept (the games after the decision vanished from the PDN without a word). The trinomial
#   model, counting the games one by one (the pentanomial one sees no spread: see below). With --max-plies 1
#   and B the engine that plays illegal moves, each pair is a draw (A's first move reaches the
#   ply limit; B is never asked) and a win for A (B's illegal first move): W=1, D=1. After k
#   pairs N=2k, X=1.5k, var=0.0625; elo1=100 gives s1=1/(1+10^-0.25)=0.640065, so
#   LLR = 0.140065 (3k - 2k 1.140065) / 0.125 = 0.8066 k: 2.42 at pair 3, 3.23 at pair 4, the
#   first above ln(0.95/0.05) = 2.94. The interrupted run has played P >= 6 pairs (of 200: it
#   is stopped long before its end).
sprt_args=(--b "hub:$tmp/fake.sh illegal" --movetime 20 --max-plies 1 --opening-plies 3 --openings 200 --pgn "$tmp/sp.pdn")
interrupt_when "$tmp/sp.pdn.journal" '^pair ' 6 "$tmp/sp-int.out" "$tmp/sp-int.err" "$dambit" match "${sprt_args[@]}"
p=$(grep -c '^pair ' "$tmp/sp.pdn.journal")
run sprt-resume "${sprt_args[@]}" --sprt 'elo0=0 elo1=100 model=trinomial'
if [ "$status" -eq 0 ] && [ "$p" -ge 6 ] &&
   [ "$(grep -A1 '^LLR 3\.23 ' "$tmp/sprt-resume.out" | head -2 | tail -1)" = 'H1 accepted: elo >= 100' ] &&
   grep -q "^opening 4/200 .*; A +4 =4 -0\$" "$tmp/sprt-resume.out" &&
   grep -q "^SPRT decided at opening 4; the $((p - 4)) game pairs played before the resume after it are counted too\$" "$tmp/sprt-resume.out" &&
   grep -q "^games $((2 * p)), A wins $p, draws $p, B wins 0" "$tmp/sprt-resume.out" &&
   [ "$(grep -c '^\[Event ' "$tmp/sp.pdn")" -eq $((2 * p)) ] && [ ! -e "$tmp/sp.pdn.tmp" ]; then ok; else
  bad resume-sprt "status $status, $p pairs: $(cat "$tmp/sprt-resume.out" "$tmp/sprt-resume.err")"; fi
# Such pairs under the default, pentanomial model: every pair scored 1.5 points (a draw and a
# win), so the pairs have no spread and the ratio stays 0 -- no decision, all 6 pairs played.
run sprt-penta --b "hub:$tmp/fake.sh illegal" --movetime 20 --max-plies 1 --opening-plies 3 --openings 6 \
  --sprt 'elo0=0 elo1=100'
if [ "$status" -eq 0 ] &&
   grep -q '^SPRT elo0 0 elo1 100 alpha 0.05 beta 0.05, pentanomial: bounds \[-2\.94, 2\.94\]$' "$tmp/sprt-penta.out" &&
   [ "$(grep -c '^LLR 0\.00 ' "$tmp/sprt-penta.out")" -eq 6 ] &&
   grep -q "^pairs 6, A's points a pair 0 0.5 1 1.5 2: 0 0 0 6 0," "$tmp/sprt-penta.out" &&
   grep -q '^SPRT: no decision, LLR 0.00 ' "$tmp/sprt-penta.out"; then ok; else
  bad sprt-penta "status $status: $(cat "$tmp/sprt-penta.out" "$tmp/sprt-penta.err")"; fi

# - the Hub engine upgraded between the runs (its id line says version 2.0, not 1): refused,
#   naming both versions, as another setting is; the files left as they are. The command line
#   alone (all the journal kept of it) is the same, and the games of both versions were mixed.
#   Version 1 again resumes it (with 2 openings, fewer than the 200 of the run stopped: quicker).
ver_args=(--b "hub:$tmp/fake.sh illegal" --movetime 20 --opening-plies 3 --openings 200 --pgn "$tmp/ver.pdn")
interrupt_when "$tmp/ver.pdn.journal" '^pair ' 1 "$tmp/ver-int.out" "$tmp/ver-int.err" "$dambit" match "${ver_args[@]}"
cp "$tmp/ver.pdn.tmp" "$tmp/ver.saved.tmp"
echo 2.0 >"$tmp/fake.version"
run ver "${ver_args[@]}"
rm "$tmp/fake.version"
if [ "$status" -eq 2 ] && [ ! -s "$tmp/ver.out" ] && [ "$(wc -l <"$tmp/ver.err")" -eq 1 ] &&
   grep -q "holds the games of an interrupted match with other settings (b.version=1, now b.version=2.0); the same settings resume it" "$tmp/ver.err" &&
   cmp -s "$tmp/ver.pdn.tmp" "$tmp/ver.saved.tmp"; then ok; else
  bad resume-hub-version "status $status: $(cat "$tmp/ver.err")"; fi
run ver1 "${ver_args[@]:0:6}" --openings 2 --pgn "$tmp/ver.pdn"
if [ "$status" -eq 0 ] && grep -q "^resumed from $tmp/ver.pdn.tmp: [12] of 2 openings played\$" "$tmp/ver1.out"; then ok; else
  bad resume-hub-same-version "status $status: $(head -3 "$tmp/ver1.out") $(cat "$tmp/ver1.err")"; fi

# Ctrl-C stops the searches under way too: with 20 s a move, the match ends within a few seconds
# of the signal (it waited for the move under way, up to 20 s). No game finished: the Elo line
# keeps its shape and says nothing is known (it said -inf).
start=$(date +%s)
timeout --foreground --preserve-status -s INT 1.5 "$dambit" match --movetime 20000 --openings 2 \
  >"$tmp/int2.out" 2>"$tmp/int2.err"
status=$? took=$(($(date +%s) - start))
if [ "$status" -eq 130 ] && [ "$took" -lt 12 ] &&
   grep -q '^games 0, A wins 0, draws 0, B wins 0, A scores 50.0%, Elo A-B +0.0 +/- inf (95%)' "$tmp/int2.out" &&
   grep -Eq "^dambit match: interrupted after 0 of 2 openings" "$tmp/int2.err"; then ok; else
  bad interrupted-search "status $status after $took s: $(cat "$tmp/int2.err")"; fi

# Ctrl-C stops the Hub engines' searches too: each is sent `stop` and gives its move at once, or
# within a second is killed (the fake 'hang' engine ignores `stop`). With 20 s a move on both
# sides the match ends within a few seconds of the signal (it waited out the move under way, 20 s),
# and the game given up is no forfeit. First both sides are dambit's Hub engine; then, from a
# position with Black to move, B (Black in game 1) is the engine that never answers. The signal
# comes once the engine to move first has been sent its `go` (its input is copied to a log), not
# after a fixed time: under ThreadSanitizer the handshake alone took longer than 1.5 s.
printf 'black\tB:W21-32:B1-12\n' >"$tmp/black.txt"
# wait_for_go LOG PID: until the engine whose input is copied to LOG has been sent its `go` (or
# the match PID has ended), then a moment for the search to begin.
wait_for_go() {
  for _ in $(seq 3000); do
    { grep -q '^go' "$1" 2>/dev/null || ! kill -0 "$2" 2>/dev/null; } && break
    sleep 0.01
  done
  sleep 0.2
}
for case in stop hang; do
  log="$tmp/int-$case.in" a="hub:$dambit hub"
  if [ "$case" = stop ]; then a="hub:tee $log | $dambit hub" b="hub:$dambit hub" from=(--openings 1)
  else b="hub:tee $log | $tmp/fake.sh hang" from=(--openings-file "$tmp/black.txt"); fi
  start=$(date +%s)
  env --default-signal=INT "$dambit" match --a "$a" --b "$b" --movetime 20000 "${from[@]}" \
    >"$tmp/int-$case.out" 2>"$tmp/int-$case.err" &
  pid=$!
  wait_for_go "$log" $pid
  kill -INT $pid 2>/dev/null
  wait $pid
  status=$? took=$(($(date +%s) - start))
  # In the stop case A's search was under way: its move given on `stop` is counted (with a
  # signal before its search, A would have played none).
  if [ "$status" -eq 130 ] && [ "$took" -lt 12 ] && grep -q '^forfeits: A 0, B 0$' "$tmp/int-$case.out" &&
     grep -q '^games 0, ' "$tmp/int-$case.out" &&
     { [ "$case" = hang ] || grep -q '^A: 1 move, ' "$tmp/int-$case.out"; }; then ok; else
    bad "interrupted-hub-$case" "status $status after $took s: $(cat "$tmp/int-$case.out" "$tmp/int-$case.err")"; fi
done

# dambit raises its own soft limit of open files (its engines open every table); the engines of
# other programs it starts get the limit it found (they got the hard limit: 2^30 in some
# containers breaks a program using select()).
(ulimit -Sn 256; "$dambit" match --b "hub:ulimit -Sn >'$tmp/lim.txt'; exec '$dambit' hub" --depth 1 \
  --openings 1 --max-plies 4 >/dev/null 2>&1)
if [ "$(cat "$tmp/lim.txt" 2>/dev/null)" = 256 ]; then ok; else bad engine-open-files "$(cat "$tmp/lim.txt" 2>/dev/null)"; fi

# A second Ctrl-C while the Hub engines are being stopped ends the match at once, and the
# engines with it: the engine that sleeps through its `stop` was left running, re-parented to
# init (the second signal found the default action, not the handler that kills the engines).
log="$tmp/int-twice.in"
env --default-signal=INT "$dambit" match --b "hub:tee $log | $tmp/fake.sh sleep" --movetime 20000 \
  --openings-file "$tmp/black.txt" >/dev/null 2>&1 &
pid=$!
wait_for_go "$log" $pid
kill -INT $pid 2>/dev/null
sleep 0.3
kill -INT $pid 2>/dev/null
wait $pid
status=$?
sleep 0.5
if [ "$status" -eq 130 ] && ! pgrep -f "$tmp/fake.sh sleep" >/dev/null; then ok; else
  bad interrupted-twice "status $status, left running: $(pgrep -af "$tmp/fake.sh sleep")"; fi
pkill -f "$tmp/fake.sh sleep" 2>/dev/null

# kill while a Hub engine starts (its handshake may take 10 s and its init 30 s): the wait for its
# lines looks at the stop flag, so the match ends as any interruption does, within a moment of
# the signal, not 8 s later when the engine answers (the signal killed dambit outright, status
# 143, and left FILE.journal and an empty FILE.tmp). No pair finished: the summary of none, the
# line "interrupted after 0 of 1 openings", exit status 130, neither file, no engine left.
start=$(date +%s)
"$dambit" match --b "hub:sleep 8; exec '$dambit' hub" --movetime 20 --openings 1 --pgn "$tmp/ss.pdn" \
  >"$tmp/ss.out" 2>"$tmp/ss.err" &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
status=$? took=$(($(date +%s) - start))
if [ "$status" -eq 130 ] && [ "$took" -lt 6 ] && grep -q '^games 0, A wins 0, draws 0, B wins 0' "$tmp/ss.out" &&
   [ "$(cat "$tmp/ss.err")" = "dambit match: interrupted after 0 of 1 openings" ] &&
   [ ! -e "$tmp/ss.pdn" ] && [ ! -e "$tmp/ss.pdn.tmp" ] && [ ! -e "$tmp/ss.pdn.journal" ] &&
   ! pgrep -f "sleep 8; exec '$dambit' hub" >/dev/null; then ok; else
  bad interrupted-handshake "status $status after $took s: $(cat "$tmp/ss.out" "$tmp/ss.err"; ls "$tmp"/ss.pdn*)"; fi

# --b-param: a Hub engine's parameters, sent after the handshake and the variant, before `init`
# (no way to set them: --hash and --threads are dambit's own sides'). dambit's Hub engine declares
# hash and threads; its input is copied to a log.
plog="$tmp/param.in"
run param --b "hub:tee $plog | '$dambit' hub" --b-param hash=32,threads=1 --depth 2 --openings 1
if [ "$status" -eq 0 ] && [ "$(head -4 "$plog")" = "$(printf 'hub\nset-param name=variant value=russian\nset-param name=hash value=32\nset-param name=threads value=1')" ] &&
   [ "$(sed -n 5p "$plog")" = init ]; then ok; else bad hub-param "status $status: $(head -6 "$plog") $(cat "$tmp/param.err")"; fi
# A parameter the engine does not declare: the start fails (exit status 1), naming it and the
# parameters the engine has (fake.sh: variant alone).
run param-unknown --b "hub:$tmp/fake.sh illegal" --b-param hash=32 --movetime 20 --openings 1
if [ "$status" -eq 1 ] && grep -q "did not start: the engine has no parameter 'hash' (its parameters: variant)\$" "$tmp/param-unknown.err"; then ok; else
  bad hub-param-unknown "status $status: $(cat "$tmp/param-unknown.err")"; fi
# The parameters are in the journal: a resume with another value is refused, naming both.
par_args=(--b "hub:'$dambit' hub" --depth 1 --opening-plies 3 --openings 200 --pgn "$tmp/par.pdn")
interrupt_when "$tmp/par.pdn.journal" '^pair ' 1 "$tmp/par-int.out" "$tmp/par-int.err" "$dambit" match "${par_args[@]}" --b-param hash=32
run par "${par_args[@]}" --b-param hash=33
if [ "$status" -eq 2 ] && grep -q "with other settings (b.param.hash=32, now b.param.hash=33)" "$tmp/par.err"; then ok; else
  bad hub-param-resume "status $status: $(cat "$tmp/par.err")"; fi

# The same while a resumed match's engine starts (its delay read from a file, so that the command
# stays the same): the journal is not read yet, so the files of the run before stay as they were,
# and the line says where they are; the same command, the engine quick again, resumes the match.
echo 0 >"$tmp/delay"
slow_args=(--b "hub:sleep \$(cat '$tmp/delay'); exec '$dambit' hub" --depth 1 --opening-plies 3 --openings 200 --pgn "$tmp/sr.pdn")
interrupt_when "$tmp/sr.pdn.journal" '^pair ' 1 "$tmp/sr-int.out" "$tmp/sr-int.err" "$dambit" match "${slow_args[@]}"
cp "$tmp/sr.pdn.tmp" "$tmp/sr.saved.tmp" && cp "$tmp/sr.pdn.journal" "$tmp/sr.saved.journal"
echo 8 >"$tmp/delay"
"$dambit" match "${slow_args[@]}" >"$tmp/sr.out" 2>"$tmp/sr.err" &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
status=$?
echo 0 >"$tmp/delay"
if [ "$status" -eq 130 ] && cmp -s "$tmp/sr.pdn.tmp" "$tmp/sr.saved.tmp" && cmp -s "$tmp/sr.pdn.journal" "$tmp/sr.saved.journal" &&
   [ "$(cat "$tmp/sr.err")" = "dambit match: interrupted after 0 of 200 openings; the games of the run before are still in $tmp/sr.pdn.tmp, and the same command resumes the match" ]; then ok; else
  bad interrupted-handshake-resumed "status $status: $(cat "$tmp/sr.err")"; fi
run sr2 "${slow_args[@]:0:6}" --openings 1 --pgn "$tmp/sr.pdn"
if [ "$status" -eq 0 ] && grep -q "^resumed from $tmp/sr.pdn.tmp: 1 of 1 openings played\$" "$tmp/sr2.out"; then ok; else
  bad interrupted-handshake-resume "status $status: $(head -3 "$tmp/sr2.out") $(cat "$tmp/sr2.err")"; fi

# A Hub engine whose variants (fake.sh lists russian alone) do not include the match's fails its
# handshake: the match ends at once, exit status 1, naming them (it played the games, forfeited).
run novariant --variant international --b "hub:$tmp/fake.sh illegal" --movetime 20 --openings 1
if [ "$status" -eq 1 ] && grep -q "the engine does not play international (its variants: russian)" "$tmp/novariant.err"; then
  ok; else bad novariant "status $status: $(cat "$tmp/novariant.out" "$tmp/novariant.err")"; fi

# A DXP follower that refuses the game request ends the match (exit status 1, naming the code):
# every game would repeat the request (each was scored a forfeit by the follower before).
coproc REFUSER { timeout 30 python3 "$(dirname "$0")/dxp_refuser.py" 3; }
refuser_pid=$REFUSER_PID  # bash unsets REFUSER_PID once the coprocess has ended
read -r -t 10 rport <&"${REFUSER[0]}"
run refused --variant international --b "dxp:127.0.0.1:$rport" --movetime 20 --openings 2
if [ "$status" -eq 1 ] && grep -q "refused the game: code 3 (no game at all)" "$tmp/refused.err" &&
   ! grep -q '^games ' "$tmp/refused.out"; then ok; else
  bad refused "status $status: $(cat "$tmp/refused.out" "$tmp/refused.err")"; fi
wait "$refuser_pid" 2>/dev/null

# The Russian ballots: the first is I-1, a3-b4 ("ab4").
run ballots --depth 2 --ballots russian --openings 1
if [ "$status" -eq 0 ] && grep -q '^opening 1/1 I-1: ab4: A-B ' "$tmp/ballots.out" &&
   grep -q ' 1 openings (ballots russian), 2 games' "$tmp/ballots.out"; then ok; else
  bad ballots "$(cat "$tmp/ballots.out" "$tmp/ballots.err")"; fi

# A closed output stops a match with an engine of another program (SIGPIPE is ignored while one
# runs): `| head -1` made it play all its openings unseen. One line on stderr, status 1.
err=$(timeout 120 "$dambit" match --b "hub:'$dambit' hub" --depth 5 --openings 30 2>"$tmp/pipe.err" | head -1 >/dev/null; echo "${PIPESTATUS[0]}")
if [ "$err" = 1 ] && grep -Eq '^dambit match: the standard output could not be written \(Broken pipe\); stopped after ([0-9]|1[0-9]) of 30 openings$' "$tmp/pipe.err"; then ok; else
  bad closed-output "status $err: $(cat "$tmp/pipe.err")"; fi

# A full disk stops the match with the reason and how to go on (where a small tmpfs can be mounted:
# root, outside a container that forbids it).
full="$tmp/full"
mkdir -p "$full"
if mount -t tmpfs -o size=64k tmpfs "$full" 2>/dev/null; then
  run full --depth 3 --openings 40 --pgn "$full/m.pdn"
  umount "$full"
  if [ "$status" -eq 1 ] && grep -q "^dambit match: error: cannot write '$full/m.pdn.tmp': No space left on device; the games saved before are in $full/m.pdn.tmp, and the same command resumes the match\$" "$tmp/full.err"; then ok; else
    bad full-disk "status $status: $(cat "$tmp/full.err")"; fi
else
  echo "match: (full disk) skipped: no tmpfs can be mounted here"
fi

# The PDN of a ballot's games: "1-I cd4 ba5 dc5" is three plies from the start, so Black's first
# move in the game is 2... and the FEN tag says F2; the ballot's name is its Opening tag.
run ballots3 --depth 2 --ballots russian-3move --openings 1 --max-plies 6 --pgn "$tmp/b3.pdn"
if [ "$status" -eq 0 ] && [ "$(grep -c '^\[Opening "1-I cd4 ba5 dc5"\]$' "$tmp/b3.pdn")" -eq 2 ] &&
   [ "$(grep -c '^\[FEN "B:.*:F2"\]$' "$tmp/b3.pdn")" -eq 2 ] && [ "$(grep -c '^2\.\.\. ' "$tmp/b3.pdn")" -eq 2 ] &&
   "$dambit" pdn check "$tmp/b3.pdn" | grep -q ', errors 0, '; then ok; else
  bad ballots-pdn "$(cat "$tmp/ballots3.out" "$tmp/ballots3.err" "$tmp/b3.pdn")"; fi

# DXP: dambit against dambit's own DXP follower, then against a fake follower that accepts each
# game and drops the connection: every game of it is forfeited and the next one connects again.
port=$((20000 + RANDOM % 20000))
timeout 60 "$dambit" dxp --listen "127.0.0.1:$port" --movetime 20 --max-games 2 --quiet >"$tmp/dxpd.out" 2>&1 &
for _ in $(seq 50); do grep -q . "$tmp/dxpd.out" 2>/dev/null && break; sleep 0.1; done
run dxp --variant international --b "dxp:127.0.0.1:$port" --movetime 20 --openings 1 --max-plies 60
if [ "$status" -eq 0 ] && grep -q '^games 2,' "$tmp/dxp.out" && grep -q '^forfeits: A 0, B 0$' "$tmp/dxp.out"; then ok; else
  bad dxp "$(cat "$tmp/dxp.out" "$tmp/dxp.err" "$tmp/dxpd.out")"; fi
wait
# Ctrl-C while the DXP follower thinks (Black to move first, 20 s a move): the wait for its move
# ends at once, the game is ended with GAMEEND, and the match is over within a few seconds (it
# waited out the follower's move, 20 s). The game given up is no forfeit.
printf 'black\tB:W31-50:B1-20\n' >"$tmp/black10.txt"
port=$((20000 + RANDOM % 20000))
timeout 60 "$dambit" dxp --listen "127.0.0.1:$port" --movetime 20000 --max-games 1 --quiet >"$tmp/dxpi.out" 2>&1 &
follower=$!
for _ in $(seq 50); do grep -q . "$tmp/dxpi.out" 2>/dev/null && break; sleep 0.1; done
start=$(date +%s)
timeout --foreground --preserve-status -s INT 1.5 "$dambit" match --variant international \
  --b "dxp:127.0.0.1:$port" --movetime 20000 --openings-file "$tmp/black10.txt" \
  >"$tmp/int-dxp.out" 2>"$tmp/int-dxp.err"
status=$? took=$(($(date +%s) - start))
kill "$follower" 2>/dev/null; wait "$follower" 2>/dev/null
if [ "$status" -eq 130 ] && [ "$took" -lt 12 ] && grep -q '^forfeits: A 0, B 0$' "$tmp/int-dxp.out" &&
   grep -q '^games 0, ' "$tmp/int-dxp.out"; then ok; else
  bad interrupted-dxp "status $status after $took s: $(cat "$tmp/int-dxp.out" "$tmp/int-dxp.err" "$tmp/dxpi.out")"; fi
# A game the match's own engine ends with its move: the follower is sent that move too (it was
# not: its record of the game was a ply short). From W:W28:B23 White takes the last black man
# (28x19) and wins at ply 1: in game 1 the match's engine has White, in game 2 the follower.
printf 'capture\tW:W28:B23\n' >"$tmp/win1.txt"
port=$((20000 + RANDOM % 20000))
timeout 60 "$dambit" dxp --listen "127.0.0.1:$port" --movetime 20 --max-games 2 --quiet >"$tmp/dxpw.out" 2>&1 &
for _ in $(seq 50); do grep -q . "$tmp/dxpw.out" 2>/dev/null && break; sleep 0.1; done
run dxp-last --variant international --b "dxp:127.0.0.1:$port" --movetime 20 --openings-file "$tmp/win1.txt"
wait
if [ "$status" -eq 0 ] && grep -q 'A-B 1-0 (no move, 1 plies), B-A 1-0 (no move, 1 plies)' "$tmp/dxp-last.out" &&
   [ "$(grep -c '^game [12]: .*, 1 plies$' "$tmp/dxpw.out")" = 2 ]; then ok; else
  bad dxp-last-move "$(cat "$tmp/dxp-last.out" "$tmp/dxp-last.err" "$tmp/dxpw.out")"; fi
cat >"$tmp/drop.py" <<'SCRIPT'
import socket, sys
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen(1)
print(server.getsockname()[1], flush=True)
server.settimeout(30)
for _ in range(int(sys.argv[1])):
    conn, _ = server.accept()
    data = b""
    while b"\0" not in data:
        chunk = conn.recv(256)
        if not chunk:
            break
        data += chunk
    conn.sendall(b"A" + b"fake".ljust(32) + b"0\0")
    conn.close()
SCRIPT
timeout 60 python3 "$tmp/drop.py" 4 >"$tmp/drop.port" &
for _ in $(seq 50); do [ -s "$tmp/drop.port" ] && break; sleep 0.1; done
run dxp-drop --variant international --b "dxp:127.0.0.1:$(cat "$tmp/drop.port")" --movetime 20 --openings 2
if [ "$status" -eq 0 ] && [ "$(grep -c 'forfeit by Black: .*1 plies), B-A 0-1 (forfeit by White: ' "$tmp/dxp-drop.out")" -eq 2 ] &&
   grep -q '^forfeits: A 0, B 4$' "$tmp/dxp-drop.out" && grep -q 'connected again 3 times' "$tmp/dxp-drop.out"; then ok; else
  bad dxp-drop "$(cat "$tmp/dxp-drop.out" "$tmp/dxp-drop.err")"; fi
wait
# A follower that cannot be connected to again ends the match (every later game was a forfeit,
# exit status 0). drop.py 2 takes two connections and exits: game 1 (pair 1) and game 2 are
# forfeited by the dropped connection; game 3 (pair 2) connects to no one (or, should it come
# before drop.py has closed its socket, is one more forfeit and game 4 connects to no one). So
# one pair counts, and the match ends with exit status 1 and a line naming the follower.
timeout 60 python3 "$tmp/drop.py" 2 >"$tmp/drop2.port" &
for _ in $(seq 50); do [ -s "$tmp/drop2.port" ] && break; sleep 0.1; done
dport=$(cat "$tmp/drop2.port")
run dxp-lost --variant international --b "dxp:127.0.0.1:$dport" --movetime 20 --openings 3
if [ "$status" -eq 1 ] && grep -q '^games 2, A wins 2, draws 0, B wins 0' "$tmp/dxp-lost.out" &&
   grep -q "^dambit match: error: B: DXP follower '127.0.0.1:$dport' could not be connected to again: .*; the match ends after 1 of 3 openings\$" "$tmp/dxp-lost.err"; then ok; else
  bad dxp-lost "status $status: $(cat "$tmp/dxp-lost.out" "$tmp/dxp-lost.err")"; fi
wait

# Bad inputs: exit 2, one line naming the token.
check2() {  # check2 NAME STDERR_REGEX ARGS...
  local name=$1 want=$2
  shift 2
  run "$name" "$@"
  if [ "$status" -eq 2 ] && grep -Eq -- "$want" "$tmp/$name.err" && [ "$(wc -l <"$tmp/$name.err")" -eq 1 ] &&
     [ ! -s "$tmp/$name.out" ]; then ok; else bad "$name" "status $status: $(cat "$tmp/$name.err")"; fi
}
check2 bad-tc "'abc' for --tc" --tc abc
# The journal beside --pgn cannot be written (a directory in its place): refused before the games
# (it failed after the first pair, exit status 1, leaving FILE.tmp).
mkdir -p "$tmp/jd.pdn.journal"
check2 pgn-journal-dir "^dambit match: --pgn: '$tmp/jd.pdn.journal' is a directory\$" --depth 2 --openings 1 --pgn "$tmp/jd.pdn"
[ ! -e "$tmp/jd.pdn.tmp" ] && ok || bad pgn-journal-dir-tmp "$tmp/jd.pdn.tmp left"
check2 bad-tc-inc "'60\+x' for --tc" --tc 60+x
# Well formed but out of range: said so, not "want BASE+INC" (a time tester's report).
check2 bad-tc-zero "^dambit match: bad value '0\+0.1' for --tc \(the base must be at least 1 ms: a clock that starts empty has lost at once\)\$" --tc 0+0.1
check2 bad-tc-big "^dambit match: bad value '1e12\+0' for --tc \(BASE and INC are seconds from 0 to 1000000\)\$" --tc 1e12+0
check2 empty-hub "empty command in 'hub:'" --b hub:
check2 bad-sprt "'elo0=x'" --sprt 'elo0=x elo1=5'
check2 bad-dxp "'dxp:nohost'" --b dxp:nohost
check2 param-own "--a-param sets a Hub engine's parameters: it goes with --a hub:'COMMAND' \\(dambit's own side takes settings in --a\\)\$" --a-param hash=1
# A DXP side is told that a DXP peer takes no parameter (it was told of dambit's own side's --b).
check2 param-dxp "--b-param sets a Hub engine's parameters: it goes with --b hub:'COMMAND' \\(a DXP peer takes none: it is set up where it runs\\)\$" \
  --variant international --b dxp:127.0.0.1:1 --b-param x=1
check2 param-token "--b-param: bad parameter 'hash' \(want NAME=VALUE\)" --b "hub:$tmp/fake.sh illegal" --b-param hash
check2 param-variant "--b-param: the parameter 'variant' is the match's" --b "hub:$tmp/fake.sh illegal" --b-param variant=pool
check2 dxp-russian 'International only' --b dxp:127.0.0.1:1 --movetime 10
check2 dxp-untimed 'needs --tc or --movetime' --variant international --b dxp:127.0.0.1:1
check2 two-limits 'at most one of --depth' --tc 1+0 --movetime 10
check2 ballots-variant "'russian' ballots are not for --variant brazilian" --ballots russian --variant brazilian
check2 ballots-unknown "unknown ballots 'chess'" --ballots chess
printf 'x\tW:Wz9\n' >"$tmp/bad.txt"
check2 openings-file "line 1 \(x\): .*z9" --openings-file "$tmp/bad.txt"
# A command that is not an engine: exit 1, one line.
# With --pgn no file is left: no game was played (the empty FILE.tmp of the lock stayed when the
# engines started before the journal was opened).
run nostart --b "hub:$tmp/does-not-exist" --movetime 10 --pgn "$tmp/nostart.pdn"
if [ "$status" -eq 1 ] && grep -q "did not start" "$tmp/nostart.err" && [ -z "$(ls "$tmp"/nostart.pdn* 2>/dev/null)" ]; then ok; else
  bad nostart "status $status: $(cat "$tmp/nostart.err")"; fi
# An engine that talks without end but never says 'wait': the 10 s of the handshake are one
# deadline, not 10 s after each line (with `yes` the match waited for ever). A line every 10 ms:
# as endless as `yes` for a clock restarted at each line, without two cores busy for 10 s.
printf '#!/bin/sh\nwhile echo chatter; do sleep 0.01; done\n' >"$tmp/chatter.sh"
chmod +x "$tmp/chatter.sh"
start=$SECONDS
run chatter --b "hub:$tmp/chatter.sh" --depth 1 --openings 1
if [ "$status" -eq 1 ] && grep -q "no 'wait' within 10000 ms of 'hub'" "$tmp/chatter.err" &&
   [ $((SECONDS - start)) -lt 60 ]; then ok; else
  bad chatter "status $status after $((SECONDS - start)) s: $(head -c 300 "$tmp/chatter.err")"; fi

echo "match: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
