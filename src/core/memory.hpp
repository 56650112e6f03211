// The machine's memory, for sizes users give (tables of --hash, caches): one that cannot be
// allocated is refused by name before any work, not left to fail in the allocation.
#pragma once

#include <cstdint>
#include <string>

#include <sys/sysinfo.h>

namespace dambit {

// The machine's memory and swap in MB, or 0 when the system does not say.
inline std::int64_t memory_and_swap_megabytes() {
    struct sysinfo si {};
    if (::sysinfo(&si) != 0) return 0;
    return std::int64_t((std::uint64_t(si.totalram) + si.totalswap) * si.mem_unit >> 20);
}

// Why `copies` tables of `mb` MB each cannot be allocated here: "more than the N MB of memory
// and swap of this machine" (with ", for the K tables this run makes" for more than one), or
// empty when they fit or the system does not say.
inline std::string beyond_memory(std::int64_t mb, std::int64_t copies = 1) {
    const std::int64_t total = memory_and_swap_megabytes();
    if (total == 0 || mb * copies <= total) return {};
    std::string why = "more than the " + std::to_string(total) +
                      " MB of memory and swap of this machine";
    if (copies > 1) why += ", for the " + std::to_string(copies) + " tables this run makes";
    return why;
}

}  // namespace dambit
