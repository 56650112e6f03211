// Worker threads started as far as the system allows: a process or memory limit (ulimit -u,
// ulimit -v, a container's pids limit) refuses a thread with std::system_error, which a vector of
// std::thread turned into std::terminate when it unwound with the threads already running.
#pragma once

#include <atomic>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace dambit {

// Whether a refused thread was said already, once a process whatever the work.
inline std::atomic<bool>& threads_refused_said() {
    static std::atomic<bool> said{false};
    return said;
}

// Up to `count` threads, thread i running f(i), joined when the object goes (or by join()). A
// thread the system refuses ends the starting: the work goes on with those started and `beside`
// threads that do it as well (the caller's own), and one line on stderr says so, once a process
// (`dambit: only K of N WHAT threads could be started (REASON): going on with K`). With nothing to
// do the work (no thread started and none beside), it throws std::runtime_error naming the reason.
// The work must be shared out as it goes (a counter each thread takes from), not by thread.
class Workers {
public:
    template <class F>
    Workers(int count, const char* what, int beside, F f) {
        threads_.reserve(std::size_t(count > 0 ? count : 0));  // no reallocation with threads running
        for (int i = 0; i < count; ++i) {
            try {
                threads_.emplace_back([f, i] { f(std::size_t(i)); });
            } catch (const std::exception& e) {  // std::system_error, or no memory for a stack
                const int started = int(threads_.size()) + beside;
                if (started == 0)
                    throw std::runtime_error(std::string("no ") + what +
                                             " thread could be started (" + e.what() + ")");
                if (!threads_refused_said().exchange(true))
                    std::fprintf(stderr,
                                 "dambit: only %d of %d %s threads could be started (%s): going "
                                 "on with %d\n",
                                 started, count + beside, what, e.what(), started);
                break;
            }
        }
    }
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;
    ~Workers() { join(); }

    void join() {
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }
    std::size_t started() const { return threads_.size(); }

private:
    std::vector<std::thread> threads_;
};

// Sets `flag` when it goes out of scope, however the scope ends: declared after a Workers whose
// threads stop on that flag, it tells them to stop before the Workers joins them.
struct SetOnExit {
    std::atomic<bool>& flag;
    ~SetOnExit() { flag = true; }
};

}  // namespace dambit
