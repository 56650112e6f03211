// A game analysed move by move: the engine's score of every position of the game, the move it
// prefers there, and what each played move lost against it (dambit pdn analyse).
//
// Each position is searched once. The value of a played move is the score of the position it led
// to, seen from the other side; its loss is the score of the best move minus that value (0 when
// the engine's own move was played). A position with one legal move is not searched: its score is
// the one of the position after it, so a forced capture does not lend its short search's score to
// the move before it.
//
// A move is marked by what it cost in expected score (the share of the points a side can expect,
// 1 / (1 + exp(-score / 150)), a proven win 1 and a proven loss 0), as Lichess marks chess moves
// by winning chances: losing a man in a level position is a blunder, giving back a man of a
// four-men lead is not.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "play/match.hpp"
#include "search/engine.hpp"
#include "search/line.hpp"
#include "search/score.hpp"

namespace dambit::play {

// How bad a move was: PDN's "?!", "?" and "??".
enum class Mark { kNone, kInaccuracy, kMistake, kBlunder };

inline const char* mark_text(Mark m) {
    switch (m) {
        case Mark::kInaccuracy:
            return "?!";
        case Mark::kMistake:
            return "?";
        case Mark::kBlunder:
            return "??";
        case Mark::kNone:
            break;
    }
    return "";
}

// The smallest drops of expected score, in points of 100, that earn each mark (Lichess's
// 0.1, 0.2 and 0.3 of winning chances from -1 to 1).
struct MarkThresholds {
    double inaccuracy = 5;
    double mistake = 10;
    double blunder = 15;
};

// A proven win counts as this many hundredths of a man when a loss is computed (and a proven
// loss as minus that): missing a win, or walking into a lost position, costs at least the
// difference to a ten-men lead.
inline constexpr search::Score kDecisiveValue = 1000;

// The scale of the expected score, in hundredths of a man: a side a man up expects 66%, two men
// up 79%. (dambit tune fits such a scale to self-play results: 115 to 292 by variant and data.)
inline constexpr double kExpectedScale = 150;

// A score bounded to ±kDecisiveValue, for comparing a judged score with a proven one.
constexpr int bounded_value(search::Score s) {
    return std::clamp(int(s), -kDecisiveValue, kDecisiveValue);
}

// The share of the points the side with score `s` can expect, from 0 to 1.
inline double expected_score(search::Score s) {
    if (search::is_win(s)) return 1;
    if (search::is_loss(s)) return 0;
    return 1 / (1 + std::exp(-double(s) / kExpectedScale));
}

// The value for the mover of a move to a position whose side to move has score `next`: -next, a
// proven result one ply further away (a win in N plies there is a loss in N + 1 plies for the
// mover's opponent, counted from before the move), as the search counts it.
constexpr search::Score value_of_move(search::Score next) {
    return search::is_win(next) ? -next + 1 : search::is_loss(next) ? -next - 1 : -next;
}

// What playing a move valued `played` lost against the best move, valued `best` (both for the
// mover): the difference of their bounded values, at least 0 (a deeper look at the played move can
// find it better than the search of the position did).
constexpr int move_loss(search::Score best, search::Score played) {
    return std::max(0, bounded_value(best) - bounded_value(played));
}

// The same in expected score, points of 100, at least 0.
inline double expected_drop(search::Score best, search::Score played) {
    return std::max(0.0, 100 * (expected_score(best) - expected_score(played)));
}

constexpr Mark mark_of(double drop, const MarkThresholds& t) {
    return drop >= t.blunder      ? Mark::kBlunder
           : drop >= t.mistake    ? Mark::kMistake
           : drop >= t.inaccuracy ? Mark::kInaccuracy
                                  : Mark::kNone;
}

struct PlyAnalysis {
    int ply = 0;                  // which move: moves[ply], from the position after `ply` plies
    Color side = Color::kWhite;   // who played it
    std::string played;           // its move text (long form)
    bool forced = false;          // it was the only legal move
    // The rules had drawn the game before the move (the position before it occurred for the
    // third time, or the move-count rules drew it): the move was played after the game's end,
    // is worth 0 and not analysed. `drawn` is the rule (kRepetition or kDrawRule: drawn_name)
    // for the first such move, and stays set for the moves after it.
    std::optional<Ending> drawn;
    search::Score score = 0;      // the engine's score of the position before it (the best move's)
    std::string best;             // the engine's move there (empty when forced: the played one)
    std::vector<std::string> pv;  // the engine's line from there
    search::Score played_score = 0;  // the played move's value: value_of_move(next score)
    int loss = 0;                    // move_loss(score, played_score); 0 for the engine's move
    double drop = 0;  // expected_drop(score, played_score) to a tenth; 0 for the engine's move
    Mark mark = Mark::kNone;  // mark_of(drop)
    int depth = 0;            // of the search before the move (0: not searched)
    std::uint64_t nodes = 0;
};

// What one side's moves lost, over a game.
struct SideSummary {
    int moves = 0;  // moves analysed (forced ones not counted)
    long total_loss = 0;
    double total_drop = 0;
    int inaccuracies = 0, mistakes = 0, blunders = 0;
    // The mean loss per analysed move, in hundredths of a man.
    double average_loss() const { return moves ? double(total_loss) / moves : 0.0; }
    // The mean drop of expected score per analysed move, in points of 100.
    double average_drop() const { return moves ? total_drop / moves : 0.0; }
};

struct GameAnalysis {
    std::vector<PlyAnalysis> plies;  // one per move of the game, in order
    search::Score final_score = 0;   // of the position after the last move, for its side to move
                                     // (0 when the rules have drawn the game there or before)
    std::optional<Ending> drawn;     // the rule that drew the game, at its last position or before
    SideSummary white, black;
};

// The score of a position with its game history, from a search of `limits`; `out` gets the
// search's move and line. A side without a legal move has lost: loss_in(0), no search.
template <class R>
search::Score analysed_score(search::Engine<R>& engine, const Position<R>& p,
                             const std::vector<Position<R>>& history, const search::Limits& limits,
                             const search::DrawCounters& start_counters, PlyAnalysis* out) {
    const auto r = engine.go(p, history, limits, {}, start_counters);
    if (!r.has_move) return search::loss_in(0);
    if (out) {
        out->pv = search::line_text<R>(p, r.pv.empty() ? std::vector{r.best} : r.pv);
        const auto best = search::line_text<R>(p, {r.best});
        out->best = best.empty() ? "?" : best.front();  // the search's move is always legal
        out->depth = r.depth;
        out->nodes = r.nodes;
    }
    return r.score;
}

// Analyses the game from `start` through `moves` (each legal in turn); `start_counters` are the
// draw rules' counters at `start` (a FEN's H field). `progress`, when given, is called after each
// position searched with the number of positions done and the total.
template <class R>
GameAnalysis analyse_game(search::Engine<R>& engine, const Position<R>& start,
                          const std::vector<PathMove<typename R::Geometry>>& moves,
                          const search::DrawCounters& start_counters, const search::Limits& limits,
                          const MarkThresholds& marks = {},
                          const std::function<void(std::size_t, std::size_t)>& progress = {}) {
    using G = typename R::Geometry;
    const std::size_t n = moves.size();
    // The game replayed with the draw rules: the rules draw it at a position that occurs for the
    // third time or that the move-count rules call drawn (the search judges the positions after
    // a root, not the root), and every position after that one comes after the game's end.
    GameState<R> game(start);
    game.counters = start_counters;
    std::vector<std::optional<Ending>> drawn(n + 1);
    std::vector<bool> forced(n + 1, false);
    FixedList<PathMove<G>, kMaxMoves> legal;
    for (std::size_t k = 0; k <= n; ++k) {
        legal.clear();
        const auto ending = game.rules_ending(std::numeric_limits<int>::max(), legal);
        if (ending == Ending::kRepetition || ending == Ending::kDrawRule)
            drawn[k] = ending;
        else if (k > 0 && drawn[k - 1])
            drawn[k] = drawn[k - 1];
        forced[k] = legal.size() == 1;
        if (k < n) game.play(moves[k]);
    }
    std::vector<Position<R>> positions = game.history;
    positions.push_back(game.pos);

    GameAnalysis a;
    a.plies.resize(n);
    a.drawn = drawn[n];
    std::vector<search::Score> score(n + 1, 0);
    for (std::size_t k = 0; k <= n; ++k) {
        if (drawn[k]) {
            score[k] = search::kDraw;
        } else if (!forced[k]) {
            // Each position from an empty table: the table's entries do not know the draw
            // counters, so a result proven at an earlier position of the game (fresh counters)
            // would be taken for the same position later, when the move-count rules may already
            // have drawn it. So each position's values are also those of `search` given the game.
            engine.new_game();
            const std::vector<Position<R>> history(positions.begin(),
                                                   positions.begin() + std::ptrdiff_t(k));
            score[k] = analysed_score<R>(engine, positions[k], history, limits, start_counters,
                                         k < n ? &a.plies[k] : nullptr);
        }
        if (progress) progress(k + 1, n + 1);
    }
    // A forced move's position is worth what the position after it is worth, for the mover.
    for (std::size_t k = n; k-- > 0;)
        if (forced[k] && !drawn[k]) score[k] = value_of_move(score[k + 1]);
    a.final_score = score[n];

    for (std::size_t k = 0; k < n; ++k) {
        PlyAnalysis& p = a.plies[k];
        p.ply = int(k);
        p.side = positions[k].side;
        p.played = move_text<R>(moves[k]);
        p.forced = forced[k];
        p.score = score[k];
        p.played_score = value_of_move(score[k + 1]);
        p.drawn = drawn[k];
        if (p.drawn) {  // after the game's end: nothing to judge
            p.forced = false;
            p.best.clear();
            p.pv.clear();
            continue;
        }
        if (p.forced) {
            p.best.clear();
            p.pv.clear();
            continue;
        }
        // The engine's move, compared in the path form the engine's line takes (a capture with
        // duplicate paths may be written along another path in the game).
        const bool engine_move =
            p.best == search::line_text<R>(positions[k], {moves[k].move}).front();
        p.loss = engine_move ? 0 : move_loss(p.score, p.played_score);
        // To a tenth, as printed: the mark agrees with the drop shown.
        p.drop = engine_move ? 0 : std::round(10 * expected_drop(p.score, p.played_score)) / 10;
        p.mark = mark_of(p.drop, marks);
        SideSummary& s = p.side == Color::kWhite ? a.white : a.black;
        ++s.moves;
        s.total_loss += p.loss;
        s.total_drop += p.drop;
        s.inaccuracies += p.mark == Mark::kInaccuracy;
        s.mistakes += p.mark == Mark::kMistake;
        s.blunders += p.mark == Mark::kBlunder;
    }
    return a;
}

}  // namespace dambit::play
