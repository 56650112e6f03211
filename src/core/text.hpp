// Small text helpers for messages, shared by the library and the command-line front ends.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

// What differs between two settings texts, each a list of items "key=value" (or a bare word)
// separated by commas or blanks, as files record the settings that made them: each item of `then`
// that `now` lacks or gives another value, then each new one, as "games=1, now games=2",
// "ballots=x, now none", "none, now depth=5", joined by "; ". When they hold the same items (in
// another order), `then` itself.
inline std::string settings_change(std::string_view then, std::string_view now) {
    struct Item {
        std::string_view key, text;
    };
    const auto items = [](std::string_view s) {
        std::vector<Item> out;
        for (std::size_t at = 0; at < s.size();) {
            const std::size_t end = std::min(s.find_first_of(", ", at), s.size());
            const std::string_view text = s.substr(at, end - at);
            if (!text.empty()) out.push_back({text.substr(0, text.find('=')), text});
            at = end + 1;
        }
        return out;
    };
    const auto find = [](const std::vector<Item>& list, std::string_view key) -> const Item* {
        for (const auto& i : list)
            if (i.key == key) return &i;
        return nullptr;
    };
    const auto a = items(then), b = items(now);
    std::string out;
    const auto add = [&](std::string_view was, std::string_view is) {
        out += (out.empty() ? "" : "; ") + std::string(was) + ", now " + std::string(is);
    };
    for (const auto& i : a) {
        const Item* j = find(b, i.key);
        if (!j) add(i.text, "none");
        else if (j->text != i.text) add(i.text, j->text);
    }
    for (const auto& j : b)
        if (!find(a, j.key)) add("none", j.text);
    return out.empty() ? std::string(then) : out;
}

// Why the header of a job's journal `part`, with settings `then`, is not the one this run would
// write with settings `now`: other settings, named; or, when its settings read as the ones given,
// damage elsewhere in the header (a flipped byte of its padding read as "other settings" that
// were the same, and giving them could not help).
inline std::string part_header_mismatch(const std::string& part, std::string_view then,
                                        std::string_view now) {
    if (then == now)
        return "'" + part + "' has a damaged header (its settings read as the ones given, " +
               std::string(now) + ", but other bytes of it differ); remove it to start again";
    return "'" + part + "' was begun with other settings (" + settings_change(then, now) +
           "); remove it or give them";
}

}  // namespace dambit
