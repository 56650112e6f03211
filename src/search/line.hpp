// A line of moves (a principal variation, a solution) as move text in the variant's notation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/notation.hpp"

namespace dambit::search {

// The path form of the legal move `m` of `p` (the first generated, when duplicate paths take the
// same pieces), or nothing when `m` is not legal in `p`.
template <class R>
std::optional<PathMove<typename R::Geometry>> path_of(const Position<R>& p,
                                                      const Move<typename R::Geometry>& m) {
    FixedList<PathMove<typename R::Geometry>, kMaxMoves> list;
    generate_paths<R>(p, list);
    for (const auto& pm : list)
        if (pm.move == m) return pm;
    return std::nullopt;
}

// The path form of each move of `line`, played from `p`. Stops at the first move that is not legal
// (which never happens for a line the search returned).
template <class R>
std::vector<PathMove<typename R::Geometry>> line_paths(
    Position<R> p, const std::vector<Move<typename R::Geometry>>& line) {
    std::vector<PathMove<typename R::Geometry>> out;
    for (const auto& m : line) {
        const auto pm = path_of<R>(p, m);
        if (!pm) break;
        out.push_back(*pm);
        p = p.play(m);
    }
    return out;
}

// Long move text of each move of `line`, played from `p` (as far as line_paths goes).
template <class R>
std::vector<std::string> line_text(const Position<R>& p,
                                   const std::vector<Move<typename R::Geometry>>& line) {
    std::vector<std::string> out;
    for (const auto& pm : line_paths<R>(p, line)) out.push_back(move_text<R>(pm));
    return out;
}

template <class R>
std::string join_line(const Position<R>& p, const std::vector<Move<typename R::Geometry>>& line) {
    std::string s;
    for (const auto& t : line_text<R>(p, line)) s += (s.empty() ? "" : " ") + t;
    return s;
}

}  // namespace dambit::search
