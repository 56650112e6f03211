#!/usr/bin/env python3
"""A DXP follower that refuses every game request: dxp_refuser.py CODE.

Prints the port it listens on (127.0.0.1), takes one connection, answers its GAMEREQ with a
GAMEACC of code CODE (the DXP specification's 1 version, 2 not this game, 3 no game at all),
then waits for the initiator to close. Used by dxp_test.sh and match_test.sh."""
import socket
import sys

code = sys.argv[1].encode()
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(1)
print(srv.getsockname()[1], flush=True)
c, _ = srv.accept()
c.settimeout(20)
data = b""
while b"\0" not in data:
    chunk = c.recv(4096)
    if not chunk:
        break
    data += chunk
c.sendall(b"A" + b"refuser".ljust(32) + code + b"\0")
try:
    while c.recv(4096):
        pass
except OSError:
    pass
