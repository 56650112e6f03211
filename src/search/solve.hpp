// Exact proof search: the shortest forced win (or the longest loss) of the side to move.
//
// Two mutually recursive questions, answered only yes or no, never guessed:
//   win(p, n):  the side to move can force the opponent to be without a legal move within n plies;
//   lose(p, n): whatever the side to move does, it is without a legal move within n plies.
// Nothing is ever scored statically, so a "yes" is a proof and a "no" is a proof of the contrary
// (within n plies). The root asks n = 0, 1, 2, ... in turn (even n for a loss, odd n for a win),
// so the first "yes" is the exact length. A table keeps, per position, the largest n known to fail
// and the smallest n known to succeed for each question: bounds, true whatever line led there.
//
// Repetitions are not draws here: in a shortest forced win the winner's positions get strictly
// nearer the end at every move, so no position recurs and the repetition rule cannot change the
// length. The move-count draw rules do change values, so they are off by default (the game-
// theoretic values endgame tables store) and, when on, their counters are part of the table key.
//
// Draws are proven by a third search, beside the first two, when something can end a game in a
// draw inside the search: endgame tables or the move-count rules. A draw is two proofs: the side
// to move cannot lose (it has a move after which the opponent cannot win) and cannot win (after
// each of its moves the opponent cannot lose). Their leaves are drawn table positions, positions
// the rules declare drawn, the proven wins and losses of the other two searches, and repetitions:
// a position that recurs on the line being proven is a cycle the defender can keep to forever,
// and a game that never ends is not lost (the repetition rule makes it a draw; the tables count
// it one). Not losing is a property kept forever, so a cycle back to a position being proven is
// part of the proof; only what was proven without any cycle to a position above it is stored.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/instances.hpp"
#include "core/position.hpp"
#include "search/draw.hpp"

namespace dambit::search {

enum class Outcome { kForcedWin, kForcedLoss, kDrawn, kUnknown };

template <class G>
struct Proof {
    Outcome outcome = Outcome::kUnknown;
    int plies = 0;              // the ply after which the loser has no legal move
    std::vector<Move<G>> line;  // both sides' best play: shortest win, longest resistance
    std::uint64_t nodes = 0;
    double seconds = 0;
    // Without a forced result: the plies proven to hold none (neither a win nor a loss of at most
    // this many plies exists), -1 when not even 0 plies were answered. The whole --max-plies when
    // the search went that far, less when the time ran out first.
    int no_result_plies = -1;
    // What is proven of the side to move whatever the plies: it cannot lose (a win, a draw, or
    // only that half of a draw), it cannot win (a loss, a draw, or that half).
    bool cannot_lose = false;
    bool cannot_win = false;
    // Without a forced result, when a move was proven to win in this many plies while another
    // move might still win sooner (proof_from_moves): the position is won, in at most this many
    // plies, and `line` is that win. 0 otherwise.
    int win_at_most = 0;
};

// The proof of one legal move, for the side that makes it: a win in N plies when the position it
// leads to is lost in N - 1, a loss in N when that position is won in N - 1, a draw when it is
// drawn, and no forced result within N plies when that position has none within N - 1 (then
// cannot_lose when the opponent cannot win there, cannot_win when it cannot lose). The line
// starts with the move.
template <class G>
struct MoveProof {
    Move<G> move;
    Proof<G> proof;
};

struct SolveOptions {
    int max_plies = 127;      // largest win or loss length looked for
    double max_seconds = 0;   // 0 = no time limit
    bool draw_rules = false;  // apply the move-count draw rules of RULES.md §5
    std::size_t hash_megabytes = 64;
    bool use_table = true;  // false: no table (for tests that the table changes nothing)
    // Endgame tables (dambit egtb) to answer and cut with; empty: none. Used only without the
    // draw rules, since the tables hold game-theoretic values.
    std::string tables_dir;
    std::size_t tables_cache_megabytes = 64;
    // Look for draws (with tables or the draw rules only: nothing else can end a game drawn), in
    // at most a quarter of the nodes.
    bool prove_draws = true;
    // Polled with the time limit: true stops the proof as the time limit does (Ctrl-C).
    bool (*stop)() = nullptr;
    // With the draw rules: their counters at the root (a FEN's H field; else 0).
    DrawCounters start;
};

// One of the winner's turns in a proven line: the ply it plays (1 = the line's first move), the
// move the line plays there, and every other legal move there proven on its own (MoveProof, with
// the results the line's remaining plies allow), best first. A winning one is a dual: another way
// to win from that point.
template <class G>
struct LineTurn {
    int ply = 0;
    Move<G> move;
    std::vector<MoveProof<G>> others;
};

// The result of a position as its moves' proofs (Solver::solve_moves) prove it, for a position
// whose own proof found none (its time ran out): a win in W when a move wins in W and no other
// move can win sooner (each is proven, or proven without a result within W - 2 plies), with that
// move's line; a draw when no move can win and one draws (or cannot lose); a loss in L when every
// move loses, with the longest one's line; else `root` with the larger of its own
// no_result_plies and the one its moves prove, and what its moves prove of cannot_lose (one move
// cannot lose) and cannot_win (no move can win). A proven `root` is returned as it is.
template <class G>
Proof<G> proof_from_moves(Proof<G> root, const std::vector<MoveProof<G>>& moves) {
    if (root.outcome != Outcome::kUnknown || moves.empty()) return root;
    // What a move's proof says, the outcome's halves included.
    const auto cannot_win = [](const Proof<G>& p) {
        return p.cannot_win || p.outcome == Outcome::kForcedLoss || p.outcome == Outcome::kDrawn;
    };
    const auto cannot_lose = [](const Proof<G>& p) {
        return p.cannot_lose || p.outcome == Outcome::kForcedWin || p.outcome == Outcome::kDrawn;
    };
    const MoveProof<G>* best_win = nullptr;
    const MoveProof<G>* longest_loss = nullptr;
    bool all_lose = true, none_wins = true, one_holds = false;
    for (const auto& mp : moves) {
        const Proof<G>& p = mp.proof;
        if (p.outcome == Outcome::kForcedWin && (!best_win || p.plies < best_win->proof.plies))
            best_win = &mp;
        if (p.outcome != Outcome::kForcedLoss) all_lose = false;
        else if (!longest_loss || p.plies > longest_loss->proof.plies) longest_loss = &mp;
        none_wins &= cannot_win(p);
        one_holds |= cannot_lose(p);
    }
    const MoveProof<G>* chosen = nullptr;
    if (best_win) {
        chosen = best_win;
        for (const auto& mp : moves)
            if (mp.proof.outcome == Outcome::kUnknown && !cannot_win(mp.proof) &&
                mp.proof.no_result_plies < best_win->proof.plies - 2)
                chosen = nullptr;  // this move might still win sooner
    } else if (all_lose) {
        chosen = longest_loss;
    }
    root.cannot_lose |= one_holds;
    root.cannot_win |= none_wins;
    if (!chosen && root.cannot_lose && root.cannot_win) {
        root.outcome = Outcome::kDrawn;
        root.plies = 0;
        root.line.clear();
        root.no_result_plies = -1;
        return root;
    }
    if (!chosen && best_win) {
        // Won, but the shortest win is not proven: the win that was, as a bound.
        root.win_at_most = best_win->proof.plies;
        root.line = best_win->proof.line;
    }
    if (!chosen) {
        // Still no result: the plies the moves prove to hold none. No win within K while every
        // move loses, cannot win, wins only later than K, or has no result within K; no loss
        // within K while some move wins, cannot lose, loses only later than K, or has no result
        // within K.
        constexpr int kAll = 1 << 20;
        int no_win = kAll, no_loss = -1;
        for (const auto& mp : moves) {
            const Proof<G>& p = mp.proof;
            const int bound = p.outcome == Outcome::kUnknown ? p.no_result_plies : 0;
            no_win = std::min(no_win, cannot_win(p)                      ? kAll
                                      : p.outcome == Outcome::kForcedWin ? p.plies - 1
                                                                         : bound);
            no_loss = std::max(no_loss, cannot_lose(p)                      ? kAll
                                        : p.outcome == Outcome::kForcedLoss ? p.plies - 1
                                                                            : bound);
        }
        root.no_result_plies = std::max(root.no_result_plies, std::min(no_win, no_loss));
        return root;
    }
    root.outcome = chosen->proof.outcome;
    root.plies = chosen->proof.plies;
    root.line = chosen->proof.line;
    root.no_result_plies = -1;
    root.cannot_lose = root.outcome == Outcome::kForcedWin;
    root.cannot_win = root.outcome == Outcome::kForcedLoss;
    return root;
}

template <class R>
class ProofSearch;

// The solver's API; the proof search itself (search/solve_impl.hpp) is compiled once per variant in
// src/instances/.
template <class R>
class Solver {
    using G = typename R::Geometry;

public:
    explicit Solver(const SolveOptions& o = {});
    ~Solver();
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;

