# Sourced by the shell tests. interrupt_when FILE REGEX N OUT ERR CMD...: runs CMD in the
# background (its output in OUT and ERR) and sends it SIGINT once FILE holds N lines that match
# REGEX (as a long job's journal fills), or when it ends first; its exit status is in $status.
# A script's background job starts with SIGINT ignored, which dambit keeps (as nohup needs):
# `env --default-signal=INT` gives CMD the Ctrl-C of a terminal's foreground job, here and in the
# other tests that interrupt a background dambit.
interrupt_when() {
  local file=$1 regex=$2 n=$3 out=$4 err=$5 pid
  shift 5
  env --default-signal=INT "$@" >"$out" 2>"$err" &
  pid=$!
  for _ in $(seq 6000); do
    [ "$(cat "$file" 2>/dev/null | grep -c -- "$regex")" -ge "$n" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.01
  done
  kill -INT $pid 2>/dev/null
  wait $pid
  status=$?
}
