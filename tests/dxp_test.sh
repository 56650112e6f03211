#!/usr/bin/env bash
# dambit dxp through its real interface, over loopback sockets only. Usage: dxp_test.sh path/to/dambit
# (a) dambit against dambit, server follower and client initiator: two games whose results agree;
#     (a2) the client's ply limit, claimed on its own turn, counted alike by both sides;
# (b) a raw client (python3) sending garbage, an over-long message, a partial message, nothing at
#     all, a GAMEREQ with an illegal position, an illegal MOVE, then leaving mid-game: the server
#     names each, keeps serving, and a proper game follows; (c) bad command lines exit 2;
# (d) tables that fail during a game: logged, turned off, the game played on; (e) an initiator
#     whose game is refused exits 1.
# Every background process runs under `timeout`, so the test ends by itself.
set -u
dambit=$1
source "$(dirname "$0")/shell_helpers.sh"
tmp=$dir

# start_server OUT ARGS...: a server on a free port (retried); sets port and server_pid.
start_server() {
  local out=$1 attempt i
  shift
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 20000))
    timeout 90 "$dambit" dxp --listen "${listen_host:-127.0.0.1}:$port" "$@" >"$out" 2>&1 &
    server_pid=$!
    for i in $(seq 100); do
      grep -q '^listening on' "$out" && return 0
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.05
    done
    wait "$server_pid" 2>/dev/null
  done
  return 1
}

# (a) two games, dambit against dambit; the client plays from a small opening book.
"$dambit" book build --variant international --nodes-per-position 300 --positions 30 \
  --out "$tmp/i.book" >/dev/null 2>&1 || bad "a: book build"
book_best=$("$dambit" book probe --book "$tmp/i.book" --json | grep -Eo '"move":"[^"]*"' | head -1 | cut -d'"' -f4)
start_server "$tmp/a_server" --max-games 2 --movetime 20 --name server || bad "a: no server port"
timeout 90 "$dambit" dxp --connect "127.0.0.1:$port" --games 2 --time 1 --moves 0 --movetime 20 \
  --max-plies 300 --name client --pdn "$tmp/a.pdn" --book "$tmp/i.book" >"$tmp/a_client" 2>&1
client_status=$?
wait "$server_pid"
server_status=$?
[ "$client_status" -eq 0 ] && [ "$server_status" -eq 0 ] && ok ||
  bad "a: exit status client $client_status server $server_status"
grep -q '^game 1: client White vs server: ' "$tmp/a_client" &&
  grep -q '^game 1: server Black vs client: ' "$tmp/a_server" &&
  grep -q '^game 2: client Black vs server: ' "$tmp/a_client" &&
  grep -q '^game 2: server White vs client: ' "$tmp/a_server" && ok || bad "a: game lines or colours"
# The same result, reason and length on both sides (the part after the names). A game the client
# ends at its --max-plies is a draw it claims (DXP GAMEEND reason 2) on its own turn, so at ply 300 or
# 301: the server, for which the claim is "for informational purposes only" (the DXP specification,
# egameend.htm), records an unfinished game after as many plies.
for n in 1 2; do
  c=$(grep "^game $n: " "$tmp/a_client" | sed 's/.* vs [a-z]*: //')
  s=$(grep "^game $n: " "$tmp/a_server" | sed 's/.* vs [a-z]*: //')
  s_as_client=$(sed -E 's/^\* \(peer ended the game claiming a draw\), (30[01]) plies$/1\/2-1\/2 (max plies), \1 plies/' <<<"$s")
  [ -n "$c" ] && [ "$c" = "$s_as_client" ] && grep -Eq '^(1-0|0-1|1/2-1/2) \(' <<<"$c" && ok ||
    bad "a: game $n client '$c' server '$s'"
