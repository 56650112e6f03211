// The transposition table: packing, probing and the depth-and-age replacement rule.
#include "search/tt.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
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
    const std::size_t size = buckets_ * sizeof(Bucket);
    // Zero bytes are empty buckets (what clear() makes): a new table needs no clearing.
    table_ = std::unique_ptr<Bucket[], FreeTable>(
        static_cast<Bucket*>(allocate_table(size, alignof(Bucket))), FreeTable{size});
    generation_ = 0;
}

namespace {
// Huge pages are 2 MB on x86-64 Linux; smaller tables stay on ordinary pages.
constexpr std::size_t kHugePage = std::size_t(2) << 20;
bool mapped(std::size_t bytes) {
#if defined(__linux__)
    return bytes >= kHugePage;
#else
    (void)bytes;
    return false;
#endif
}
std::size_t rounded(std::size_t bytes, std::size_t align) { return (bytes + align - 1) / align * align; }
}  // namespace

void* allocate_table(std::size_t bytes, std::size_t align) {
#if defined(__linux__)
    if (mapped(bytes)) {
        // Mapped with a huge page to spare, then trimmed to a 2 MB boundary at both ends.
        const std::size_t size = rounded(bytes, kHugePage);
        void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) throw std::bad_alloc();
        const auto start = reinterpret_cast<std::uintptr_t>(raw);
        const std::uintptr_t aligned = rounded(start, kHugePage);
        if (aligned > start) munmap(raw, aligned - start);
        if (const std::size_t tail = start + size + kHugePage - (aligned + size); tail > 0)
            munmap(reinterpret_cast<void*>(aligned + size), tail);
        void* memory = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
        madvise(memory, size, MADV_HUGEPAGE);
#endif
        return memory;
    }
#endif
    const std::size_t size = rounded(bytes, align);
    void* memory = std::aligned_alloc(align, size);
    if (!memory) throw std::bad_alloc();
    std::memset(memory, 0, size);
    return memory;
}

void free_table(void* p, std::size_t bytes) {
    if (!p) return;
#if defined(__linux__)
    if (mapped(bytes)) {
        munmap(p, rounded(bytes, kHugePage));
        return;
    }
#endif
    std::free(p);
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
