// Search scores: hundredths of a man for judged positions, exact distances in plies for wins.
#pragma once

#include <cstdlib>
#include <string>

namespace dambit::search {

using Score = int;

// The deepest ply a search visits, counting extensions and quiescence.
inline constexpr int kMaxPly = 128;

inline constexpr Score kInfinite = 32000;
// A side to move without a legal move at ply p (from the root) has lost: score loss_in(p). So a
// score of win_in(N) at the root says the opponent is first left without a move after ply N.
inline constexpr Score kWin = 31000;
// Scores at least this far from zero are proven wins or losses; static scores stay far below.
inline constexpr Score kWinBound = kWin - 2 * kMaxPly;
inline constexpr Score kDraw = 0;
// A win the endgame tables prove but whose distance they do not store (win/draw/loss tables):
// above every static score, below every proven distance; kTableWin - ply prefers the nearer.
inline constexpr Score kTableWin = 20000;
// The bound of a static score: a hundred men. A weights file's evaluation is held within it, so
// that no weights, however made, can pass for a proven result or overflow the table's 16 bits.
inline constexpr Score kMaxStatic = 10000;

constexpr Score win_in(int ply) {
    return kWin - ply;
}
constexpr Score loss_in(int ply) {
    return -kWin + ply;
}
constexpr bool is_win(Score s) {
    return s >= kWinBound;
}
constexpr bool is_loss(Score s) {
    return s <= -kWinBound;
}
constexpr bool is_decisive(Score s) {
    return is_win(s) || is_loss(s);
}
// For a decisive score: the ply, counted from where the score is seen, after which the losing
// side is first left without a legal move.
constexpr int plies_to_end(Score s) {
    return kWin - std::abs(s);
}

// A score as the command line prints it: "win N" / "loss N" for a proven result (N as
// plies_to_end), `judged` otherwise.
inline std::string score_text(Score s, const std::string& judged) {
    if (!is_decisive(s)) return judged;
    return (is_win(s) ? "win " : "loss ") + std::to_string(plies_to_end(s));
}

// The transposition table stores a win as a distance from the node, not from the root, so that the
// entry stays true wherever the position recurs (at another ply of another search).
constexpr Score to_table(Score s, int ply) {
    return is_win(s) ? s + ply : is_loss(s) ? s - ply : s;
}
constexpr Score from_table(Score s, int ply) {
    return is_win(s) ? s - ply : is_loss(s) ? s + ply : s;
}

}  // namespace dambit::search