done
grep -q '^summary: 2 games for client' "$tmp/a_client" && ok || bad "a: client summary"
[ "$(grep -c '^\[Event "DXP"\]' "$tmp/a.pdn" 2>/dev/null)" = 2 ] && ok || bad "a: PDN file"
# The client had White in game 1: its first move is the book's best. The file passes pdn check.
first=$(grep -Eo '^1\. [^ ]+' "$tmp/a.pdn" | head -1 | cut -d' ' -f2)
[ -n "$book_best" ] && [ "$first" = "$book_best" ] && ok || bad "a: first move '$first', book '$book_best'"
"$dambit" pdn check "$tmp/a.pdn" >/dev/null 2>&1 && ok || bad "a: pdn check of dxp --pdn"
# The file is replaced whole after each game: nothing of the writing is left beside it.
[ ! -e "$tmp/a.pdn.tmp" ] && [ ! -e "$tmp/a.pdn.lock" ] && ok || bad "a: a.pdn.tmp or .lock left"
if [ "$fail" -gt 0 ]; then echo "--- client"; cat "$tmp/a_client"; echo "--- server"; cat "$tmp/a_server"; fi

# (a2) The client's ply limit: it claims the draw on its own turn, so both sides count the same
# plies. At 40 plies from the start (no game of International ends sooner): as White (game 1) the
# client is to move after 40 plies; as Black (game 2) after 41, once the server has answered.
start_server "$tmp/p_server" --max-games 2 --movetime 20 --name server || bad "a2: no server port"
timeout 60 "$dambit" dxp --connect "127.0.0.1:$port" --games 2 --time 1 --moves 0 --movetime 20 \
  --max-plies 40 --name client >"$tmp/p_client" 2>&1
wait "$server_pid"
grep -q '^game 1: client White vs server: 1/2-1/2 (max plies), 40 plies$' "$tmp/p_client" &&
  grep -q '^game 1: server Black vs client: \* (peer ended the game claiming a draw), 40 plies$' "$tmp/p_server" &&
  grep -q '^game 2: client Black vs server: 1/2-1/2 (max plies), 41 plies$' "$tmp/p_client" &&
  grep -q '^game 2: server White vs client: \* (peer ended the game claiming a draw), 41 plies$' "$tmp/p_server" &&
  ok || { bad "a2: ply limit"; cat "$tmp/p_client" "$tmp/p_server"; }

# (b) a raw client, then a proper game.
start_server "$tmp/b_server" --max-games 6 --movetime 20 --timeout 2 --name server ||
  bad "b: no server port"
# The DXP messages of a socket, for the Python clients below: read_msg(s), and expect(s, HEADER,
# WHAT), the next message with that header (CHATs skipped; anything else fails WHAT).
cat >"$tmp/dxpmsg.py" <<'EOF'
buffers = {}
def read_msg(s):
    buf = buffers.get(s, b"")
    while b"\0" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            raise SystemExit("server closed early")
        buf += chunk
    msg, _, rest = buf.partition(b"\0")
    buffers[s] = rest
    return msg.decode()

def expect(s, header, what):
    while True:
        m = read_msg(s)
        if m[0] == header:
            return m
        if m[0] != "C":
            raise SystemExit("%s: got %r" % (what, m))

def searching_server(port):
    """A game with the server as Black; our 32-28 sent, and the server searching its reply."""
    import socket, time
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(("R01" + "raw".ljust(32) + "Z" + "001" + "000" + "A").encode() + b"\0")
    assert expect(s, "A", "game")[-1] == "0"
    s.sendall(b"M0001322800\0")
    time.sleep(0.3)
    return s
EOF
cat >"$tmp/raw.py" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])

def conn():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s

def read_all(s):  # every message until the server closes
    data = b""
    while True:
        try:
            chunk = s.recv(4096)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        data += chunk
    return [m.decode() for m in data.split(b"\0") if m]

from dxpmsg import read_msg, expect

def req(colour, start="A", board=""):
    return ("R01" + "raw".ljust(32) + colour + "001" + "000" + start + board).encode() + b"\0"

