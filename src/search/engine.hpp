// The engine API: a position with its game history and limits in, reports out through callbacks.
//
// The engine never prints; the command line, Hub and DXP front ends turn its reports into text.
// This header declares the API only: the search itself is compiled once per variant in
// src/instances/ (search/engine_impl.hpp), so a front end that includes this header
// compiles none of it.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/instances.hpp"
#include "core/position.hpp"
#include "search/draw.hpp"
#include "search/limits.hpp"
#include "search/tuning.hpp"

namespace dambit::search {

template <class R>
class Evaluator;
template <class R>
struct EngineState;
struct LearnedWeights;

template <class R>
class Engine {
    using G = typename R::Geometry;

public:
    struct Callbacks {
        std::function<void(const Iteration<G>&)> iteration;  // after each completed iteration
        std::function<void(const Result<G>&)> best_move;     // once, at the end
        // When set, the search ends soon after *stop_flag becomes true, even if it became true
        // before go() was called (stop() is lost then: go() starts by clearing its flag).
        const std::atomic<bool>* stop_flag = nullptr;
        // Told when the search runs with fewer threads than set (the system gave no more).
        std::function<void(const std::string&)> warning;
    };

    explicit Engine(std::size_t hash_megabytes = 16, int threads = 1);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void set_hash(std::size_t megabytes);
    void set_threads(int n);
    int threads() const;
    void set_evaluator(std::shared_ptr<const Evaluator<R>> e);
    // The evaluation: the hand-made one (nullptr), or the learned one with weights `w` (checked
    // for this variant: weights.hpp check_weights; throws std::runtime_error if they do not fit).
    void set_weights(const LearnedWeights* w);
    void set_tuning(const Tuning& t);
    // Probes the endgame tables of `dir` (dambit egtb) during the search, through a block cache
    // of `cache_megabytes`; returns the number of pieces up to which they cover every slice (0:
    // none, and then no probing). An empty dir turns probing off.
    int set_tables(const std::string& dir, std::size_t cache_megabytes);
    // Forgets everything learnt in earlier searches: the table and the move-ordering statistics.
    // A search after new_game() is a function of its input alone (with one thread).
    void new_game();

    // Searches `root`, whose game went through `history` (oldest first, the root not included),
    // and returns when the limits are reached or stop() is called. `start`: the draw rules'
    // counters at the game's first position (a FEN's H field; else 0).
    Result<G> go(const Position<R>& root, const std::vector<Position<R>>& history,
                 const Limits& limits, const Callbacks& callbacks = {},
                 const DrawCounters& start = {});

    // go() for a server, which must answer and play on: when the endgame tables fail during
    // the search (a file damaged or unreadable after it was opened), turns them off, tells
    // `on_table_error` a one-line notice ("search failed: ERROR; the tables are off, searching
    // again without them") and searches again without them, in the time left of `limits`. Any
    // other error is thrown as go() throws it.
    using TableErrorReport = std::function<void(const std::string&)>;
    Result<G> go_without_failed_tables(const Position<R>& root,
                                       const std::vector<Position<R>>& history, Limits limits,
                                       const Callbacks& callbacks,
                                       const TableErrorReport& on_table_error);

    // Ends the current search soon; safe to call from any thread, but only while a search runs:
    // go() clears it as it starts, so a stop() just before go() is lost. A caller that may stop
    // a search before it starts (a GUI's stop racing its go) gives Callbacks::stop_flag instead,
    // which go() reads as it starts.
    void stop();

private:
    std::unique_ptr<EngineState<R>> state_;
};

#define DAMBIT_ENGINE_TEMPLATES(R) DAMBIT_EXTERN template class Engine<R>;
#ifndef DAMBIT_INSTANTIATE_SEARCH
DAMBIT_FOR_EACH_RULES(DAMBIT_ENGINE_TEMPLATES)
#endif

}  // namespace dambit::search
