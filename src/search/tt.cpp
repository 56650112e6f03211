// The transposition table: packing, probing and the depth-and-age replacement rule.
#include "search/tt.hpp"

#include <algorithm>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dambit::search {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}

TranspositionTable::TranspositionTable(std::size_t megabytes) {
    resize(megabytes);
}

void TranspositionTable::resize(std::size_t megabytes) {
    const std::size_t bytes = megabytes * (std::size_t(1) << 20);
    // The bucket index is computed from 32 bits of the key: cap the count there.
    buckets_ = std::clamp<std::size_t>(bytes / sizeof(Bucket), 1, std::size_t(1) << 32);
    table_.reset();
    // Huge pages are 2 MB on x86-64 Linux; smaller tables stay on ordinary pages.
    constexpr std::size_t kHugePage = std::size_t(2) << 20;
    const std::size_t size = buckets_ * sizeof(Bucket);
    const std::size_t align = size >= kHugePage ? kHugePage : alignof(Bucket);
    void* memory = std::aligned_alloc(align, (size + align - 1) / align * align);
    if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (align == kHugePage) madvise(memory, size, MADV_HUGEPAGE);
#endif
    table_.reset(static_cast<Bucket*>(memory));
    clear();
}

void TranspositionTable::clear() {
    // Buckets are trivially destructible: constructing them anew ends the old entries (and
    // compiles to a plain fill of zeros).
    std::uninitialized_value_construct_n(table_.get(), buckets_);
    generation_ = 0;
}

// Layout of the data word: move 16 bits, score 16, eval 16, depth 8, bound 2, generation 6.
std::uint64_t TranspositionTable::pack(const TableData& d, std::uint8_t generation) {
    return std::uint64_t(d.move) | std::uint64_t(std::uint16_t(d.score)) << 16 |
           std::uint64_t(std::uint16_t(d.eval)) << 32 | std::uint64_t(d.depth) << 48 |
           std::uint64_t(d.bound) << 56 | std::uint64_t(generation) << 58;
}

TableData TranspositionTable::unpack(std::uint64_t w) {
    TableData d;
    d.move = std::uint16_t(w);
    d.score = std::int16_t(std::uint16_t(w >> 16));
    d.eval = std::int16_t(std::uint16_t(w >> 32));
    d.depth = std::uint8_t(w >> 48);
    d.bound = Bound((w >> 56) & 3);
    return d;
}

bool TranspositionTable::probe(std::uint64_t key, TableData& out) const {
    const Bucket& b = bucket(key);
    for (const Entry& e : b.e) {
        const std::uint64_t data = e.data.load(kRelaxed);
        if ((e.check.load(kRelaxed) ^ data) != key || data == 0) continue;
        out = unpack(data);
        return true;
    }
    return false;
}

void TranspositionTable::store(std::uint64_t key, const TableData& d) {
    Bucket& b = bucket(key);
    Entry* victim = nullptr;
    int victim_worth = 1 << 30;
    for (Entry& e : b.e) {
        const std::uint64_t data = e.data.load(kRelaxed);
        if (data == 0 || (e.check.load(kRelaxed) ^ data) == key) {
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
                    e.data.store(w, kRelaxed);
                    e.check.store(key ^ w, kRelaxed);
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
    victim->data.store(w, kRelaxed);
    victim->check.store(key ^ w, kRelaxed);
}

int TranspositionTable::permille_full() const {
    const std::size_t sample = std::min<std::size_t>(buckets_, 250);
    int used = 0;
    for (std::size_t i = 0; i < sample; ++i)
        for (const Entry& e : table_[i].e) {
            const std::uint64_t data = e.data.load(kRelaxed);
            used += data != 0 && generation_of(data) == generation_;
        }
    return int(used * 1000 / (sample * kWays));
}

}  // namespace dambit::search