out = []
s = conn(); s.sendall(b"Xgarbage\0"); out.append(("garbage", read_all(s))); s.close()
s = conn(); s.sendall(b"C" + b"x" * 2000); out.append(("long", read_all(s))); s.close()
s = conn(); s.sendall(b"M00"); s.close()
s = conn(); out.append(("silent", read_all(s))); s.close()
s = conn()
s.sendall(req("Z", "B", "W" + "w" + "e" * 49))      # a white man on its promotion row
acc = expect(s, "A", "bad position")
assert acc[-1] == "2", acc                           # '2': not this game, another one may be
s.sendall(req("Z", "B", "W" + "e" * 50))            # an empty board: over before it starts
assert expect(s, "A", "empty board")[-1] == "2"
s.sendall(req("Z", "B", "W" + "e" * 45 + "w" * 5))  # Black without a piece
assert expect(s, "A", "no black piece")[-1] == "2"
s.sendall(b"R02" + req("Z")[3:])                     # a version the server does not speak
acc = expect(s, "A", "version 02")
assert acc[-1] == "1", acc                           # refused: '1' not this version
s.sendall(b"B001W\0")                                # no game: no move to go back to
assert expect(s, "K", "BACKREQ outside a game")[1] == "2"  # (it got no answer)
s.sendall(req("Z"))                                  # game 1: the server plays Black
assert expect(s, "A", "game 1")[-1] == "0"
s.sendall(b"M0001322300\0")                          # 32-23 is no move
end = expect(s, "E", "illegal move")
assert end[1] == "3", end                            # the server claims the win
s.sendall(b"E10\0")
# Game 2: White 39, Black 28, White to move. After 39-33 the server's only move is 28x39, which
# leaves White (us) without a piece: the rules end the game on our turn, and only the side to
# move may send the first GAMEEND (egameend.htm). The server waits for ours, then acknowledges
# it with reason '0'.
board = ["e"] * 50
board[39 - 1], board[28 - 1] = "w", "z"
s.sendall(req("Z", "B", "W" + "".join(board)))
assert expect(s, "A", "game 2")[-1] == "0"
s.sendall(b"M0001393300\0")                          # 39-33
mv = expect(s, "M", "the server's capture")
assert mv[5:] == "28390133", mv                      # 28x39, taking 33
s.settimeout(0.2)                                    # (the server waits a second for it)
try:
    early = read_msg(s)                              # nothing before our GAMEEND
except socket.timeout:
    early = None
s.settimeout(10)
assert early is None, early
s.sendall(b"E10\0")                                 # we give up
ack = expect(s, "E", "acknowledgement")
assert ack[1] == "0", ack                            # an acknowledgement gives no reason
s.sendall(req("Z"))                                  # game 3: at ply 1 we "claim a win"
assert expect(s, "A", "game 3")[-1] == "0"
s.sendall(b"E30\0")
ack = expect(s, "E", "acknowledgement of a claim")
assert ack[1] == "0", ack
s.sendall(b"Cforged\ngame 9: x\0")                  # a CHAT trying to forge an output line
s.sendall(req("Z"))                                  # game 4
assert expect(s, "A", "game 4")[-1] == "0"
s.sendall(b"M0001322800\0")                          # 32-28
expect(s, "M", "the server's reply")
s.sendall(b"B050W\0")                                # no move 50 yet: refused
assert expect(s, "K", "bad BACKREQ")[1] == "2"
s.sendall(b"B001W\0")                                # back to the start, White to move
assert expect(s, "K", "BACKREQ")[1] == "0"
s.sendall(b"Chello\0")
s.close()                                            # leave in the middle of game 4
s = conn()                                           # game 5: a MOVE that does not decode
s.sendall(req("Z"))
assert expect(s, "A", "game 5")[-1] == "0"
s.sendall(b"M12\0")
out.append(("badmove", read_all(s)))                 # a CHAT says why, before the end
s.close()
for name, msgs in out:
    print(name, msgs)
