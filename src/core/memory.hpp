// The machine's memory, for sizes users give (tables of --hash, caches): one that cannot be
// allocated is refused by name before any work, not left to fail in the allocation or to the
// kernel's out-of-memory killer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

namespace dambit {

namespace memory_detail {

// The number after "KEY:" in a /proc file of such lines (/proc/meminfo, /proc/self/status: kB),
// or -1.
inline std::int64_t proc_kb(const char* path, const std::string& key) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.starts_with(key + ":")) {
            try {
                return std::stoll(line.substr(key.size() + 1));
            } catch (...) {
                return -1;
            }
        }
    return -1;
}
inline std::int64_t meminfo_kb(const std::string& key) { return proc_kb("/proc/meminfo", key); }

// The value of `key` in a cgroup's memory.stat (bytes), or 0.
inline std::int64_t stat_value(const std::string& path, const std::string& key) {
    std::ifstream in(path);
    std::string name;
    std::int64_t value = 0;
    while (in >> name >> value)
        if (name == key) return value;
    return 0;
}

// The number in a cgroup file, or -1 for none, "max" or a v1 "no limit" (a number near 2^63).
inline std::int64_t cgroup_number(const std::string& path) {
    std::ifstream in(path);
    std::string s;
    if (!(in >> s) || s == "max") return -1;
    try {
        const std::int64_t n = std::stoll(s);
        return n < (std::int64_t(1) << 60) ? n : -1;
    } catch (...) {
        return -1;
    }
}

// Calls f(limit, use) for each memory cgroup level of this process that has a limit: its own
// cgroup and every parent up to the hierarchy's root, since a parent's limit binds its children
// too (cgroup v2 and v1, found through /proc/self/cgroup; in a container that does not see its
// own path the mount's root is its cgroup). The use leaves out the inactive page cache, which the
// kernel takes back before it fails.
template <class F>
void for_each_cgroup_limit(F f) {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        const auto a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
        const bool v2 = controllers == ",,";
        if (!v2 && controllers.find(",memory,") == std::string::npos) continue;
        const std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
        std::string path = line.substr(b + 1);
        for (;;) {
            const std::string dir = root + (path == "/" ? "" : path) + "/";
            const std::int64_t limit = cgroup_number(dir + (v2 ? "memory.max" : "memory.limit_in_bytes"));
            const std::int64_t use = cgroup_number(dir + (v2 ? "memory.current" : "memory.usage_in_bytes"));
            if (limit > 0 && use >= 0)
                f(limit, std::max<std::int64_t>(
                             0, use - stat_value(dir + "memory.stat",
                                                 v2 ? "inactive_file" : "total_inactive_file")));
            const auto slash = path.rfind('/');
            if (path.empty() || path == "/" || slash == std::string::npos) break;
            path.erase(slash);
        }
    }
}

// The least room (limit less use) of this process's cgroup levels in bytes, or -1 without a
// limit.
inline std::int64_t cgroup_room() {
    std::int64_t room = -1;
    for_each_cgroup_limit([&](std::int64_t limit, std::int64_t use) {
        const std::int64_t r = std::max<std::int64_t>(0, limit - use);
        room = room < 0 ? r : std::min(room, r);
    });
    return room;
}

// The lowest memory limit of this process's cgroup levels in bytes, or -1 without one.
inline std::int64_t cgroup_limit() {
    std::int64_t lowest = -1;
    for_each_cgroup_limit([&](std::int64_t limit, std::int64_t) {
        lowest = lowest < 0 ? limit : std::min(lowest, limit);
    });
    return lowest;
}

}  // namespace memory_detail

// The address space this process may still take under its limit (ulimit -v, RLIMIT_AS), in
// MB: the limit less what it holds now (VmSize) and 64 MB for the stacks of its threads (8 MB
// each) and its own allocations; -1 without a limit.
inline std::int64_t address_space_left_megabytes() {
    struct rlimit as {};
    if (::getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) return -1;
    const std::int64_t held_kb = memory_detail::proc_kb("/proc/self/status", "VmSize");
    const std::int64_t limit_kb = std::int64_t(as.rlim_cur >> 10);
    return std::max<std::int64_t>(0, (limit_kb - std::max<std::int64_t>(0, held_kb)) / 1024 - 64);
}

// The memory this process may ever hold, in MB: the machine's RAM, or the container's limit or
// the address space left under its own limit (ulimit -v) when lower. For the default of a job's own cap (egtb --memory), where what is free now is not
// the point.
inline std::int64_t memory_limit_megabytes() {
    std::int64_t bytes = std::int64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
    if (const std::int64_t limit = memory_detail::cgroup_limit(); limit > 0 && (bytes <= 0 || limit < bytes))
        bytes = limit;
    const std::int64_t left = address_space_left_megabytes();  // ulimit -v, when lower
    return left >= 0 ? std::min(bytes >> 20, left) : bytes >> 20;
}

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
// and swap available on this machine", or, when the process's own limit of address space is
// lower, "more than the N MB of address space left under this process's limit (ulimit -v)"
// (with ", for the K tables this run makes" for more than one), or empty when they fit or the
// system does not say.
inline std::string beyond_memory(std::int64_t mb, std::int64_t copies = 1) {
    const std::int64_t machine = memory_and_swap_megabytes();
    const std::int64_t left = address_space_left_megabytes();
    const bool by_limit = left >= 0 && (machine < 0 || left < machine);
    const std::int64_t total = by_limit ? left : machine;
    if (total < 0 || mb * copies <= total) return {};
    std::string why = "more than the " + std::to_string(total) +
                      (by_limit ? " MB of address space left under this process's limit (ulimit -v)"
                                : " MB of memory and swap available on this machine");
    if (copies > 1) why += ", for the " + std::to_string(copies) + " tables this run makes";
    return why;
}

}  // namespace dambit
