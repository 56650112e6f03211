// The transposition table of the search: 16-byte entries in 64-byte buckets, shared lock-free by
// all search threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace dambit::search {

// Memory for a large table of random accesses (the transposition table, the solver's proof
// table), uninitialised: from std::aligned_alloc, aligned to 2 MB and advised onto huge pages when
// it is that large (else aligned to `align`). A probe is one random access into megabytes: with
// small pages most probes would also miss the TLB, and on a virtual machine every small page's
// first touch is a costly fault (the solver's 256 MB on small pages took 1.1 s to fill before its
// first node). Throws std::bad_alloc. Freed with std::free.
void* allocate_table(std::size_t bytes, std::size_t align);
struct FreeTable {
    void operator()(void* p) const { std::free(p); }
};

enum class Bound : std::uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

// What the table knows about a position. `move` is the search's own move code (0 = none), the
// scores are as stored (wins relative to the node: see score.hpp).
struct TableData {
    std::uint16_t move = 0;
    std::int16_t score = 0;
    std::int16_t eval = 0;
    std::uint8_t depth = 0;
    Bound bound = Bound::kNone;
};

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t megabytes = 16);

    // Reallocates (and so empties) the table; at least one bucket.
    void resize(std::size_t megabytes);
    void clear();
    // Ages the entries of earlier searches, so that they are replaced first.
    void new_search() { generation_ = std::uint8_t((generation_ + 1) & kGenerationMask); }

    bool probe(std::uint64_t key, TableData& out) const;
    // Starts loading the bucket of `key` into the cache, to be probed a little later.
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&bucket(key)); }
    void store(std::uint64_t key, const TableData& d);
    // Used share of a sample of entries, in permille (for reports).
    int permille_full() const;
    std::size_t bytes() const { return buckets_ * sizeof(Bucket); }

private:
    // An entry keeps the data word and the key XORed with it: a write torn between two threads
    // fails the check and reads as a miss (Hyatt and Mann's lockless hashing), so no lock is needed
    // and a race can cost a hit but never return another position's data.
    struct Entry {
        std::atomic<std::uint64_t> check{0}, data{0};
    };
    static constexpr int kWays = 4;
    struct alignas(64) Bucket {
        Entry e[kWays];
    };
    static constexpr std::uint8_t kGenerationMask = 63;

    static std::uint64_t pack(const TableData& d, std::uint8_t generation);
    static TableData unpack(std::uint64_t w);
    static std::uint8_t generation_of(std::uint64_t w) { return std::uint8_t(w >> 58); }

    Bucket& bucket(std::uint64_t key) const {
        // The high half of the key picks the bucket; the whole key is checked in the entry.
        return table_[(std::uint64_t(std::uint32_t(key >> 32)) * buckets_) >> 32];
    }

    // The buckets live in memory from allocate_table.
    std::unique_ptr<Bucket[], FreeTable> table_;
    std::size_t buckets_ = 0;
    std::uint8_t generation_ = 0;
};

// Probing and storing are inline: the search does one of each at almost every node.

// Layout of the data word: move 16 bits, score 16, eval 16, depth 8, bound 2, generation 6.
inline std::uint64_t TranspositionTable::pack(const TableData& d, std::uint8_t generation) {
    return std::uint64_t(d.move) | std::uint64_t(std::uint16_t(d.score)) << 16 |
           std::uint64_t(std::uint16_t(d.eval)) << 32 | std::uint64_t(d.depth) << 48 |
           std::uint64_t(d.bound) << 56 | std::uint64_t(generation) << 58;
}

inline TableData TranspositionTable::unpack(std::uint64_t w) {
    TableData d;
    d.move = std::uint16_t(w);
    d.score = std::int16_t(std::uint16_t(w >> 16));
    d.eval = std::int16_t(std::uint16_t(w >> 32));
    d.depth = std::uint8_t(w >> 48);
    d.bound = Bound((w >> 56) & 3);
    return d;
}

inline bool TranspositionTable::probe(std::uint64_t key, TableData& out) const {
    const Bucket& b = bucket(key);
    for (const Entry& e : b.e) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        if ((e.check.load(std::memory_order_relaxed) ^ data) != key || data == 0) continue;
        out = unpack(data);
        return true;
    }
    return false;
}

inline void TranspositionTable::store(std::uint64_t key, const TableData& d) {
    Bucket& b = bucket(key);
    Entry* victim = nullptr;
    int victim_worth = 1 << 30;
    for (Entry& e : b.e) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        if (data == 0 || (e.check.load(std::memory_order_relaxed) ^ data) == key) {
            if (data != 0) {
                // Same position: keep a deeper result unless the new one is exact, and keep the
                // old move when the new search found none.
                const TableData old = unpack(data);
                if (d.bound != Bound::kExact && d.depth + 3 < old.depth &&
                    generation_of(data) == generation_)
                    return;
                if (d.move == 0 && old.move != 0) {
                    TableData merged = d;
                    merged.move = old.move;
                    const std::uint64_t w = pack(merged, generation_);
                    e.data.store(w, std::memory_order_relaxed);
                    e.check.store(key ^ w, std::memory_order_relaxed);
                    return;
                }
            }
            victim = &e;
            break;
        }
        // Depth-and-age replacement: an entry loses 8 plies of worth per search it has aged.
        const int age = (generation_ - generation_of(data)) & kGenerationMask;
        const int worth = int(unpack(data).depth) - 8 * age;
        if (worth < victim_worth) {
            victim_worth = worth;
            victim = &e;
        }
    }
    const std::uint64_t w = pack(d, generation_);
    victim->data.store(w, std::memory_order_relaxed);
    victim->check.store(key ^ w, std::memory_order_relaxed);
}

}  // namespace dambit::search
