// Perft: the number of leaf positions at a given depth, with bulk counting at the last ply, a
// root split over threads and an optional shared hash table.
#pragma once

#include "instances.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "key.hpp"
#include "movegen.hpp"

namespace dambit {

// A lockless table of subtree counts shared by all threads. Each entry holds the count and the
// count XORed with the key of (position, depth); a torn write from two threads fails the check and
// is treated as a miss, so the table can only save work, never change a result (up to a 64-bit key
// collision, about one chance in 2^64 per probe).
class PerftHash {
public:
    explicit PerftHash(std::size_t megabytes) {
        std::size_t n = 1;
        while (n * 2 * sizeof(Entry) <= megabytes * (std::size_t(1) << 20)) n *= 2;
        entries_ = std::make_unique<Entry[]>(n);
        mask_ = n - 1;
    }
    bool probe(std::uint64_t key, std::uint64_t& count) const {
        const Entry& e = entries_[key & mask_];
        const std::uint64_t c = e.count.load(std::memory_order_relaxed);
        const std::uint64_t k = e.check.load(std::memory_order_relaxed);
        if ((k ^ c) != key) return false;
        count = c;
        return true;
    }
    void store(std::uint64_t key, std::uint64_t count) {
        Entry& e = entries_[key & mask_];
        e.count.store(count, std::memory_order_relaxed);
        e.check.store(key ^ count, std::memory_order_relaxed);
    }
    std::size_t entries() const { return mask_ + 1; }

private:
    struct Entry {
        std::atomic<std::uint64_t> check{0}, count{0};
    };
    std::unique_ptr<Entry[]> entries_;
    std::size_t mask_ = 0;
};

namespace detail {

// Subtree counts differ by depth and by duplicate convention, so both go into the key.
template <Duplicates D>
std::uint64_t depth_salt(int depth) {
    return 0x9E3779B97F4A7C15ull * std::uint64_t(2 * depth + (D == Duplicates::kKeep ? 1 : 0));
}

template <class R, Duplicates D, bool UseHash>
std::uint64_t perft_node(const Position<R>& p, int depth, PerftHash* hash) {
    if (depth == 1) return std::uint64_t(count_moves<R, D>(p));
    std::uint64_t key = 0;
    if constexpr (UseHash) {
        if (depth >= 3) {
            key = position_key(p) ^ depth_salt<D>(depth);
            std::uint64_t n;
            if (hash->probe(key, n)) return n;
        }
    }
    std::uint64_t n = 0;
    if (depth == 2)
        for_each_move<R, D>(p, [&](const auto& m) { n += std::uint64_t(count_moves<R, D>(p.play(m))); });
    else
        for_each_move<R, D>(p, [&](const auto& m) {
            n += perft_node<R, D, UseHash>(p.play(m), depth - 1, hash);
        });
    if constexpr (UseHash) {
        if (depth >= 3) hash->store(key, n);
    }
    return n;
}

}  // namespace detail

// Perft of p at depth >= 1 on the calling thread; hash may be null.
template <class R, Duplicates D>
std::uint64_t perft(const Position<R>& p, int depth, PerftHash* hash = nullptr) {
    if (depth <= 0) return 1;
    return hash ? detail::perft_node<R, D, true>(p, depth, hash)
                : detail::perft_node<R, D, false>(p, depth, hash);
}

template <class R>
std::uint64_t perft(const Position<R>& p, int depth, Duplicates d, PerftHash* hash = nullptr) {
    return d == Duplicates::kKeep ? perft<R, Duplicates::kKeep>(p, depth, hash)
                                  : perft<R, Duplicates::kDrop>(p, depth, hash);
}

// Perft split over threads: the moves two plies from the root are shared out as tasks. Returns
// the count of each root move, in the order generate_paths gives them. `on_root_done` is called
// (under a lock) as each root move's subtree completes, for progress reports.
template <class R>
std::vector<std::uint64_t> perft_divide(
    const Position<R>& p, int depth, Duplicates dup, int threads, PerftHash* hash,
    const std::function<void(int root_index, std::uint64_t nodes)>& on_root_done = {}) {
    using G = typename R::Geometry;
    FixedList<PathMove<G>, kMaxMoves> roots;
    if (dup == Duplicates::kKeep)
        generate_paths<R, Duplicates::kKeep>(p, roots);
    else
        generate_paths<R, Duplicates::kDrop>(p, roots);
    std::vector<std::uint64_t> counts(std::size_t(roots.size()), 0);
    if (depth <= 0 || roots.empty()) return counts;

    struct Task {
        int root;
        Position<R> pos;
    };
    std::vector<Task> tasks;
    std::vector<int> pending(std::size_t(roots.size()), 0);
    const bool split2 = threads > 1 && depth >= 3;
    for (int i = 0; i < roots.size(); ++i) {
        const Position<R> child = p.play(roots[i].move);
        if (!split2) {
            tasks.push_back({i, child});
            continue;
        }
        MoveList<G> replies;
        if (dup == Duplicates::kKeep)
            generate<R, Duplicates::kKeep>(child, replies);
        else
            generate<R, Duplicates::kDrop>(child, replies);
        for (const auto& m : replies) tasks.push_back({i, child.play(m)});
        if (replies.empty() && on_root_done) on_root_done(i, 0);
    }
    for (const Task& t : tasks) ++pending[std::size_t(t.root)];
    const int sub = split2 ? depth - 2 : depth - 1;

    std::atomic<std::size_t> next{0};
    std::mutex lock;
    auto work = [&] {
        for (;;) {
            const std::size_t k = next.fetch_add(1);
            if (k >= tasks.size()) return;
            const std::uint64_t n = perft<R>(tasks[k].pos, sub, dup, hash);
            std::lock_guard<std::mutex> guard(lock);
            const auto r = std::size_t(tasks[k].root);
            counts[r] += n;
            if (--pending[r] == 0 && on_root_done) on_root_done(int(r), counts[r]);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    return counts;
}

#define DAMBIT_PERFT_TEMPLATES(R)                                                               \
    DAMBIT_EXTERN template std::uint64_t perft<R, Duplicates::kDrop>(const Position<R>&, int,   \
                                                                     PerftHash*);               \
    DAMBIT_EXTERN template std::uint64_t perft<R, Duplicates::kKeep>(const Position<R>&, int,   \
                                                                     PerftHash*);               \
    DAMBIT_EXTERN template std::vector<std::uint64_t> perft_divide<R>(                          \
        const Position<R>&, int, Duplicates, int, PerftHash*,                                   \
        const std::function<void(int, std::uint64_t)>&);
#ifndef DAMBIT_INSTANTIATING
DAMBIT_FOR_EACH_RULES(DAMBIT_PERFT_TEMPLATES)
#endif

}  // namespace dambit
