// Runs one piece of work on several threads at once (the calling thread is one of them); the
// first exception any of them throws is thrown again once all have stopped.
#pragma once

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/threads.hpp"

namespace dambit::egtb {

// `work` takes its pieces from a shared counter of its own; `on_error`, called once under a lock
// when a thread fails, can make the others stop early (say, by moving that counter to the end).
template <class F, class E>
void run_parallel(int threads, F&& work, E&& on_error) {
    std::exception_ptr error;
    std::mutex lock;
    auto guarded = [&] {
        try {
            work();
        } catch (...) {
            std::lock_guard<std::mutex> g(lock);
            if (!error) {
                error = std::current_exception();
                on_error();
            }
        }
    };
    Workers pool(std::max(1, threads) - 1, "table", 1, [&](std::size_t) { guarded(); });
    guarded();
    pool.join();
    if (error) std::rethrow_exception(error);
}

template <class F>
void run_parallel(int threads, F&& work) {
    run_parallel(threads, std::forward<F>(work), [] {});
}

}  // namespace dambit::egtb
