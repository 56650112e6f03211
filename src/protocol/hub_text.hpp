// The Hub protocol's text: command lines, position strings and moves (Scan's protocol.txt,
// version 2, and the 8x8 dialect of pydraughts; README "Hub and DXP").
//
// Every reader throws ParseError with a one-line message naming the offending token.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "core/variant.hpp"

namespace dambit::hub {

// One line: a command and its arguments, `name=value`, `name="quoted value"` or a bare flag (an
// empty value).
struct Line {
    std::string command;
    std::vector<std::pair<std::string, std::string>> args;

    const std::string* get(std::string_view name) const {
        for (const auto& [n, v] : args)
            if (n == name) return &v;
        return nullptr;
    }
    bool has(std::string_view name) const { return get(name) != nullptr; }
};

// Lines longer than this are refused whole (a protocol line is a few hundred characters at most;
// a position with 200 moves of history stays far below).
inline constexpr std::size_t kMaxLine = 1 << 16;

// Parses `<command> <arg>=<val> ...`. Throws ParseError on an unterminated quote, an argument
// with an empty name, or a control character.
inline Line parse_line(std::string_view text) {
    Line line;
    std::size_t i = 0;
    const std::size_t n = text.size();
    if (n > kMaxLine) throw ParseError("line too long (" + std::to_string(n) + " characters)");
    auto space = [&](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    auto skip = [&] {
        while (i < n && space(text[i])) ++i;
    };
    for (std::size_t k = 0; k < n; ++k)
        if (const auto c = static_cast<unsigned char>(text[k]);
            (c < 32 && !space(char(c))) || c == 127)
            throw ParseError(fmt::format("control character 0x{:02X} at column {}", c, k + 1));
    skip();
    while (i < n && !space(text[i])) line.command += text[i++];
    for (skip(); i < n; skip()) {
        std::string name, value;
        while (i < n && !space(text[i]) && text[i] != '=') name += text[i++];
        if (name.empty()) throw ParseError("argument without a name at column " + std::to_string(i + 1));
        if (i < n && text[i] == '=') {
            ++i;
            if (i < n && text[i] == '"') {
                const std::size_t close = text.find('"', i + 1);
                if (close == std::string_view::npos)
                    throw ParseError("unterminated quote in argument '" + name + "'");
                value.assign(text.substr(i + 1, close - i - 1));
                i = close + 1;
            } else {
                while (i < n && !space(text[i])) value += text[i++];
            }
        }
        line.args.emplace_back(std::move(name), std::move(value));
    }
    return line;
}

// A value as an argument: quoted when it is empty or holds a space, '=' or '"' (a '"' inside
// cannot be written and becomes '\'').
inline std::string quote(std::string_view v) {
    const bool plain = !v.empty() && v.find_first_of(" \t=\"") == std::string_view::npos;
    if (plain) return std::string(v);
    std::string s(v);
    std::replace(s.begin(), s.end(), '"', '\'');
    return "\"" + s + "\"";
}

// Variant names of `set-param name=variant`: dambit's own, Scan's "normal" for International,
// and the names pydraughts sends.
inline std::optional<Variant> parse_variant_name(std::string_view name) {
    if (name == "normal" || name == "standard" || name == "international" || name == "10x10")
        return Variant::kInternational;
    if (name == "english" || name == "checkers" || name == "american") return Variant::kEnglish;
    return parse_variant(name);
}

// The variant names the engine announces, separated by `sep`: dambit's, then Scan's "normal".
inline std::string variant_names(std::string_view sep) {
    std::string names;
    for (auto n : kVariantNames) names.append(n).append(sep);
    return names + "normal";
}

// ---------------------------------------------------------------------------------------------
// Squares. 10x10 positions and moves use the standard numbering 1..50 (White's men start on
// 31..50). The 8x8 dialect is what pydraughts (the client lidraughts-bot plays through) sends and
// reads, and it has two numberings:
// - the position string lists the dark squares from the top-left corner as the first mover sees
//   the board (b8, d8, ..., g1 with White at the bottom), and `W`/`w` are the first mover;
// - moves are numbered as the variant's players number them: Russian and Brazilian from a1 (1 =
//   a1, 2 = c1, ..., 10 = c3, 32 = h8), English with Black's men on 1..12 (PDN numbering).
// Czech (absent from pydraughts) follows Russian, and Pool follows English, the variants they
// share a board and a first mover with.
namespace detail {

// Variants whose first mover is Black: English and Pool.
template <class R>
constexpr bool black_first() {
    return R::kFirstMover == Color::kBlack;
}

}  // namespace detail

// dambit's square number (PDN numbering, 1 = b8 on 8x8) of a square in Hub moves, and back; both
// are involutions.
template <class R>
constexpr int square_of_hub(int h) {
    if constexpr (R::Geometry::kSize == 10 || detail::black_first<R>()) {
        return h;
    } else {
        // Rows counted from the other side, files in the same order.
        return (7 - (h - 1) / 4) * 4 + (h - 1) % 4 + 1;
    }
}
template <class R>
constexpr int hub_square(int n) {
    return square_of_hub<R>(n);
}

// dambit's square number at index i (1-based) of a position string, and whether the string's
// 'W'/'w' stand for Black (when Black moves first, the string is the board turned round with the
// colours swapped: English square 33 - i at index i).
template <class R>
constexpr int square_of_index(int i) {
    if constexpr (R::Geometry::kSize == 8 && detail::black_first<R>()) return 33 - i;
    return i;
}
template <class R>
constexpr bool colours_swapped() {
    return R::Geometry::kSize == 8 && detail::black_first<R>();
}

// "W" or "B", then one character per square in Hub order: 'w'/'b' men, 'W'/'B' kings, 'e' empty.
template <class R>
std::string hub_position_text(const Position<R>& p) {
    using G = typename R::Geometry;
    constexpr bool swap = colours_swapped<R>();
    std::string s(1, (p.side == Color::kWhite) != swap ? 'W' : 'B');
    for (int i = 1; i <= G::kSquares; ++i) {
        const auto m = G::mask_of_square(square_of_index<R>(i));
        const bool king = (p.kings & m) != 0;
        if (p.pieces[swap ? 1 : 0] & m)
            s += king ? 'W' : 'w';
        else if (p.pieces[swap ? 0 : 1] & m)
            s += king ? 'B' : 'b';
        else
            s += 'e';
    }
    return s;
}

// Reads a position string. Throws ParseError naming the bad character or the wrong length, and
// for a man on its own promotion row (as parse_fen does).
template <class R>
Position<R> parse_hub_position(std::string_view text) {
    using G = typename R::Geometry;
    const std::string token(text.substr(0, std::min<std::size_t>(text.size(), 80)));
    if (text.empty())  // `pos pos`: the name without `=`
        throw ParseError("pos without a position (want pos= the side to move and the " +
                         std::to_string(G::kSquares) + " squares)");
    if (text.size() != std::size_t(G::kSquares) + 1)
        throw ParseError("position '" + token + "' has " + std::to_string(text.size()) +
                         " characters, not " + std::to_string(G::kSquares + 1));
    constexpr bool swap = colours_swapped<R>();
    constexpr int w = swap ? 1 : 0, b = 1 - w;
    Position<R> p;
    if (text[0] == 'W')
        p.side = Color(w);
    else if (text[0] == 'B')
        p.side = Color(b);
    else
        throw ParseError("side to move '" + std::string(1, text[0]) + "' in position '" + token +
                         "' (want W or B)");
    for (int i = 1; i <= G::kSquares; ++i) {
        const char c = text[std::size_t(i)];
        const auto m = G::mask_of_square(square_of_index<R>(i));
        switch (c) {
            case 'w': p.pieces[w] |= m; break;
            case 'W': p.pieces[w] |= m, p.kings |= m; break;
            case 'b': p.pieces[b] |= m; break;
            case 'B': p.pieces[b] |= m, p.kings |= m; break;
            case 'e': break;
            default:
                throw ParseError("square " + std::to_string(i) + " '" + std::string(1, c) +
                                 "' in position '" + token + "' (want w, b, W, B or e)");
        }
    }
    const auto men = ~p.kings;
    if ((p.white() & men & Position<R>::promotion_row(Color::kWhite)) ||
        (p.black() & men & Position<R>::promotion_row(Color::kBlack)))
        throw ParseError("a man on its promotion row in position '" + token + "'");
    return p;
}

// A move in Hub form: "32-28" for a quiet move; "from x to x captured x ..." for a capture (all
// captured squares, in the order they are taken, no landing squares between).
template <class R>
std::string hub_move_text(const PathMove<typename R::Geometry>& pm) {
    using G = typename R::Geometry;
    const int from = hub_square<R>(G::square_of_bit(pm.move.from));
    const int to = hub_square<R>(G::square_of_bit(pm.move.to));
    if (!pm.move.is_capture()) return std::to_string(from) + "-" + std::to_string(to);
    std::string s = std::to_string(from) + "x" + std::to_string(to);
    for (const int sq : captured_squares<G>(pm)) s += fmt::format("x{}", hub_square<R>(sq));
    return s;
}

// Reads a Hub move in `p`: "from-to", or "fromxto" followed by the captured squares in any order
// ("fromxto" alone names a capture when only one legal capture joins those squares). Returns the
// legal move; throws ParseError for a malformed, illegal or ambiguous move.
template <class R>
PathMove<typename R::Geometry> parse_hub_move(const Position<R>& p, std::string_view text) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    const std::string token(text.substr(0, std::min<std::size_t>(text.size(), 200)));
    std::vector<int> squares;
    char kind = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t j = i;
        while (j < text.size() && j - i < 3 && text[j] >= '0' && text[j] <= '9') ++j;
        if (j == i || (j < text.size() && text[j] >= '0' && text[j] <= '9'))
            throw ParseError("bad square in move '" + token + "'");
        const int h = std::stoi(std::string(text.substr(i, j - i)));
        if (h < 1 || h > G::kSquares)
            throw ParseError("unknown square '" + std::to_string(h) + "' in move '" + token + "'");
        squares.push_back(square_of_hub<R>(h));
        if (j == text.size()) break;
        const char sep = text[j] == 'X' ? 'x' : text[j];
        if (sep != '-' && sep != 'x') throw ParseError("bad separator in move '" + token + "'");
        if (kind && sep != kind) throw ParseError("mixed separators in move '" + token + "'");
        kind = sep;
        i = j + 1;
        if (i == text.size()) throw ParseError("move '" + token + "' ends with a separator");
    }
    if (squares.size() < 2 || !kind) throw ParseError("bad move '" + token + "'");
    if (kind == '-' && squares.size() != 2) throw ParseError("bad quiet move '" + token + "'");
    B captured = 0;
    for (std::size_t k = 2; k < squares.size(); ++k) {
        const B m = G::mask_of_square(squares[k]);
        if (captured & m) throw ParseError("square captured twice in move '" + token + "'");
        captured |= m;
    }
    const int from = G::bit_of_square(squares[0]), to = G::bit_of_square(squares[1]);
    FixedList<PathMove<G>, kMaxMoves> list;
    generate_paths<R>(p, list);
    const PathMove<G>* found = nullptr;
    int matches = 0;
    for (const auto& pm : list) {
        if (pm.move.from != from || pm.move.to != to || pm.move.is_capture() != (kind == 'x'))
            continue;
        if (squares.size() > 2 && pm.move.captured != captured) continue;
        // Two paths taking the same pieces are the same move here (RULES.md §4).
        if (found && found->move.captured == pm.move.captured) continue;
        found = &pm;
        ++matches;
    }
    if (!found) throw ParseError("illegal move '" + token + "'");
    if (matches > 1) throw ParseError("ambiguous move '" + token + "': list the captured squares");
    return *found;
}

}  // namespace dambit::hub
