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

// The candidate nearest `word` for a "did you mean" in a message: the one fewest single-character
// edits away (insertions, deletions, substitutions, and swaps of two neighbours: `--varaint`),
// when that is at most a third of the word's length (at least 1); a candidate `word` is the start
// of counts as near too (`--dep` for `--depth`) when it is the only one. Empty when none is near.
inline std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates) {
    const auto distance = [](std::string_view a, std::string_view b) {
        std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
        for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
        for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i)
            for (std::size_t j = 1; j <= b.size(); ++j) {
                d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                    d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                    d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        return d[a.size()][b.size()];
    };
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
    bool tie = false;
    for (const std::string& c : candidates) {
        const std::size_t e = distance(word, c);
        if (e < best_distance) {
            best = c;
            best_distance = e;
            tie = false;
        } else if (e == best_distance && c != best) {
            tie = true;
        }
    }
    if (!best.empty() && !tie) return best;
    std::string prefixed;
    if (word.size() >= 2)
        for (const std::string& c : candidates)
            if (c.starts_with(word)) {
                if (!prefixed.empty()) return {};
                prefixed = c;
            }
    return prefixed;
}

// A note on the first character of `token` that is not ASCII, for a message that refuses the
// token: a Cyrillic letter typed for its Latin twin on a Russian keyboard (`с3`, `d4хf6`, `Кa1`)
// reads as the right text in the message. " (its 'с' is U+0441, a Cyrillic letter, not a Latin
// one)"; a byte that is no UTF-8 is named by its value; empty when the token is all ASCII.
inline std::string non_ascii_note(std::string_view token) {
    std::size_t i = 0;
    while (i < token.size() && static_cast<unsigned char>(token[i]) < 0x80) ++i;
    if (i == token.size()) return "";
    const std::size_t n = utf8_sequence(token.substr(i));
    static constexpr char kHex[] = "0123456789ABCDEF";
    const auto hex = [](std::uint32_t v, int digits) {
        std::string out;
        for (int d = digits - 1; d >= 0; --d) out += kHex[(v >> (4 * d)) & 0xf];
        return out;
    };
    if (n == 0)
        return " (its byte 0x" + hex(static_cast<unsigned char>(token[i]), 2) +
               " is not ASCII, nor UTF-8)";
    std::uint32_t cp = static_cast<unsigned char>(token[i]) & (0xff >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(token[i + k]) & 0x3f);
    const char* kind = cp >= 0x400 && cp <= 0x4ff   ? ", a Cyrillic letter, not a Latin one"
                       : cp >= 0x370 && cp <= 0x3ff ? ", a Greek letter, not a Latin one"
                                                    : ", not ASCII";
    return " (its '" + std::string(token.substr(i, n)) + "' is U+" + hex(cp, cp > 0xffff ? 6 : 4) +
           kind + ")";
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
