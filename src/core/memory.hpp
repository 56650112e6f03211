// The machine's memory, for sizes users give (tables of --hash, caches): one that cannot be
// allocated is refused by name before any work, not left to fail in the allocation.
#pragma once

#include <cstdint>

#include <sys/sysinfo.h>

namespace dambit {

// The machine's memory and swap in MB, or 0 when the system does not say.
inline std::int64_t memory_and_swap_megabytes() {
    struct sysinfo si {};
    if (::sysinfo(&si) != 0) return 0;
    return std::int64_t((std::uint64_t(si.totalram) + si.totalswap) * si.mem_unit >> 20);
}

}  // namespace dambit
