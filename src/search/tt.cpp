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
    table_.reset(static_cast<Bucket*>(allocate_table(buckets_ * sizeof(Bucket), alignof(Bucket))));
    clear();
}

void* allocate_table(std::size_t bytes, std::size_t align) {
    // Huge pages are 2 MB on x86-64 Linux; smaller tables stay on ordinary pages.
    constexpr std::size_t kHugePage = std::size_t(2) << 20;
    if (bytes >= kHugePage) align = kHugePage;
    const std::size_t size = (bytes + align - 1) / align * align;
    void* memory = std::aligned_alloc(align, size);
    if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (align == kHugePage) madvise(memory, size, MADV_HUGEPAGE);
#endif
    return memory;
}

void TranspositionTable::clear() {
    // Buckets are trivially destructible: constructing them anew ends the old entries (and
    // compiles to a plain fill of zeros).
    std::uninitialized_value_construct_n(table_.get(), buckets_);
    generation_ = 0;
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
