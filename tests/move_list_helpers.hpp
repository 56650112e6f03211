// Move lists as sorted text, so that tests can compare the generator with hand-written lists.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.hpp"
#include "core/notation.hpp"

namespace dambit::test {

inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// The long-notation text (move_text<R>) of every legal move of `p` under convention D, sorted.
template <class R, Duplicates D = Duplicates::kDrop>
std::vector<std::string> move_texts(const Position<R>& p) {
    FixedList<PathMove<typename R::Geometry>, kMaxMoves> list;
    generate_paths<R, D>(p, list);
    std::vector<std::string> out;
    out.reserve(std::size_t(list.size()));
    for (const auto& pm : list) out.push_back(move_text<R>(pm));
    return sorted(std::move(out));
}

template <class R, Duplicates D = Duplicates::kDrop>
std::vector<std::string> move_texts(std::string_view fen) {
    return move_texts<R, D>(parse_fen<R>(fen));
}

// The legal move of `p` whose long text is `text`; fails the calling test when there is none.
template <class R, Duplicates D = Duplicates::kDrop>
PathMove<typename R::Geometry> find_move(const Position<R>& p, std::string_view text) {
    FixedList<PathMove<typename R::Geometry>, kMaxMoves> list;
    generate_paths<R, D>(p, list);
    for (const auto& pm : list)
        if (move_text<R>(pm) == text) return pm;
    throw std::runtime_error("no legal move '" + std::string(text) + "'");
}

}  // namespace dambit::test
