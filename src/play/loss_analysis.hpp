// Why a game was lost: the move after which the engine's own score fell, and whether a search ten
// times longer at that move avoids the fall (then the search missed it: pruning, extensions,
// quiescence) or not (then the evaluation had misjudged the position).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "play/match.hpp"
#include "search/engine.hpp"
#include "search/score.hpp"

namespace dambit::play {

struct LossFinding {
    bool found = false;           // a fall of more than the threshold between two own moves
    int ply = 0;                  // the move before the fall: plies from the opening
    search::Score before = 0;     // the engine's score there (for the loser)
    search::Score after = 0;      // and at its next move
    std::string played;           // the move it played there
    std::string longer_move;      // the longer search's move there
    search::Score longer_score = 0;
    std::uint64_t nodes = 0, longer_nodes = 0;
    bool search_problem = false;  // the longer search avoids the fall
};

// Replays `game`, searching each position where `loser` was to move with more than one legal move
// with `limits` (the engine starts the game afresh, as in the match), and looks for the first fall of more than `fall`
// between two consecutive moves of the loser. At the move before the fall a search of `factor`
// times the nodes the replay's search used decides: a search problem if it prefers another move
// and scores it at least `fall` above the fallen score, an evaluation problem otherwise.
template <class R>
LossFinding analyse_loss(search::Engine<R>& engine, const Game<R>& game, Color loser,
                         const search::Limits& limits, int factor = 10, search::Score fall = 50) {
    using G = typename R::Geometry;
    struct Seen {
        int ply;
        search::Score score;
        std::uint64_t nodes;
    };
    std::vector<Position<R>> positions{game.opening};
    for (const auto& m : game.moves) positions.push_back(positions.back().play(m));
    engine.new_game();
    std::vector<Seen> seen;
    LossFinding f;
    for (int k = 0; k < game.plies(); ++k) {
        const Position<R>& p = positions[std::size_t(k)];
        if (p.side != loser) continue;
        // A forced move is answered at once with a few nodes: its score says little.
        {
            FixedList<PathMove<G>, kMaxMoves> moves;
            generate_paths<R>(p, moves);
            if (moves.size() == 1) continue;
        }
        const std::vector<Position<R>> history(positions.begin(), positions.begin() + k);
        const auto r = engine.go(p, history, limits);
        seen.push_back({k, r.score, r.nodes});
        if (seen.size() < 2) continue;
        const Seen& a = seen[seen.size() - 2];
        if (r.score >= a.score - fall || search::is_loss(a.score)) continue;
        f.found = true;
        f.ply = a.ply;
        f.before = a.score;
        f.after = r.score;
        f.nodes = a.nodes;
        break;
    }
    if (!f.found) return f;
    const Position<R>& p = positions[std::size_t(f.ply)];
    FixedList<PathMove<G>, kMaxMoves> legal;
    generate_paths<R>(p, legal);
    const auto text_of = [&](const Move<G>& m) {
        for (const auto& pm : legal)
            if (pm.move == m) return move_text<R>(pm);
        return std::string("?");
    };
    f.played = text_of(game.moves[std::size_t(f.ply)]);
    engine.new_game();
    search::Limits longer;
    longer.nodes = std::max<std::uint64_t>(f.nodes, 1) * std::uint64_t(factor);
    const std::vector<Position<R>> history(positions.begin(), positions.begin() + f.ply);
    const auto r = engine.go(p, history, longer);
    f.longer_move = text_of(r.best);
    f.longer_score = r.score;
    f.longer_nodes = r.nodes;
    f.search_problem = !(r.best == game.moves[std::size_t(f.ply)]) && r.score >= f.after + fall;
    return f;
}

}  // namespace dambit::play
