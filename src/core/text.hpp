// Small text helpers for messages, shared by the library and the command-line front ends.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dambit {

// A count and its noun, singular for 1: count_text(1, "file", "files") is "1 file",
// count_text(0, "file", "files") "0 files".
inline std::string count_text(std::uint64_t n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace dambit
