// Opening ballots: the official tournament openings of a variant, or a file of the same form.
//
// The form: one opening per line, `name<TAB>FEN`; blank lines and lines starting with '#' are
// skipped. The ballots of the variants that have them are compiled into the program from
// src/play/ballots/*.txt (each file's header cites its source and licence).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "play/match.hpp"

namespace dambit::play {

// The names of the compiled-in ballot sets: "russian", "brazilian" (each the name of the variant
// it is for), "russian-3move" (the 150 three-move ballots, for Russian and Brazilian) and
// "english-3move" (the ACF three-move deck of 156 openings, for English).
std::vector<std::string> ballot_names();
// Whether the ballot set `name` is for `variant`.
bool ballots_fit(std::string_view name, std::string_view variant);
// The text of a compiled-in ballot set; empty for an unknown name.
std::optional<std::string_view> ballot_text(std::string_view name);

// The number of moves at the end of `name` (words separated by spaces) that lead from the
// variant's start position to `p`, each legal in turn, in any notation parse_move reads; nothing
// when no run of its last words does (a name without moves, a ballot whose pieces were moved).
template <class R>
std::optional<int> plies_named(std::string_view name, const Position<R>& p) {
    std::vector<std::string_view> words;
    for (const auto w : notation_detail::split(name, ' '))
        if (!notation_detail::trim(w).empty()) words.push_back(notation_detail::trim(w));
    for (std::size_t first = 0; first <= words.size(); ++first) {
        Position<R> at = Position<R>::start();
        bool legal = true;
        for (std::size_t i = first; i < words.size() && legal; ++i) {
            try {
                at = at.play(parse_move<R>(at, words[i]).move);
            } catch (const ParseError&) {
                legal = false;
            }
        }
        if (legal && at == p) return int(words.size() - first);
    }
    return std::nullopt;
}

// Reads the openings of a ballot text; `source` names it in messages. Throws ParseError naming
// the line: a line without a tab, an empty name, a bad FEN, or a position whose side to move has
// no legal move.
template <class R>
std::vector<Opening<R>> parse_openings(std::string_view text, const std::string& source) {
    using G = typename R::Geometry;
    std::vector<Opening<R>> out;
    int number = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t end = text.find('\n', i);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(i, end - i);
        i = end + 1;
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (notation_detail::trim(line).empty() || line.front() == '#') continue;
        const auto tab = line.find('\t');
        if (tab == std::string_view::npos)
            throw ParseError(fmt::format("{} line {}: no tab between the name and the FEN", source,
                                         number));
        const std::string name(notation_detail::trim(line.substr(0, tab)));
        if (name.empty()) throw ParseError(fmt::format("{} line {}: empty name", source, number));
        Position<R> p;
        try {
            p = parse_fen<R>(notation_detail::trim(line.substr(tab + 1)));
        } catch (const ParseError& e) {
            throw ParseError(fmt::format("{} line {} ({}): {}", source, number, name, e.what()));
        }
        FixedList<PathMove<G>, kMaxMoves> legal;
        generate_paths<R>(p, legal);
        if (legal.empty())
            throw ParseError(fmt::format("{} line {} ({}): the side to move has no legal move",
                                         source, number, name));
        // The move number: the FEN's own F field, else the one after the moves the name ends
        // with when they lead from the start position to this one ("1-I cd4 ba5 dc5": 2).
        const std::string_view fen = line.substr(tab + 1);
        int first_number = fen_move_number(fen);
        if (!notation_detail::fen_counter(fen, 'F'))
            if (const auto plies = plies_named<R>(name, p)) first_number = move_number_after(*plies);
        out.push_back({p, name, first_number});
    }
    return out;
}

}  // namespace dambit::play
