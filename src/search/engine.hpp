// The engine API: a position with its game history and limits in, reports out through callbacks.
//
// The engine never prints; the command line, Hub and DXP front ends turn its reports into text.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "search/draw.hpp"
#include "search/eval.hpp"
#include "search/limits.hpp"
#include "search/search.hpp"
#include "search/tt.hpp"

namespace dambit::search {

template <class R>
class Engine {
    using G = typename R::Geometry;

public:
    struct Callbacks {
        std::function<void(const Iteration<G>&)> iteration;  // after each completed iteration
        std::function<void(const Result<G>&)> best_move;     // once, at the end
    };

    explicit Engine(std::size_t hash_megabytes = 16, int threads = 1)
        : table_(hash_megabytes), eval_(std::make_shared<HandEvaluator<R>>()) {
        shared_.tuning = Tuning::defaults_for<R>();
        set_threads(threads);
    }

    void set_hash(std::size_t megabytes) { table_.resize(megabytes); }
    void set_threads(int n) {
        n = std::max(1, n);
        workers_.clear();
        for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker<R>>(shared_, i));
    }
    int threads() const { return int(workers_.size()); }
    void set_evaluator(std::shared_ptr<const Evaluator<R>> e) { eval_ = std::move(e); }
    void set_tuning(const Tuning& t) { shared_.tuning = t; }
    // Forgets everything learnt in earlier searches: the table and the move-ordering statistics.
    // A search after new_game() is a function of its input alone (with one thread).
    void new_game() {
        table_.clear();
        for (auto& w : workers_) w->reset_history();
    }

    // Searches `root`, whose game went through `history` (oldest first, the root not included),
    // and returns when the limits are reached or stop() is called.
    Result<G> go(const Position<R>& root, const std::vector<Position<R>>& history,
                 const Limits& limits, const Callbacks& callbacks = {}) {
        Shared<R>& s = shared_;
        s.table = &table_;
        s.eval = eval_.get();
        s.hand_eval = dynamic_cast<const HandEvaluator<R>*>(s.eval);
        s.limits = limits;
        s.start = Clock::now();
        s.stop.store(false);
        s.history.clear();
        s.root_counters = DrawCounters{};
        for (std::size_t i = 0; i < history.size(); ++i) {
            s.history.push_back(position_key(history[i]));
            const Position<R>& next = i + 1 < history.size() ? history[i + 1] : root;
            s.root_counters = s.root_counters.after(history[i], next);
        }
        set_time(s, limits);
        s.workers.clear();
        for (auto& w : workers_) s.workers.push_back(w.get());
        table_.new_search();

        auto report = [&](const Iteration<G>& it) {
            if (callbacks.iteration) callbacks.iteration(it);
        };
        std::vector<std::thread> helpers;
        for (std::size_t i = 1; i < workers_.size(); ++i)
            helpers.emplace_back([&, i] { workers_[i]->run(root, [](const Iteration<G>&) {}); });
        workers_[0]->run(root, report);
        s.stop.store(true);
        for (auto& t : helpers) t.join();

        Result<G> r = workers_[0]->result();
        r.nodes = s.total_nodes();
        r.time_ms = s.elapsed_ms();
        if (callbacks.best_move) callbacks.best_move(r);
        return r;
    }

    // Ends the current search soon; safe to call from any thread.
    void stop() { shared_.stop.store(true); }

private:
    // Time for this move: a share of the clock plus most of the increment; never more than a
    // fraction of what is left, so that a slow iteration cannot lose on time.
    static void set_time(Shared<R>& s, const Limits& l) {
        s.soft_ms = s.hard_ms = 0;
        if (l.movetime_ms) {
            s.soft_ms = s.hard_ms = l.movetime_ms;
        } else if (l.time_ms) {
            const std::int64_t moves = l.moves_to_go ? std::min(l.moves_to_go, 40) : 30;
            const std::int64_t left = std::max<std::int64_t>(l.time_ms - 50, 1);
            const std::int64_t base = left / moves + l.increment_ms * 3 / 4;
            s.soft_ms = std::max<std::int64_t>(1, std::min(base, left / 2));
            s.hard_ms = std::max<std::int64_t>(1, std::min(base * 4, left / 3));
            s.hard_ms = std::max(s.hard_ms, s.soft_ms);
        }
    }

    TranspositionTable table_;
    std::shared_ptr<const Evaluator<R>> eval_;
    Shared<R> shared_;
    std::vector<std::unique_ptr<Worker<R>>> workers_;
};

}  // namespace dambit::search
