# Shared by the shell tests (sourced after `dambit=$1`): a temporary directory $dir removed at the
# end, the pass and fail counts, and expect_error.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# expect_error NAME STATUS STDERR_REGEX -- ARGS...: the status, one line on stderr, nothing on stdout
expect_error() {
  local name=$1 want=$2 regex=$3
  shift 4
  local out err status
  out=$("$dambit" "$@" 2>"$dir/err")
  status=$?
  err=$(cat "$dir/err")
  if [ "$status" -eq "$want" ] && [ -z "$out" ] && grep -Eq -- "$regex" <<<"$err" &&
     [ "$(wc -l <<<"$err")" -eq 1 ]; then ok; else
    bad "$name: status $status, stdout '${out:0:200}', stderr '${err:0:300}'"; fi
}
# expect_busy NAME PART STATUS -- ARGS...: runs `dambit ARGS` in the background until its journal
# PART holds bytes, then the same command again, which must be refused at once (status STATUS, one
# line naming PART) while the first goes on (the journal is locked); then kills the first.
expect_busy() {
  local name=$1 part=$2 want=$3 pid
  shift 4
  "$dambit" "$@" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1500); do [ -s "$part" ] && break; sleep 0.02; done
  expect_error "$name" "$want" "'.*${part##*/}' is being written by another run" -- "$@"
  kill -0 $pid 2>/dev/null && ok || bad "$name: the first run ended when the second was refused"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
}

# kill_midway PART BYTES CMD...: runs CMD in the background and kills it with -9 once its file
# PART holds more than BYTES bytes (or after 30 s), as an interruption in the middle of a long job.
kill_midway() {
  local part=$1 bytes=$2 pid
  shift 2
  "$@" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1500); do  # up to 30 s: a loaded machine (a build beside the tests) is slow
    [ -s "$part" ] && [ "$(stat -c %s "$part")" -gt "$bytes" ] && break
    sleep 0.02
  done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
}

# interrupt_midway PART BYTES ERR CMD...: runs CMD in the background, sends SIGINT (Ctrl-C) once
# its file PART holds more than BYTES bytes (or after 30 s), and waits for it; its stderr goes to
# ERR and its status to $interrupted_status. (env: see interrupt_when.sh.)
interrupt_midway() {
  local part=$1 bytes=$2 err=$3 pid
  shift 3
  env --default-signal=INT "$@" > /dev/null 2> "$err" &
  pid=$!
  for _ in $(seq 1500); do
    [ -s "$part" ] && [ "$(stat -c %s "$part")" -gt "$bytes" ] && break
    sleep 0.02
  done
  kill -INT $pid 2>/dev/null
  wait $pid
  interrupted_status=$?
}