print("raw client done")
EOF
timeout 60 python3 "$tmp/raw.py" "$port" >"$tmp/b_raw" 2>&1 && ok || bad "b: raw client: $(tail -3 "$tmp/b_raw")"
grep -q "garbage.*unknown DXP header 'X'" "$tmp/b_raw" && grep -q "long.*over-long" "$tmp/b_raw" &&
  grep -q "silent.*silent" "$tmp/b_raw" && grep -q "badmove.*Cgarbage from the peer" "$tmp/b_raw" && ok ||
  bad "b: the server's CHAT reasons: $(cat "$tmp/b_raw")"
timeout 60 "$dambit" dxp --connect "127.0.0.1:$port" --games 1 --time 1 --movetime 20 --max-plies 200 \
  --name client --quiet >"$tmp/b_client" 2>&1 && ok || bad "b: proper client: $(cat "$tmp/b_client")"
wait "$server_pid"
server_status=$?
[ "$server_status" -eq 0 ] && ok || bad "b: server exit status $server_status"
for want in "garbage from the peer: unknown DXP header 'X'" "over-long message from the peer" \
  "peer disconnected in the middle of a message 'M00'" "peer silent for 2 s outside a game" \
  "refused GAMEREQ: illegal position: man on its promotion row" \
  "^game 1: server Black vs raw: 0-1 \(peer sent an illegal move 32-23" \
  "^game 2: server Black vs raw: 0-1 \(White has no move\), 2 plies" \
  "^game 3: server Black vs raw: \* \(peer ended the game claiming a win\), 0 plies" \
  "chat: forged\\\\x0agame 9: x" \
  "^game 4: server Black vs raw: \* \(peer disconnected\), 0 plies" "took back to ply 0" \
  "refused BACKREQ to move 50: no such move" "chat: hello" \
  "^game 5: server Black vs raw: \* \(garbage from the peer: " \
  "^game 6: server Black vs client: ((1-0|0-1|1/2-1/2) |\* \(peer ended the game claiming a draw\), 200 plies)" \
  "summary: 6 games for server"; do
  grep -Eq -- "$want" "$tmp/b_server" && ok || bad "b: server output lacks '$want'"
done
! grep -q '^game 9' "$tmp/b_server" && ok || bad "b: a CHAT forged an output line"
grep -Eq '^game 1: client White vs server: (1-0|0-1|1/2-1/2) ' "$tmp/b_client" && ok ||
  bad "b: client game line: $(cat "$tmp/b_client")"
grep -q '^summary: 1 game for client: ' "$tmp/b_client" && ok || bad "b: client summary (1 game): $(cat "$tmp/b_client")"
if [ "$fail" -gt 0 ]; then echo "--- server"; cat "$tmp/b_server"; fi

# (d) the server's tables fail during a game (damaged after the server opened and checked them,
# as a failing disk would): it logs the error, turns them off, searches again and plays the game
# to its end, and says so on stderr (`dambit dxp: ...`, which --quiet does not silence). King
# against king, so that the server's first search probes the damaged file.
"$dambit" egtb build --variant international --pieces 2 --dir "$tmp/eg" --threads 2 >/dev/null 2>&1
f10="$tmp/eg/international-0101.egtb"
start_server "$tmp/d_server" --max-games 1 --movetime 20 --name server --threads 2 --egtb "$tmp/eg" ||
  bad "d: no server port"
printf '\x55' | dd of="$f10" bs=1 seek=$(($(stat -c %s "$f10") - 3)) conv=notrunc 2>/dev/null
timeout 60 "$dambit" dxp --connect "127.0.0.1:$port" --games 1 --time 1 --moves 0 --movetime 20 \
  --max-plies 12 --name client --fen 'W:WK48:BK3' >"$tmp/d_client" 2>&1
