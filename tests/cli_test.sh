#!/usr/bin/env bash
# The dambit command line: what users and scripts rely on. Usage: cli_test.sh path/to/dambit
set -u
dambit=$1
pass=0
fail=0
check() {  # check NAME EXPECTED_STATUS EXPECTED_STDOUT_REGEX EXPECTED_STDERR_REGEX -- ARGS...
  local name=$1 want_status=$2 want_out=$3 want_err=$4
  shift 5
  local out err status
  out=$("$dambit" "$@" 2>/tmp/dambit_cli_err.$$)
  status=$?
  err=$(cat /tmp/dambit_cli_err.$$)
  if [ "$status" -ne "$want_status" ] || ! grep -Eq -- "$want_out" <<<"$out" ||
     ! grep -Eq -- "$want_err" <<<"$err" || [ "$(wc -l <<<"$err")" -gt 1 ]; then
    echo "FAIL $name: status $status (want $want_status)"
    echo "  stdout: ${out:0:300}"
    echo "  stderr: ${err:0:300}"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
# RULES.md §6: one legal move h6:f8:b4:e1 taking g7, c5, d2.
check json-capture 0 '^\[\{"move":"h6:f8:b4:e1","from":"h6","to":"e1","captured":\["g7","c5","d2"\]\}\]$' '^$' -- \
  moves --fen 'W:Wh6:Bg7,c5,d2' --json
check czech-ends 0 '^h6:f8$' '^$' -- moves --variant czech --fen 'W:W12:B8,14,26'
# RULES.md §6: 7 moves from the start; perft 7, 49, 302.
if [ "$("$dambit" moves | wc -l)" -eq 7 ]; then pass=$((pass + 1)); else
  echo "FAIL start-moves: want 7 lines"; fail=$((fail + 1)); fi
check perft-json 0 '"depth":3,"nodes":302,"seconds":' '^$' -- perft --depth 3 --json
check perft-text 0 '1469' '^$' -- perft --depth 4
check divide 0 'c3-d4' '^$' -- perft --depth 2 --divide
check bad-fen 2 '^$' "unknown square 'z9'" -- moves --fen 'W:Wz9'
check bad-side 2 '^$' "side to move 'X'" -- moves --fen 'X:W21:B1'
check bad-depth 2 '^$' "'x' for --depth" -- perft --depth x
check zero-depth 2 '^$' "'0' for --depth" -- perft --depth 0
check bad-flag 2 '^$' "unknown option '--bogus'" -- perft --bogus
check bad-variant 2 '^$' "unknown variant 'chess'" -- moves --variant chess
check bad-dup 2 '^$' "'maybe' for --duplicates" -- perft --depth 2 --duplicates maybe
check no-depth 2 '^$' 'missing --depth' -- perft
check unknown-sub 2 '^$' "unknown subcommand 'fly'" -- fly
check help 0 'usage: dambit perft' '^$' -- perft --help
check verify 0 'rows verified, 0 mismatches' '^$' -- perft --verify --max-seconds 2
check verify-all-hash 0 'rows verified, 0 mismatches' '^$' -- perft --verify --variant all --hash 16 --max-seconds 4
echo "cli: $pass passed, $fail failed"
rm -f /tmp/dambit_cli_err.$$
[ "$fail" -eq 0 ]
