// The MPI side of cluster.hpp; without DAMBIT_HAVE_MPI, a job of one rank.
#include "cluster/cluster.hpp"

#include "core/signals.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <thread>

#ifdef DAMBIT_HAVE_MPI
#include <mpi.h>
#endif

namespace dambit::cluster {
namespace {

int g_rank = 0, g_size = 1;
bool g_joined = false;
std::vector<std::string> g_hosts;
std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) { g_stop.store(true); }

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::uint64_t bits_of(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}
double double_of(std::uint64_t b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

// The messages of the work queue. Rank 0 sends a job's text to every other rank, which answers
// kReady; then items, each answered by its result (item, value, seconds as bits), which also asks
// for the next. kEnd: no more jobs.
// kFailed: a rank's last words (text).
enum Tag { kJob = 1, kItem, kEnd, kReady, kResult, kFailed };

struct Message {
    int from = 0, tag = 0;
    std::vector<std::uint64_t> words;
    std::string text;
};

#ifdef DAMBIT_HAVE_MPI
void send_words(int to, int tag, const std::vector<std::uint64_t>& words) {
    MPI_Send(words.data(), int(words.size()), MPI_UINT64_T, to, tag, MPI_COMM_WORLD);
}
void send_text(int to, int tag, const std::string& text) {
    MPI_Send(text.data(), int(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}
// A message if one has arrived. Waiting ranks poll with short sleeps rather than block in
// MPI_Recv, which Open MPI implements by spinning: a rank waiting for work would otherwise take a
// core from the ranks counting on the same machine.
bool poll(Message& m) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) return false;
    m.from = st.MPI_SOURCE;
    m.tag = st.MPI_TAG;
    int n = 0;
    if (m.tag == kJob || m.tag == kFailed) {
        MPI_Get_count(&st, MPI_CHAR, &n);
        m.text.assign(std::size_t(n), '\0');
        MPI_Recv(m.text.data(), n, MPI_CHAR, m.from, m.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Get_count(&st, MPI_UINT64_T, &n);
        m.words.assign(std::size_t(n), 0);
        MPI_Recv(m.words.data(), n, MPI_UINT64_T, m.from, m.tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    }
    return true;
}
#else
void send_words(int, int, const std::vector<std::uint64_t>&) {}
void send_text(int, int, const std::string&) {}
bool poll(Message&) { return false; }
#endif

void pause() { std::this_thread::sleep_for(std::chrono::microseconds(500)); }

Message wait_for_message() {
    Message m;
    while (!poll(m)) pause();
    return m;
}

// A message that the protocol does not allow here: a bug, or another program on the job.
[[noreturn]] void unexpected(const Message& m) {
    throw std::runtime_error(fmt::format("rank {}: unexpected message {} from rank {}", g_rank,
                                         m.tag, m.from));
}

// Test hook (tests/mpi_test.sh): DAMBIT_TEST_RANK_EXIT=R:J:N makes rank R exit with status 3,
// without leaving the job, once it has sent the results of N items of its J-th job: a rank that
// fails part way through, at a point the test can count on.
void test_exit(int jobs, std::size_t items) {
    const char* e = std::getenv("DAMBIT_TEST_RANK_EXIT");
    int r = -1, j = -1;
    unsigned long n = 0;
    if (!e || std::sscanf(e, "%d:%d:%lu", &r, &j, &n) != 3) return;
    if (r != g_rank || j != jobs || n != items) return;
    throw std::runtime_error(
        fmt::format("stops after {} items of job {} (DAMBIT_TEST_RANK_EXIT)", n, j));
}

}  // namespace

bool built_with_mpi() {
#ifdef DAMBIT_HAVE_MPI
    return true;
#else
    return false;
#endif
}

void start(int& argc, char**& argv) {
#ifdef DAMBIT_HAVE_MPI
    // Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMIx and PMI launchers (srun, hydra) the others.
    bool launched = false;
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
        launched = launched || std::getenv(v);
    if (!launched) return;
    int provided = 0;
    // Only the main thread of a rank calls MPI; the counting threads never do.
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    g_joined = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    std::vector<char> all(std::size_t(g_size) * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, MPI_COMM_WORLD);
    for (int r = 0; r < g_size; ++r)
        g_hosts.emplace_back(all.data() + std::size_t(r) * MPI_MAX_PROCESSOR_NAME);
    if (g_rank > 0 && !std::freopen("/dev/null", "w", stdout))
        throw std::runtime_error("cannot silence standard output");
#else
    (void)argc;
    (void)argv;
#endif
}

int finish(int status) {
    if (!g_joined) return status;
    // A usage error is the same on every rank: let rank 0's one line come before the launcher's
    // report of the end.
    if (status != 0 && g_rank > 0) std::this_thread::sleep_for(std::chrono::milliseconds(500));
    if (status != 0) abort(status);
#ifdef DAMBIT_HAVE_MPI
    std::fflush(stdout);
    MPI_Finalize();
#endif
    return status;
}

void abort(int status) {
    std::fflush(stdout);
    std::fflush(stderr);
#ifdef DAMBIT_HAVE_MPI
    if (g_joined) MPI_Abort(MPI_COMM_WORLD, status);
#endif
    std::_Exit(status);
}

void report_failure(const std::string& why) {
    if (!g_joined || g_rank == 0) return;
    send_text(0, kFailed, why);
    // Rank 0 ends the job when it reads this; if it is not serving a job it never will.
    std::this_thread::sleep_for(std::chrono::seconds(2));
}

std::optional<std::pair<int, std::string>> differing_rank(const std::string& text) {
    if (!g_joined || g_size < 2) return std::nullopt;
#ifdef DAMBIT_HAVE_MPI
    constexpr std::size_t kWidth = 256;  // a subcommand and a flag: far less
    std::vector<char> mine(kWidth, '\0'), all(std::size_t(g_size) * kWidth);
    std::copy_n(text.begin(), std::min(text.size(), kWidth - 1), mine.begin());
    MPI_Allgather(mine.data(), int(kWidth), MPI_CHAR, all.data(), int(kWidth), MPI_CHAR,
                  MPI_COMM_WORLD);
    const std::string first(all.data());
    for (int r = 1; r < g_size; ++r)
        if (std::string other(all.data() + std::size_t(r) * kWidth); other != first)
            return std::pair(r, other);
#else
    (void)text;
#endif
    return std::nullopt;
}

int rank() { return g_rank; }
int size() { return g_size; }
std::string host(int r) {
    return r < int(g_hosts.size()) ? g_hosts[std::size_t(r)] : std::string("localhost");
}

void serve(const Job& job, std::vector<RankTime>& times) {
    times.resize(std::size_t(g_size));
    const double start = now();
    g_stop.store(false);
    // (An ignored signal stays ignored: core/signals.hpp.)
    auto old_int = SIG_IGN, old_term = SIG_IGN;
    if (!signal_ignored(SIGINT)) old_int = std::signal(SIGINT, on_stop_signal);
    if (!signal_ignored(SIGTERM)) old_term = std::signal(SIGTERM, on_stop_signal);
    for (int r = 1; r < g_size; ++r) send_text(r, kJob, job.text);

    struct Finished {
        std::size_t item;
        std::uint64_t value;
        int rank;
        double seconds;
    };
    std::mutex lock;
    std::condition_variable wake;
    std::vector<Finished> by_local;  // done by the local thread, reported by the main one
    std::vector<int> idle;           // ranks waiting for an item
    std::vector<double> busy(std::size_t(g_size), 0.0);
    std::size_t completed = 0;
    int ready = 0;  // other ranks that have answered the job
    bool over = false;
    std::thread local;
    std::optional<std::string> local_failure;  // what the local thread's item threw: the job ends
    if (job.local)
        local = std::thread([&] {
            std::unique_lock<std::mutex> l(lock);
            while (!over && !local_failure) {
                const auto item = job.next();
                if (!item) {
                    wake.wait(l);
                    continue;
                }
                l.unlock();
                const double t0 = now();
                std::uint64_t value = 0;
                std::optional<std::string> failure;
                try {
                    value = job.local(*item);
                } catch (const std::bad_alloc&) {
                    failure = "out of memory";
                } catch (const std::exception& e) {
                    failure = e.what();
                }
                const double seconds = now() - t0;
                l.lock();
                if (failure)
                    local_failure = failure;
                else
                    by_local.push_back({*item, value, 0, seconds});
            }
        });
    auto record = [&](const Finished& f) {
        job.done(f.item, f.value, f.rank, f.seconds);
        ++completed;
        busy[std::size_t(f.rank)] += f.seconds;
        ++times[std::size_t(f.rank)].items;
    };
    for (;;) {
        {
            std::lock_guard<std::mutex> l(lock);
            for (const Finished& f : by_local) record(f);
            by_local.clear();
            if (completed == job.items && ready == g_size - 1) {
                over = true;
                wake.notify_all();
                break;
            }
            while (!idle.empty()) {
                const auto item = job.next();
                if (!item) break;
                send_words(idle.back(), kItem, {std::uint64_t(*item)});
                idle.pop_back();
            }
            wake.notify_all();  // an item done may have made others ready for the local thread
        }
        if (g_stop.load()) {
            if (job.on_stop)
                job.on_stop("interrupted (a signal: Ctrl-C, or mpirun ending the job as a rank ended)");
            abort(130);
        }
        if (const auto failure = [&] {
                std::lock_guard<std::mutex> l(lock);
                return local_failure;
            }()) {
            if (job.on_stop)
                job.on_stop(fmt::format("rank 0 ({}) failed ({})", host(0), *failure));
            abort(1);
        }
        Message m;
        if (!poll(m)) {
            pause();
            continue;
        }
        if (m.tag == kFailed) {
            // (The rank said why on its own line.)
            if (job.on_stop) job.on_stop(fmt::format("rank {} ({}) failed", m.from, host(m.from)));
            abort(1);
        }
        if (m.tag == kReady) {
            ++ready;
        } else if (m.tag == kResult && m.words.size() == 3) {
            std::lock_guard<std::mutex> l(lock);
            record({std::size_t(m.words[0]), m.words[1], m.from, double_of(m.words[2])});
        } else {
            unexpected(m);
        }
        idle.push_back(m.from);
    }
    if (local.joinable()) local.join();
    std::signal(SIGINT, old_int);
    std::signal(SIGTERM, old_term);
    const double wall = now() - start;
    for (int r = 0; r < g_size; ++r) {
        if (r == 0 && !job.local) continue;  // rank 0 only hands out the work
        RankTime& t = times[std::size_t(r)];
        t.busy += busy[std::size_t(r)];
        t.idle += std::max(0.0, wall - busy[std::size_t(r)]);
    }
}

void release_workers() {
    for (int r = 1; r < g_size; ++r) send_words(r, kEnd, {});
}

void print_times(const std::vector<RankTime>& times, const char* items, const char* busy,
                 bool rank0_works) {
    for (std::size_t r = 0; r < times.size(); ++r) {
        const RankTime& t = times[r];
        const std::string who = fmt::format("rank {} ({})", r, host(int(r)));
        if (r == 0 && !rank0_works)
            std::fputs(fmt::format("{}: hands out the work\n", who).c_str(), stderr);
        else
            std::fputs(fmt::format("{}: {} {}{}, {:.2f} s {}, {:.2f} s idle\n", who, t.items, items,
                                   t.items == 1 ? "" : "s", t.busy, busy, t.idle)
                           .c_str(),
                       stderr);
    }
}

std::optional<std::size_t> Worker::next_item(std::uint64_t last_value) {
    if (item_) {
        send_words(0, kResult, {std::uint64_t(*item_), last_value, bits_of(now() - started_)});
        item_.reset();
        test_exit(jobs_, ++items_in_job_);
    }
    for (;;) {
        const Message m = wait_for_message();
        if (m.from != 0) unexpected(m);
        if (m.tag == kJob) {
            job_ = m.text;
            ++jobs_;
            items_in_job_ = 0;
            send_words(0, kReady, {});
        } else if (m.tag == kItem && m.words.size() == 1) {
            item_ = std::size_t(m.words[0]);
            started_ = now();
            return item_;
        } else if (m.tag == kEnd) {
            return std::nullopt;
        } else {
            unexpected(m);
        }
    }
}

}  // namespace dambit::cluster
