// Endgame table slices: a material split (men and kings of each side), its name, the slices of a
// build and the order that their dependencies ask for.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <compare>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "core/text.hpp"

namespace dambit::egtb {

// The most pieces a table holds (egtb build --pieces; a slice's code has a digit a count).
inline constexpr int kMaxTablePieces = 8;

// The pieces of one slice. Tables hold White to move; Black to move in (wm,wk|bm,bk) is White to
// move in the colour-flipped slice (bm,bk|wm,wk) (the board turned half a round, colours swapped).
struct Material {
    int wm = 0, wk = 0, bm = 0, bk = 0;

    int pieces() const { return wm + wk + bm + bk; }
    int men() const { return wm + bm; }
    Material flipped() const { return {bm, bk, wm, wk}; }
    bool both_sides() const { return wm + wk > 0 && bm + bk > 0; }
    auto operator<=>(const Material&) const = default;

    // "1211": white men, white kings, black men, black kings (file names and messages).
    std::string code() const {
        return std::string{char('0' + wm), char('0' + wk), char('0' + bm), char('0' + bk)};
    }
    // "white 1 man 2 kings, black 1 man 1 king".
    std::string description() const {
        auto side = [](const char* name, int m, int k) {
            std::string s = name;
            if (m) s += " " + count_text(std::uint64_t(m), "man", "men");
            if (k) s += " " + count_text(std::uint64_t(k), "king", "kings");
            if (!m && !k) s += " nothing";
            return s;
        };
        return fmt::format("{}, {}", side("white", wm, wk), side("black", bm, bk));
    }
};

template <class R>
Material material_of(const Position<R>& p) {
    const auto men = ~p.kings;
    return {popcount(p.pieces[0] & men), popcount(p.pieces[0] & p.kings),
            popcount(p.pieces[1] & men), popcount(p.pieces[1] & p.kings)};
}

// Every slice with both sides present and 2..max_pieces pieces, in build order: fewer pieces
// first (a capture leads to fewer pieces), then fewer men (a promotion turns a man into a king
// and keeps the count), then by the material's code. A slice never depends on one after it.
inline std::vector<Material> slices_up_to(int max_pieces) {
    std::vector<Material> out;
    for (int n = 2; n <= max_pieces; ++n)
        for (int wm = 0; wm <= n; ++wm)
            for (int wk = 0; wm + wk <= n; ++wk)
                for (int bm = 0; wm + wk + bm <= n; ++bm) {
                    const Material m{wm, wk, bm, n - wm - wk - bm};
                    if (m.both_sides()) out.push_back(m);
                }
    std::stable_sort(out.begin(), out.end(), [](const Material& a, const Material& b) {
        if (a.pieces() != b.pieces()) return a.pieces() < b.pieces();
        if (a.men() != b.men()) return a.men() < b.men();
        return a < b;
    });
    return out;
}

// A build unit: a slice and its colour flip, built together because each one's positions are
// the other's successors. `second` equals `first` for a symmetric slice.
struct Unit {
    Material first, second;
    bool symmetric() const { return first == second; }
    int slices() const { return symmetric() ? 1 : 2; }  // the files it makes
    // "1211+1112", or "0202" for a symmetric slice (messages).
    std::string name() const {
        return symmetric() ? first.code() : fmt::format("{}+{}", first.code(), second.code());
    }
};

inline std::vector<Unit> units_up_to(int max_pieces) {
    std::vector<Unit> out;
    for (const Material& m : slices_up_to(max_pieces)) {
        const Material f = m.flipped();
        if (f < m) continue;  // built with its flip
        out.push_back({m, f});
    }
    return out;
}

// Every slice a move from the unit can lead to (a capture, a promotion), White to move: the
// slices the unit's values depend on.
inline std::vector<Material> dependencies(const Unit& u) {
    std::vector<Material> out;
    auto add = [&](const Material& m) {
        if (!m.both_sides() || m == u.first || m == u.second) return;
        if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    };
    for (const Material& m : {u.first, u.second}) {
        // White moves: Black loses c >= 0 pieces, a white man may be crowned; the result has
        // Black to move, stored as its flip.
        for (int bm = 0; bm <= m.bm; ++bm)
            for (int bk = 0; bk <= m.bk; ++bk)
                for (int crown = 0; crown <= std::min(1, m.wm); ++crown) {
                    const Material after{m.wm - crown, m.wk + crown, bm, bk};
                    if (!(after == m)) add(after.flipped());
                }
    }
    return out;
}

// The unit of slice m.
inline Unit unit_of(const Material& m) {
    const Material f = m.flipped();
    return f < m ? Unit{f, m} : Unit{m, f};
}

// The units slice m needs: its own and, transitively, those its moves lead to, in the order of
// `all`.
inline std::vector<Unit> units_needed_for(const Material& m, const std::vector<Unit>& all) {
    std::vector<Material> todo = {m}, seen;
    while (!todo.empty()) {
        const Material x = todo.back();
        todo.pop_back();
        const Unit u = unit_of(x);
        if (std::find(seen.begin(), seen.end(), u.first) != seen.end()) continue;
        seen.push_back(u.first);
        for (const Material& d : dependencies(u)) todo.push_back(d);
    }
    std::vector<Unit> out;
    for (const Unit& u : all)
        if (std::find(seen.begin(), seen.end(), u.first) != seen.end()) out.push_back(u);
    return out;
}

}  // namespace dambit::egtb
