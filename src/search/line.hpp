// A line of moves (a principal variation, a solution) as move text in the variant's notation.
#pragma once

#include <string>
#include <vector>

#include "core/notation.hpp"

namespace dambit::search {

// Long move text of each move of `line`, played from `p`. Stops at the first move that is not legal
// (which never happens for a line the search returned).
template <class R>
std::vector<std::string> line_text(Position<R> p,
                                   const std::vector<Move<typename R::Geometry>>& line) {
    using G = typename R::Geometry;
    std::vector<std::string> out;
    FixedList<PathMove<G>, kMaxMoves> list;
    for (const Move<G>& m : line) {
        generate_paths<R>(p, list);
        const PathMove<G>* found = nullptr;
        for (const auto& pm : list)
            if (pm.move == m) {
                found = &pm;
                break;
            }
        if (!found) break;
        out.push_back(move_text<R>(*found));
        p = p.play(m);
    }
    return out;
}

template <class R>
std::string join_line(const Position<R>& p, const std::vector<Move<typename R::Geometry>>& line) {
    std::string s;
    for (const auto& t : line_text<R>(p, line)) s += (s.empty() ? "" : " ") + t;
    return s;
}

}  // namespace dambit::search
