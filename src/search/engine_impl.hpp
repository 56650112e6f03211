// The engine's body (search/engine.hpp declares it): the shared table, the evaluator and the
// worker threads of one engine. Included by the instance files, which compile it per variant.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "search/draw.hpp"
#include "search/engine.hpp"
#include "search/eval.hpp"
#include "search/learned_eval.hpp"
#include "search/weights.hpp"
#include "search/limits.hpp"
#include "search/search.hpp"
#include "search/tt.hpp"

namespace dambit::search {

template <class R>
struct EngineState {
    explicit EngineState(std::size_t hash_megabytes)
        : table(hash_megabytes), eval(std::make_shared<HandEvaluator<R>>()) {}

    TranspositionTable table;
    std::shared_ptr<const Evaluator<R>> eval;
    Shared<R> shared;
    std::vector<std::unique_ptr<Worker<R>>> workers;
    std::unique_ptr<egtb::Tables<R>> tables;
};

template <class R>
Engine<R>::Engine(std::size_t hash_megabytes, int threads)
    : state_(std::make_unique<EngineState<R>>(hash_megabytes)) {
    state_->shared.tuning = Tuning::defaults_for<R>();
    set_threads(threads);
}

template <class R>
Engine<R>::~Engine() = default;

template <class R>
void Engine<R>::set_hash(std::size_t megabytes) {
    state_->table.resize(megabytes);
}

template <class R>
void Engine<R>::set_threads(int n) {
    n = std::max(1, n);
    auto& workers = state_->workers;
    workers.clear();
    for (int i = 0; i < n; ++i) workers.push_back(std::make_unique<Worker<R>>(state_->shared, i));
}

template <class R>
int Engine<R>::threads() const {
    return int(state_->workers.size());
}

template <class R>
void Engine<R>::set_evaluator(std::shared_ptr<const Evaluator<R>> e) {
    state_->eval = std::move(e);
    for (auto& w : state_->workers) w->clear_eval_cache();
}

template <class R>
void Engine<R>::set_weights(const LearnedWeights* w) {
    if (!w) {
        set_evaluator(std::make_shared<HandEvaluator<R>>());
        return;
    }
    check_weights<R>(*w, "weights");
    set_evaluator(std::make_shared<LearnedEvaluator<R>>(*w));
}

template <class R>
void Engine<R>::set_tuning(const Tuning& t) {
    state_->shared.tuning = t;
}

template <class R>
int Engine<R>::set_tables(const std::string& dir, std::size_t cache_megabytes) {
    state_->shared.tables = nullptr;
    state_->shared.table_pieces = 0;
    state_->tables.reset();
    if (dir.empty()) return 0;
    state_->tables = std::make_unique<egtb::Tables<R>>(dir, cache_megabytes);
    const int pieces = state_->tables->complete_pieces();
    state_->shared.tables = state_->tables.get();
    state_->shared.table_pieces = pieces;
    return pieces;
}

template <class R>
void Engine<R>::new_game() {
    state_->table.clear();
    for (auto& w : state_->workers) w->reset_history();
}

namespace detail {

// Time for this move: a share of the clock plus most of the increment; never more than a
// fraction of what is left, so that a slow iteration cannot lose on time. A reserve of
// kClockReserveMs is not planned: each move costs some time beyond its search (the protocol, the
// caller's bookkeeping, the search's first iteration), so that in sudden death a clock spent down
// to nothing loses on time a few moves later (docs/performance.md, "Time for a move under a
// clock"). Below the reserve every move is planned at 1 ms, and the reserve lasts for about a
// hundred of them. (The increment is part of the clock given: the caller adds it before the
// move.)
inline constexpr std::int64_t kClockReserveMs = 150;

template <class R>
void set_time(Shared<R>& s, const Limits& l) {
    s.soft_ms = s.hard_ms = 0;
    if (l.movetime_ms) {
        s.soft_ms = s.hard_ms = l.movetime_ms;
    } else if (l.time_ms) {
        const std::int64_t moves = l.moves_to_go ? std::min(l.moves_to_go, 40) : 30;
        const std::int64_t left = std::max<std::int64_t>(l.time_ms - kClockReserveMs, 1);
        const std::int64_t base = left / moves + l.increment_ms * 3 / 4;
        s.soft_ms = std::max<std::int64_t>(1, std::min(base, left / 2));
        s.hard_ms = std::max<std::int64_t>(1, std::min(base * 4, left / 3));
        s.hard_ms = std::max(s.hard_ms, s.soft_ms);
    }
}

}  // namespace detail

template <class R>
Result<typename R::Geometry> Engine<R>::go(const Position<R>& root,
                                           const std::vector<Position<R>>& history,
                                           const Limits& limits, const Callbacks& callbacks,
                                           const DrawCounters& start) {
    Shared<R>& s = state_->shared;
    auto& workers = state_->workers;
    s.table = &state_->table;
    s.eval = state_->eval.get();
    s.hand_eval = dynamic_cast<const HandEvaluator<R>*>(s.eval);
    s.learned_eval = dynamic_cast<const LearnedEvaluator<R>*>(s.eval);
    s.limits = limits;
    s.start = Clock::now();
    s.stop.store(false);
    s.first_done.store(false);
    s.external_stop = callbacks.stop_flag;
    if (s.external_stop && s.external_stop->load()) s.stop.store(true);
    s.history.clear();
    s.root_counters = start;
    for (std::size_t i = 0; i < history.size(); ++i) {
        s.history.push_back(position_key(history[i]));
        const Position<R>& next = i + 1 < history.size() ? history[i + 1] : root;
        s.root_counters = s.root_counters.after(history[i], next);
    }
    detail::set_time(s, limits);
    s.workers.clear();
    for (auto& w : workers) s.workers.push_back(w.get());
    state_->table.new_search();

    auto report = [&](const Iteration<G>& it) {
        if (callbacks.iteration) callbacks.iteration(it);
    };
    // A thread that fails (an endgame table that cannot be read) stops the others; the first
    // failure is thrown here once every thread has ended, never from a helper thread.
    std::exception_ptr failure;
    std::mutex failure_lock;
    const auto guarded = [&](std::size_t i, const auto& on_iteration) {
        try {
            workers[i]->run(root, on_iteration);
        } catch (...) {
            const std::lock_guard lock(failure_lock);
            if (!failure) failure = std::current_exception();
            s.stop.store(true);
        }
    };
    std::vector<std::thread> helpers;
    helpers.reserve(workers.size());  // no reallocation throwing with threads running
    for (std::size_t i = 1; i < workers.size(); ++i) {
        try {
            helpers.emplace_back([&, i] { guarded(i, [](const Iteration<G>&) {}); });
        } catch (const std::exception& e) {  // std::system_error, or no memory for a stack
            // The system gives no more threads (a process or memory limit): the engine keeps
            // the threads it could start, from this search on, which starts again with them.
            s.stop.store(true);
            s.first_done.store(true);  // the helpers started wait for it
            s.first_done.notify_all();
            for (auto& t : helpers) t.join();
            const std::size_t wanted = workers.size();
            workers.resize(i);
            const std::string warning = "only " + std::to_string(i) + " of the " +
                                        std::to_string(wanted) +
                                        " search threads could be started (" + e.what() +
                                        "): searching with " + std::to_string(i);
            if (callbacks.warning)
                callbacks.warning(warning);
            else  // a match or a DXP game: the user must see it all the same
                std::fprintf(stderr, "dambit: %s\n", warning.c_str());
            return go(root, history, limits, callbacks, start);
        }
    }
    guarded(0, report);
    s.stop.store(true);
    s.first_done.store(true);  // helpers still waiting for the main worker's first ply wake
    s.first_done.notify_all();
    for (auto& t : helpers) t.join();
    if (failure) std::rethrow_exception(failure);

    Result<G> r = workers[0]->result();
    r.nodes = s.total_nodes();
    r.time_ms = s.elapsed_ms();
    if (callbacks.best_move) callbacks.best_move(r);
    return r;
}

template <class R>
Result<typename R::Geometry> Engine<R>::go_without_failed_tables(
    const Position<R>& root, const std::vector<Position<R>>& history, Limits limits,
    const Callbacks& callbacks, const TableErrorReport& on_table_error) {
    const auto t0 = Clock::now();
    try {
        return go(root, history, limits, callbacks);
    } catch (const egtb::TableError& e) {
        set_tables("", 0);
        if (on_table_error)
            on_table_error(std::string("search failed: ") + e.what() +
                           "; the tables are off, searching again without them");
    }
    // The time the failed search took comes off a time limit (never below 1 ms).
    const std::int64_t spent =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    if (limits.movetime_ms) limits.movetime_ms = std::max<std::int64_t>(1, limits.movetime_ms - spent);
    if (limits.time_ms) limits.time_ms = std::max<std::int64_t>(1, limits.time_ms - spent);
    return go(root, history, limits, callbacks);
}

template <class R>
void Engine<R>::stop() {
    state_->shared.stop.store(true);
}

}  // namespace dambit::search
