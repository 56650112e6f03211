// The journal of a match that writes its games in PDN (match --pgn FILE): FILE.journal, beside
// the games in the making (FILE.tmp), so that an interrupted match resumes where it stopped.
//
// Text, one record a line, appended to after each game pair is written to FILE.tmp:
//   dambit match journal 1
//   settings KEY=VALUE,KEY=VALUE,...            (what decides the games; a resume must match it)
//   pair N END DIGEST A... B...                  (one line per game pair, in opening order)
// END is the length of FILE.tmp after the pair's two games, DIGEST the XXH64 of those games'
// bytes (hexadecimal), and A... and B... what each side spent on them: nodes, moves, finished
// iterations summed over the moves, then the moves timed, their milliseconds and the longest.
// A pair line is written after its games, so FILE.tmp may hold games past the last line (a match
// killed in between): a resume cuts them off and plays them again.
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "play/match.hpp"

namespace dambit::play {

// What one side spent over some games: the engine's statistics (empty for another program) and
// the wall time of its moves as the harness timed them.
struct SideSpent {
    PlayerStats stats;
    MoveTimes times;
    void add(const SideSpent& o) {
        stats += o.stats;
        times.add(o.times);
    }
};

struct PairEntry {
    std::size_t number = 0;   // the opening's number, from 1
    std::uint64_t end = 0;    // FILE.tmp's length after this pair's games
    std::uint64_t digest = 0;  // XXH64 of those games' bytes
    std::array<SideSpent, 2> sides;  // A, B
};

inline constexpr std::string_view kJournalMagic = "dambit match journal 1";

inline std::string journal_head(std::string_view settings) {
    return fmt::format("{}\nsettings {}\n", kJournalMagic, settings);
}

inline std::string pair_line(const PairEntry& e) {
    std::string s = fmt::format("pair {} {} {:016x}", e.number, e.end, e.digest);
    for (const SideSpent& side : e.sides)
        s += fmt::format(" {} {} {} {} {} {}", side.stats.nodes, side.stats.moves,
                         side.stats.depth_sum, side.times.moves, side.times.total_ms,
                         side.times.longest_ms);
    return s + "\n";
}

struct Journal {
    std::string settings;
    std::vector<PairEntry> pairs;  // numbered 1, 2, ... in order
    std::uint64_t good_bytes = 0;  // the length of the journal up to the last pair read
};

// Reads a journal: nothing when `text` does not begin with a journal's two lines; otherwise its
// settings and the pair lines up to the first that is cut short (no line end: a match killed
// while writing it), malformed or out of order.
inline std::optional<Journal> parse_journal(std::string_view text) {
    const auto line_at = [&](std::size_t& at) -> std::optional<std::string_view> {
        const std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) return std::nullopt;
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        return line;
    };
    std::size_t at = 0;
    const auto magic = line_at(at), settings = line_at(at);
    constexpr std::string_view kSettings = "settings ";
    if (!magic || *magic != kJournalMagic || !settings || !settings->starts_with(kSettings))
        return std::nullopt;
    Journal j;
    j.settings = std::string(settings->substr(kSettings.size()));
    j.good_bytes = at;
    while (const auto line = line_at(at)) {
        // "pair", then 3 + 2 * 6 numbers, one space before each.
        std::string_view rest = *line;
        if (!rest.starts_with("pair ")) break;
        rest.remove_prefix(5);
        std::array<std::uint64_t, 15> v{};
        bool ok = true;
        for (std::size_t k = 0; k < v.size() && ok; ++k) {
            const int base = k == 2 ? 16 : 10;
            const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v[k], base);
            ok = ec == std::errc() && p != rest.data();
            rest.remove_prefix(std::size_t(p - rest.data()));
            if (ok && k + 1 < v.size()) ok = rest.starts_with(' ') && (rest.remove_prefix(1), true);
        }
        if (!ok || !rest.empty() || v[0] != j.pairs.size() + 1 ||
            (!j.pairs.empty() && v[1] <= j.pairs.back().end))
            break;
        PairEntry e;
        e.number = std::size_t(v[0]);
        e.end = v[1];
        e.digest = v[2];
        for (std::size_t s = 0; s < 2; ++s) {
            const std::uint64_t* f = &v[3 + 6 * s];
            e.sides[s].stats = {f[0], int(f[1]), int(f[2])};
            e.sides[s].times.moves = std::int64_t(f[3]);
            e.sides[s].times.total_ms = std::int64_t(f[4]);
            e.sides[s].times.longest_ms = std::int64_t(f[5]);
        }
        j.pairs.push_back(e);
        j.good_bytes = at;
    }
    return j;
}

// A value in the settings line with the characters that separate its items (',' and ' ') and
// '%' itself written %2C, %20 and %25, so that settings_change (core/text.hpp) names it whole.
inline std::string journal_value(std::string_view v) {
    std::string out;
    for (const char c : v) {
        if (c == '%')
            out += "%25";
        else if (c == ',')
            out += "%2C";
        else if (c == ' ')
            out += "%20";
        else if (c == '\n' || c == '\r')
            out += "%0A";
        else
            out += c;
    }
    return out;
}

}  // namespace dambit::play
