// Contestants: the two sides of a match as objects that live across games, so that an engine of
// another program (a Hub process, a DXP connection) can be started, told about each game and
// restarted, as well as dambit's own engine.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "book/play.hpp"
#include "play/match.hpp"
#include "search/engine.hpp"

namespace dambit::play {

// An engine of another program that cannot be started again after a failure (a Hub engine that
// does not start or answer its handshake, a DXP follower that cannot be connected to again): not
// the forfeit of one game, since every later game would be one too, but the end of the match.
// Thrown by start_game; what() names the engine and says why, one line.
class EngineLost : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Thrown by a contestant told to stop (the match was interrupted) while it waited for its engine
// to start: no failure of the engine, and no forfeit.
class Interrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

template <class R>
class Contestant {
public:
    using G = typename R::Geometry;
    virtual ~Contestant() = default;

    // Before each game, playing `colour` from `opening`. Throws PlayerFailure when it cannot play
    // the game (then the game is forfeited before its first move), EngineLost when it cannot
    // play any game any more (the exception passes through play_contest_game).
    virtual void start_game(const Position<R>& opening, Color colour, const TimeControl& time) = 0;
    // Its move in `p` (see TimedPlayer); throws PlayerFailure to forfeit.
    virtual Move<G> move(const Position<R>& p, const std::vector<Position<R>>& history,
                         const Turn<R>& turn) = 0;
    // After each game, forfeits included; `colour` is the colour it had.
    virtual void end_game(const Game<R>& game, Color colour) = 0;
    // What it spent over the match, one line without its name ("12 moves, ..."); empty: nothing
    // to say.
    virtual std::string spent() const { return ""; }
};

// dambit's own engine. With a clock the engine gets Limits{time_ms = its clock plus the
// increment (added before the move), increment_ms}; with a move time, movetime_ms; otherwise
// the fixed limits given (depth or nodes). With a book, the book's move where it has one (no
// search then). `stats` and `book`, if given, must outlive it.
template <class R>
class EngineContestant final : public Contestant<R> {
    using G = typename R::Geometry;

public:
    EngineContestant(search::Engine<R>& engine, const search::Limits& limits,
                     PlayerStats* stats = nullptr, book::BookPlayer<R>* book = nullptr)
        : engine_(engine), limits_(limits), stats_(stats), book_(book) {}

    void start_game(const Position<R>& opening, Color colour, const TimeControl&) override {
        engine_.new_game();
        if (book_) book_->new_game(position_key(opening) ^ std::uint64_t(colour));
    }
    Move<G> move(const Position<R>& p, const std::vector<Position<R>>& history,
                 const Turn<R>& turn) override {
        if (book_)
            if (const auto m = book_->choose(p, history.size())) return m->move.move;
        search::Limits l = limits_;
        if (turn.clocked) {
            l.time_ms = std::max<std::int64_t>(1, turn.clock_ms + turn.increment_ms);
            l.increment_ms = turn.increment_ms;
        } else if (turn.movetime_ms > 0) {
            l.movetime_ms = turn.movetime_ms;
        }
        return engine_player<R>(engine_, l, stats_, turn.abandon)(p, history);
    }
    void end_game(const Game<R>&, Color) override {}
    std::string spent() const override {
        return stats_ ? stats_text(*stats_) : "";
    }

private:
    search::Engine<R>& engine_;
    search::Limits limits_;
    PlayerStats* stats_;
    book::BookPlayer<R>* book_;
};

// One game between two contestants: both are told of the game first (a failure to start
// forfeits it, White's first), then play_timed_game, then both are told how it ended.
template <class R>
Game<R> play_contest_game(Contestant<R>& white, Contestant<R>& black, const Position<R>& opening,
                          const GameRules& rules) {
    Game<R> game;
    bool ready = true;
    for (Color c : {Color::kWhite, Color::kBlack}) {
        try {
            (c == Color::kWhite ? white : black).start_game(opening, c, rules.time);
        } catch (const PlayerFailure& f) {
            if (ready) game = forfeited_game<R>(opening, c, f.what());
            ready = false;
        }
    }
    if (ready) {
        auto as_player = [](Contestant<R>& c) -> TimedPlayer<R> {
            return [&c](const Position<R>& p, const std::vector<Position<R>>& history,
                        const Turn<R>& turn) { return c.move(p, history, turn); };
        };
        game = play_timed_game<R>(opening, as_player(white), as_player(black), rules);
    }
    white.end_game(game, Color::kWhite);
    black.end_game(game, Color::kBlack);
    return game;
}

// A game pair from one opening, colours swapped: A has White in the first game, B in the second.
template <class R>
std::array<Game<R>, 2> play_contest_pair(Contestant<R>& a, Contestant<R>& b,
                                         const Position<R>& opening, const GameRules& rules) {
    Game<R> first = play_contest_game<R>(a, b, opening, rules);
    if (rules.abandoned()) return {first, first};  // thrown away: no second game
    return {std::move(first), play_contest_game<R>(b, a, opening, rules)};
}

}  // namespace dambit::play