client_status=$?
wait "$server_pid"
server_status=$?
[ "$client_status" -eq 0 ] && [ "$server_status" -eq 0 ] && ok ||
  bad "d: exit status client $client_status server $server_status: $(tail -3 "$tmp/d_server")"
grep -q "^dambit dxp: search failed: .*international-0101.egtb: block 0 checksum mismatch.*the tables are off, searching again without them$" \
  "$tmp/d_server" && ok || bad "d: server log lacks the table error: $(cat "$tmp/d_server")"
[ "$(grep -c 'search failed' "$tmp/d_server")" = 1 ] && ok || bad "d: the error more than once"
# To its end: by the rules, or at the client's ply limit (its draw claim, "*" for the server).
grep -Eq '^game 1: server Black vs client: ((1-0|0-1|1/2-1/2) \(|\* \(peer ended the game claiming a draw\), 12 plies)' "$tmp/d_server" && ok ||
  bad "d: the game did not finish: $(cat "$tmp/d_server")"

# (f) a BACKREQ that comes while the server searches (5 s a move) is answered at once, and no
# move is sent for the position the peer left (the spec allows a BACKREQ at any moment; the
# server sent its move first and took it back after). Then we end the game.
start_server "$tmp/f_server" --max-games 1 --movetime 5000 --name server || bad "f: no server port"
cat >"$tmp/back.py" <<'EOF2'
import sys, time
from dxpmsg import expect, searching_server
s = searching_server(int(sys.argv[1]))
start = time.time()
s.sendall(b"B001W\0")                       # back to the start, White to move
k = expect(s, "K", "BACKREQ during the search")   # no M before it: expect() fails on one
took = time.time() - start
assert k[1] == "0", k
assert took < 3.0, took                      # the 5 s search was cut (at an iteration's end)
s.sendall(b"E10\0")                          # we give up
assert expect(s, "E", "acknowledgement")[1] == "0"
print("back client done in %.2f s" % took)
EOF2
timeout 30 python3 "$tmp/back.py" "$port" >"$tmp/f_client" 2>&1 && ok || bad "f: $(cat "$tmp/f_client")"
wait "$server_pid"
grep -q "our move withheld" "$tmp/f_server" && grep -q "took back to ply 0" "$tmp/f_server" && ok ||
  bad "f: server log: $(cat "$tmp/f_server")"

# (g) a MOVE the peer sends while the server searches is out of turn (the peer has not seen the
# server's move): the game ends as for an illegal move, the server claiming the win, and the move
# is not played as the reply to the server's (it was held and played after it).
start_server "$tmp/g_server" --max-games 1 --movetime 5000 --name server || bad "g: no server port"
cat >"$tmp/early.py" <<'EOF2'
import sys, time
from dxpmsg import expect, searching_server
s = searching_server(int(sys.argv[1]))
start = time.time()
s.sendall(b"M0000192300\0")                 # 19-23 before the server's move: out of turn
e = expect(s, "E", "GAMEEND for the move out of turn")  # no M before it
took = time.time() - start
assert e[1] == "3", e                        # reason 3: the server wins
assert took < 3.0, took
s.sendall(b"E00\0")                          # acknowledged
print("early client done in %.2f s" % took)
EOF2
timeout 30 python3 "$tmp/early.py" "$port" >"$tmp/g_client" 2>&1 && ok || bad "g: $(cat "$tmp/g_client")"
wait "$server_pid"
grep -q "move out of turn" "$tmp/g_server" && ok || bad "g: server log: $(cat "$tmp/g_server")"

