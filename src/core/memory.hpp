// The machine's memory, for sizes users give (tables of --hash, caches): one that cannot be
// allocated is refused by name before any work, not left to fail in the allocation or to the
// kernel's out-of-memory killer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

#include <sys/sysinfo.h>

namespace dambit {

namespace memory_detail {

// The number after `key` in /proc/meminfo (kB), or -1.
inline std::int64_t meminfo_kb(const std::string& key) {
    std::ifstream in("/proc/meminfo");
    std::string name;
    std::int64_t kb = 0;
    std::string unit;
    while (in >> name >> kb) {
        std::getline(in, unit);
        if (name == key + ":") return kb;
    }
    return -1;
}

// The value of `key` in a cgroup's memory.stat (bytes), or 0.
inline std::int64_t stat_value(const char* path, const std::string& key) {
    std::ifstream in(path);
    std::string name;
    std::int64_t value = 0;
    while (in >> name >> value)
        if (name == key) return value;
    return 0;
}

// A cgroup's memory limit less its use, in bytes (cgroup v2, then v1), or -1 without a limit.
// The use leaves out the inactive page cache, which the kernel takes back before it fails.
inline std::int64_t cgroup_room() {
    const auto read = [](const char* path) -> std::int64_t {
        std::ifstream in(path);
        std::string s;
        if (!(in >> s) || s == "max") return -1;
        try {
            return std::stoll(s);
        } catch (...) {
            return -1;
        }
    };
    struct Files {
        const char *limit, *usage, *stat, *inactive;
    };
    for (const Files& f :
         {Files{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current",
                "/sys/fs/cgroup/memory.stat", "inactive_file"},
          Files{"/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "/sys/fs/cgroup/memory/memory.usage_in_bytes", "/sys/fs/cgroup/memory/memory.stat",
                "total_inactive_file"}}) {
        const std::int64_t l = read(f.limit), u = read(f.usage);
        // v1 writes "no limit" as a number near 2^63.
        if (l > 0 && u >= 0 && l < (std::int64_t(1) << 60))
            return std::max<std::int64_t>(0, l - std::max<std::int64_t>(0, u - stat_value(f.stat, f.inactive)));
    }
    return -1;
}

}  // namespace memory_detail

// The memory and swap this process can have now, in MB: what the kernel counts available
// (MemAvailable, which the page cache gives back, and free swap), within the container's
// limit when it has one; -1 when the system does not say.
inline std::int64_t memory_and_swap_megabytes() {
    std::int64_t mb = 0;
    const std::int64_t available = memory_detail::meminfo_kb("MemAvailable");
    if (available >= 0) {
        mb = (available + std::max<std::int64_t>(0, memory_detail::meminfo_kb("SwapFree"))) >> 10;
    } else {
        struct sysinfo si {};
        if (::sysinfo(&si) != 0) return -1;
        mb = std::int64_t((std::uint64_t(si.freeram) + si.bufferram + si.freeswap) * si.mem_unit >> 20);
    }
    if (const std::int64_t room = memory_detail::cgroup_room(); room >= 0)
        mb = std::min(mb, room >> 20);
    return mb;
}

// Why `copies` tables of `mb` MB each cannot be allocated here: "more than the N MB of memory
// and swap available on this machine" (with ", for the K tables this run makes" for more than
// one), or empty when they fit or the system does not say.
inline std::string beyond_memory(std::int64_t mb, std::int64_t copies = 1) {
    const std::int64_t total = memory_and_swap_megabytes();
    if (total < 0 || mb * copies <= total) return {};
    std::string why = "more than the " + std::to_string(total) +
                      " MB of memory and swap available on this machine";
    if (copies > 1) why += ", for the " + std::to_string(copies) + " tables this run makes";
    return why;
}

}  // namespace dambit