    Proof<G> solve(const Position<R>& root);
    // Every legal move of `root` proven on its own, with the same limits each (the time limit
    // applies to each move's proof), sharing the table with solve() and each other: best first,
    // the wins shortest first, then the moves without a forced result, then the losses longest
    // first (the order of generation among equals).
    // `before_move(i, n)` is called before the proof of the i-th of the n moves (progress).
    std::vector<MoveProof<G>> solve_moves(const Position<R>& root,
                                          const std::function<void(int, int)>& before_move = {});
    // For a proven result of `root` (solve()'s), each of the winner's turns in its line, the
    // other moves there each proven as solve_moves() proves them (looking as far as --max-plies
    // counts from the root). `progress(turn, turns, move, moves)` comes before each move's proof.
    std::vector<LineTurn<G>> line_turns(
        const Position<R>& root, const Proof<G>& proof,
        const std::function<void(int, int, int, int)>& progress = {});
    // The single questions, for tests. `aborted()` says whether the time ran out (then the
    // answer means nothing).
    bool wins_within(const Position<R>& p, int n);
    bool loses_within(const Position<R>& p, int n);
    bool aborted() const;
    std::uint64_t nodes() const;
    // The largest n such that the tables given (SolveOptions::tables_dir) hold every slice of
    // 2..n pieces; 0 without tables, or with the draw rules (which leave the tables out).
    int table_pieces() const;
    // Forgets every proven bound, so that the next solve starts from nothing.
    void clear_table();

private:
    std::unique_ptr<ProofSearch<R>> search_;
};

#define DAMBIT_SOLVER_TEMPLATES(R) DAMBIT_EXTERN template class Solver<R>;
#ifndef DAMBIT_INSTANTIATE_SEARCH
DAMBIT_FOR_EACH_RULES(DAMBIT_SOLVER_TEMPLATES)
#endif

}  // namespace dambit::search