# (c) bad command lines: status 2, one line naming the token.
usage() {  # usage NAME REGEX ARGS...
  local name=$1 want=$2 err status
  shift 2
  err=$(timeout 10 "$dambit" dxp "$@" 2>&1 >/dev/null)
  status=$?
  [ "$status" -eq 2 ] && grep -Eq -- "$want" <<<"$err" && [ "$(wc -l <<<"$err")" -eq 1 ] && ok ||
    bad "c: $name: status $status, '$err'"
}
usage connect-nohost "'nohost'" --connect nohost
usage listen-port "'99999'" --listen 99999
usage variant "russian" --listen 127.0.0.1:1 --variant russian
usage unknown-variant "unknown variant 'chess'" --listen 1 --variant chess
usage both "one of --listen" --listen 1 --connect 127.0.0.1:1
usage neither "one of --listen"
usage time-follower "--time goes with --games" --listen 1 --time 5
usage bad-fen "bad side to move" --connect 127.0.0.1:1 --games 1 --fen 'X:W31'
usage fen-no-black "Black has no piece" --connect 127.0.0.1:1 --games 1 --fen 'W:W31:B'
usage fen-no-move "White to move has no legal move" --connect 127.0.0.1:1 --games 1 --fen 'W:W6:B1'
# DXP names are printable ASCII and do not start with a blank: a follower refuses the others.
usage name-accent "bad value 'caf.*' for --name" --connect 127.0.0.1:1 --games 1 --name café
usage name-blank "bad value ' lead' for --name" --connect 127.0.0.1:1 --games 1 --name ' lead'
usage name-tab "bad value 'a.x09b' for --name" --connect 127.0.0.1:1 --games 1 --name "$(printf 'a\tb')"
# IPv6 addresses go in brackets, as in URLs (the port would be taken for a part of the address).
usage ipv6-bare "write an IPv6 address in brackets: \\[::1\\]:2000" --connect ::1:2000
usage ipv6-no-port "no port after '\\[::1\\]'" --listen '[::1]'
usage ipv6-bad "bad IPv6 address 'fe80::zz'" --connect '[fe80::zz]:2000'
usage ipv6-open "no '\\]' after the IPv6 address" --connect '[::1:2000'

# (e) an initiator whose game is refused failed at its job: exit status 1, the reason on stderr
# (it said "summary: 0 games" and exited 0).
coproc REFUSER { timeout 30 python3 "$(dirname "$0")/dxp_refuser.py" 2; }
refuser_pid=$REFUSER_PID
read -r -t 10 rport <&"${REFUSER[0]}"
err=$(timeout 20 "$dambit" dxp --connect "127.0.0.1:$rport" --games 1 --movetime 20 2>&1 >/dev/null)
status=$?
[ "$status" -eq 1 ] && grep -q "^dambit dxp: 0 of 1 games played to their end (.*refused the game" <<<"$err" &&
  ok || bad "e: refused game: status $status, '$err'"
wait "$refuser_pid" 2>/dev/null
timeout 10 "$dambit" dxp --help | grep -q 'usage: dambit dxp' && ok || bad "c: --help"

# (i) IPv6: a game over the IPv6 loopback, where the machine has one (containers may not).
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
  listen_host='[::1]' start_server "$tmp/i_server" --max-games 1 --movetime 20 --name six ||
    bad "i: no server port on [::1]"
  grep -q "^listening on \[::1\]:$port\$" "$tmp/i_server" && ok || bad "i: $(cat "$tmp/i_server")"
  timeout 60 "$dambit" dxp --connect "[::1]:$port" --games 1 --time 1 --moves 0 --movetime 20 \
    --max-plies 20 >"$tmp/i_client" 2>&1
  client_status=$?
  wait "$server_pid"
  [ "$client_status" -eq 0 ] && grep -q '^connection from \[::1\]:[0-9]*$' "$tmp/i_server" &&
    grep -q '^game 1: dambit White vs six: ' "$tmp/i_client" && ok ||
    bad "i: status $client_status: $(cat "$tmp/i_client" "$tmp/i_server")"
else
  echo "dxp: (i) skipped: no IPv6 loopback here"
fi

echo "dxp: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
