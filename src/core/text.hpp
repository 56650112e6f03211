// Small text helpers for messages, shared by the library and the command-line front ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dambit {

// A count and its noun, singular for 1: count_text(1, "file", "files") is "1 file",
// count_text(0, "file", "files") "0 files".
inline std::string count_text(std::uint64_t n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 if it does not start with one.
inline std::size_t utf8_sequence(std::string_view s) {
    if (s.empty()) return 0;
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char c = b(0);
    const std::size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                                     : c >= 0xf0 && c <= 0xf4   ? 4
                                                                : 0;
    if (n == 0 || n > s.size()) return 0;
    for (std::size_t i = 1; i < n; ++i)
        if ((b(i) & 0xc0) != 0x80) return 0;
    if (n == 3 && ((c == 0xe0 && b(1) < 0xa0) || (c == 0xed && b(1) > 0x9f))) return 0;
    if (n == 4 && ((c == 0xf0 && b(1) < 0x90) || (c == 0xf4 && b(1) > 0x8f))) return 0;
    return n;
}

}  // namespace dambit
