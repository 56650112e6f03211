# Perft of a white king on a1 against a black king on h2 (Russian, 8x8, White to move), counted
# here independently of dambit from RULES.md, with Python's unbounded integers (cli_test: the
# count passes 2^64 at depth 23). Usage: two_kings_perft.py MAX_DEPTH; prints "DEPTH COUNT" lines.
# The rules that matter: kings fly along the diagonals; a king that sees the
# other king with free squares between and at least one free square beyond must capture it,
# landing on any free square beyond; the side left without pieces has no move.
import functools, sys
DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
def on(f, r): return 0 <= f < 8 and 0 <= r < 8
@functools.lru_cache(maxsize=None)
def moves(us, them):
    """The squares our king can go to: captures if any (then mandatory), else quiet moves."""
    quiet, captures = [], []
    for df, dr in DIRS:
        f, r = us[0] + df, us[1] + dr
        while on(f, r) and (f, r) != them:
            quiet.append((f, r)); f += df; r += dr
        if on(f, r) and (f, r) == them:
            f += df; r += dr
            while on(f, r):
                captures.append((f, r)); f += df; r += dr
    return (captures, True) if captures else (quiet, False)
@functools.lru_cache(maxsize=None)
def perft(us, them, depth):
    if depth == 0: return 1
    to, capture = moves(us, them)
    if capture:  # the other side has no piece left: no move after this one
        return len(to) if depth == 1 else 0
    return sum(perft(them, t, depth - 1) for t in to)
for d in range(1, int(sys.argv[1]) + 1):
    print(d, perft((0, 0), (7, 1), d))
