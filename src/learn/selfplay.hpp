// Self-play games for training data (dambit selfplay): each game starts with a few random moves
// and is then played by the engine on both sides at a fixed node budget; its quiet positions are
// labelled with the game's result and the search's score.
//
// Game number i of a run is a function of the seed, i and the settings alone (one search thread,
// an empty table at the start of each game), so a run gives the same data whatever the number of
// worker threads and however often it was interrupted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/key.hpp"
#include "core/movegen.hpp"
#include "learn/dataset.hpp"
#include "play/match.hpp"
#include "search/engine.hpp"
#include "search/score.hpp"

namespace dambit::learn {

struct SelfplaySettings {
    std::uint64_t nodes = 4000;  // per move
    int random_min = 4, random_max = 8;  // random plies at the start of each game
    int max_plies = 200;  // then a draw
    std::string eval = "auto";
    // The table's size changes what it keeps, so the games.
    std::size_t hash_megabytes = kDefaultSelfplayHash;
    // As the data file's header keeps them: a resumed run must have the same. (The default table
    // size is left out, as the first data files were written without it.)
    std::string text() const {
        std::string t = fmt::format("nodes={} random={}-{} max-plies={} eval={}", nodes,
                                    random_min, random_max, max_plies, eval);
        if (hash_megabytes != kDefaultSelfplayHash) t += fmt::format(" hash={}", hash_megabytes);
        return t;
    }
};

// SplitMix64: small, fast and good enough to pick random moves.
struct SplitMix {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return int(next() % std::uint64_t(n)); }
};

// Neither side has a capture: the position the evaluation is asked about, as it stands.
template <class R>
bool quiet(const Position<R>& p) {
    return !has_capture(p) && !opponent_has_capture(p);
}

template <class R>
Sample sample_of(const Position<R>& p, search::Score score, std::uint32_t game) {
    Sample s;
    pack_position(p, s);
    s.score = std::int16_t(std::clamp(score, -3000, 3000));
    s.game = game;
    return s;
}

// Why a record cannot be one of selfplay's (nullptr when it can): a side or result out of range,
// a bit off the board, a square of both colours, a king on an empty square.
template <class G>
const char* invalid_sample(const Sample& s) {
    const auto board = std::uint64_t(G::kBoard);
    if (s.side > 1) return "side to move out of range";
    if (s.result < -1 || s.result > 1) return "result out of range";
    if ((s.white | s.black | s.kings) & ~board) return "a piece off the board";
    if (s.white & s.black) return "a square of both colours";
    if (s.kings & ~(s.white | s.black)) return "a king on an empty square";
    return nullptr;
}

template <class R>
Position<R> position_of(const Sample& s) {
    return unpack_position<R>(s);
}

// Plays game number `game` of a run with `seed`: the quiet positions after the random start, in
// order, with the result for White set in each.
template <class R>
std::vector<Sample> selfplay_game(search::Engine<R>& engine, const SelfplaySettings& s,
                                  std::uint64_t seed, std::uint32_t game) {
    using G = typename R::Geometry;
    SplitMix rng{seed ^ (0xd1b54a32d192ed03ULL * (std::uint64_t(game) + 1))};
    // The random start: a position after random_min..random_max random plies in which the side
    // to move has a move (drawn again, from the same generator, until one has).
    Position<R> start;
    FixedList<PathMove<G>, kMaxMoves> legal;
    for (bool found = false; !found;) {
        start = Position<R>::start();
        const int plies = s.random_min + rng.below(s.random_max - s.random_min + 1);
        found = true;
        for (int i = 0; i <= plies && found; ++i) {
            generate_paths<R>(start, legal);
            if (legal.empty()) found = false;
            else if (i < plies) start = start.play(legal[rng.below(legal.size())].move);
        }
    }
    engine.new_game();
    search::Limits limits;
    limits.nodes = s.nodes;
    play::GameState<R> g(start);
    std::vector<Sample> out;
    int result = 0;  // for White
    while (true) {
        const auto ending = g.rules_ending(s.max_plies, legal);
        if (ending) {
            if (*ending == play::Ending::kNoMove) result = g.pos.side == Color::kWhite ? -1 : 1;
            break;
        }
        const auto r = engine.go(g.pos, g.history, limits);
        if (quiet(g.pos)) out.push_back(sample_of(g.pos, r.score, game));
        if (search::is_decisive(r.score)) {
            // A proven result: the game is decided (the engine would play it out).
            const bool stm_wins = search::is_win(r.score);
            result = (g.pos.side == Color::kWhite) == stm_wins ? 1 : -1;
            break;
        }
        const auto it = std::find_if(legal.begin(), legal.end(),
                                     [&](const PathMove<G>& m) { return m.move == r.best; });
        if (it == legal.end()) throw std::logic_error("selfplay: the engine's move is not legal");
        g.play(*it);
    }
    for (auto& x : out) x.result = std::int8_t(result);
    return out;
}

}  // namespace dambit::learn
