// Text at the edge: squares, FEN position strings and move strings (RULES.md §1).
//
// Every reader throws ParseError with a one-line message naming the offending token.
#pragma once

#include "core/instances.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "core/movegen.hpp"
#include "core/text.hpp"

namespace dambit {

// `s` with its control characters as '?', for a one-line message (a NUL would cut a what()
// short, a newline would break the line).
inline std::string printable(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return out;
}

class ParseError : public std::runtime_error {
public:
    // The message is one printable line of reasonable length: printable(), and the middle of a
    // very long token (a 100 kB FEN) shown as '...'.
    explicit ParseError(const std::string& message)
        : std::runtime_error(shortened(printable(message))) {}

private:
    static std::string shortened(std::string s) {
        constexpr std::size_t kHead = 200, kTail = 80;
        if (s.size() > kHead + kTail + 3) s = s.substr(0, kHead) + "..." + s.substr(s.size() - kTail);
        return s;
    }
};

namespace notation_detail {

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

inline bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// A ballot's name as the ballots of `match` have them: a number and a group in Roman numerals,
// either way round, perhaps with a colon after it ("1-I", "15-X", "I-1:", "XII-3").
inline bool is_ballot_name(std::string_view s) {
    if (s.ends_with(':')) s.remove_suffix(1);
    const auto dash = s.find('-');
    if (dash == std::string_view::npos) return false;
    const auto roman = [](std::string_view r) {
        return !r.empty() && r.find_first_not_of("IVXLC") == std::string_view::npos;
    };
    const std::string_view a = s.substr(0, dash), b = s.substr(dash + 1);
    return (all_digits(a) && roman(b)) || (roman(a) && all_digits(b));
}

inline std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    for (;;) {
        const auto k = s.find(sep);
        out.push_back(s.substr(0, k));
        if (k == std::string_view::npos) return out;
        s.remove_prefix(k + 1);
    }
}

}  // namespace notation_detail

// PDN's annotations of a move (docs/pdn.md#reading), read alike by the PDN reader and play_line:
// a move strength ("!", "?", "!!", "??", "!?", "?!", any run of '!' and '?'), also in parentheses
// ("(!)"), and a NAG ("$1").
inline bool is_move_strength(std::string_view w) {
    return !w.empty() && w.find_first_not_of("!?") == std::string_view::npos;
}
inline bool is_nag(std::string_view w) {
    return w.size() > 1 && w.front() == '$' && notation_detail::all_digits(w.substr(1));
}
// Takes the annotation joined to the end of a word off it: a move strength ("32-28!?"), one in
// parentheses ("32-28(!)"; the PDN reader reads '(' apart, play_line only between blanks) and a
// forced move's '*' ("32-28*"). Returns the strength without its parentheses ("!?", "!", or ""
// for none); `w` keeps the move ("" when the word was an annotation alone: "!?", "(?)").
inline std::string split_move_strength(std::string_view& w) {
    std::string strength;
    if (w.ends_with(')')) {
        const auto open = w.rfind('(');
        if (open != std::string_view::npos &&
            is_move_strength(w.substr(open + 1, w.size() - open - 2))) {
            strength = std::string(w.substr(open + 1, w.size() - open - 2));
            w.remove_suffix(w.size() - open);
        }
    }
    std::size_t end = w.size();
    while (end > 0 && (w[end - 1] == '!' || w[end - 1] == '?' || w[end - 1] == '*')) --end;
    std::string joined;
    for (const char c : w.substr(end))
        if (c != '*') joined += c;
    w.remove_suffix(w.size() - end);
    return joined + strength;
}

// Square number (1-based) of a token: numeric "1".."50", or algebraic "a1".."h8" on 8x8.
// Returns 0 when the token names no dark square of the board.
template <class G>
int parse_square(std::string_view t) {
    using namespace notation_detail;
    if (all_digits(t)) {
        if (t.size() > 3) return 0;
        const int n = std::stoi(std::string(t));
        return n >= 1 && n <= G::kSquares ? n : 0;
    }
    if (G::kSize == 8 && t.size() == 2) {
        const int file = std::tolower(static_cast<unsigned char>(t[0])) - 'a';
        const int rank = t[1] - '1';
        return G::square_of_coord(file, rank);
    }
    return 0;
}

// Name of the square at bit index `b` in the variant's own notation.
template <class R>
std::string square_name(int b) {
    using G = typename R::Geometry;
    const int n = G::square_of_bit(b);
    if constexpr (R::kNotation == Notation::kAlgebraic) {
        const auto c = G::coord_of_square(n);
        return std::string{char('a' + c.file), char('1' + c.rank)};
    } else {
        return std::to_string(n);
    }
}

namespace notation_detail {

// A FEN's fields as text, separated by ':': the text without its wrappers ([FEN "..."], quotes)
// and a trailing period. Throws ParseError for an empty FEN or a bad wrapper.
inline std::string_view fen_body(std::string_view text) {
    std::string_view s = trim(text);
    if (s.empty()) throw ParseError("empty FEN");
    // The PDN wrapper [FEN "..."].
    if (s.front() == '[') {
        if (s.size() < 2 || s.back() != ']') throw ParseError("bad FEN tag '" + std::string(s) + "'");
        s = trim(s.substr(1, s.size() - 2));
        if (s.substr(0, 3) != "FEN") throw ParseError("bad FEN tag '" + std::string(s) + "'");
        s = trim(s.substr(3));
        if (s.size() < 2 || s.front() != '"' || s.back() != '"')
            throw ParseError("bad FEN tag value '" + std::string(s) + "'");
        s = trim(s.substr(1, s.size() - 2));
    }
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = trim(s.substr(1, s.size() - 2));
    // A trailing period is common in PDN files.
    if (!s.empty() && s.back() == '.') s.remove_suffix(1);
    return s;
}

// A FEN's move counter `tag` (H or F), or nothing when it gives none (or none parse_fen would
// read); INT_MAX for one of more than 9 digits, beyond any game.
inline std::optional<int> fen_counter(std::string_view text, char tag) {
    try {
        const auto fields = split(fen_body(text), ':');
        for (std::size_t i = 1; i < fields.size(); ++i) {
            const std::string_view f = trim(fields[i]);
            if (f.size() < 2 || f.front() != tag || !all_digits(f.substr(1))) continue;
            const std::string_view digits = f.substr(1);
            if (digits.size() > 9) return std::numeric_limits<int>::max();
            return std::stoi(std::string(digits));
        }
    } catch (const ParseError&) {
    }
    return std::nullopt;
}
}  // namespace notation_detail

// The move number a FEN gives its position (its F field: "W:W21-32:B1-12:H0:F16" is move 16),
// or 1 when it gives none (or none parse_fen would read).
inline int fen_move_number(std::string_view text) {
    const auto n = notation_detail::fen_counter(text, 'F');
    return n && *n > 0 && *n < std::numeric_limits<int>::max() ? *n : 1;
}

// The move number after `plies` plies from a position of move `number` whose side to move is
// the variant's first mover (`first_mover_to_move`) or the other side: a number counts a move
// of each side, from the first mover (from the start, 3 plies make move 2).
inline int move_number_after(int plies, int number = 1, bool first_mover_to_move = true) {
    return number + (first_mover_to_move ? plies / 2 : (plies + 1) / 2);
}

// The half-moves a FEN says were played since the last capture or man move (its H field: kings
// alone moved for that many plies, the counter of the move-count draw rules, RULES.md section 5),
// 0 when it gives none; at most 1000, far beyond every rule's limit (the counters of a line go on
// from it in 16 bits, which a clock near 65535 would make wrap round to 0).
inline int fen_halfmove_clock(std::string_view text) {
    const auto n = notation_detail::fen_counter(text, 'H');
    return n ? std::min(*n, 1000) : 0;
}

// Parses a FEN position string (PDN 3.0 as RULES.md §1 describes it).
template <class R>
Position<R> parse_fen(std::string_view text) {
    using namespace notation_detail;
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    const std::string_view s = fen_body(text);
    const auto fields = split(s, ':');
    Position<R> p;
    p.pieces = {0, 0};
    p.kings = 0;
    const std::string_view side = trim(fields[0]);
    if (side == "W")
        p.side = Color::kWhite;
    else if (side == "B")
        p.side = Color::kBlack;
    else
        throw ParseError("bad side to move '" + std::string(side) + "' (want W or B)" +
                         non_ascii_note(side));

    bool seen[2] = {false, false};
    bool seen_counter[2] = {false, false};  // H, F
    for (std::size_t i = 1; i < fields.size(); ++i) {
        const std::string_view f = trim(fields[i]);
        if (f.empty()) throw ParseError("empty field in FEN '" + std::string(s) + "'");
        const char tag = f.front();
        if (tag == 'H' || tag == 'F') {
            // Move counters: half-moves since the last capture or man move, full-move number.
            if (!all_digits(f.substr(1))) throw ParseError("bad move counter '" + std::string(f) + "'");
            bool& counted = seen_counter[tag == 'H' ? 0 : 1];
            if (counted) throw ParseError("move counter " + std::string(1, tag) + " given twice");
            counted = true;
            continue;
        }
        if (tag != 'W' && tag != 'B')
            throw ParseError("bad FEN field '" + std::string(f) + "'" + non_ascii_note(f));
        const Color c = tag == 'W' ? Color::kWhite : Color::kBlack;
        if (seen[int(c)]) throw ParseError("piece list for " + std::string(1, tag) + " given twice");
        seen[int(c)] = true;
        const std::string_view list = trim(f.substr(1));
        if (list.empty()) continue;  // no pieces of this colour
        for (std::string_view tok : split(list, ',')) {
            tok = trim(tok);
            const std::string token(tok);
            if (tok.empty()) throw ParseError("empty square in piece list '" + std::string(list) + "'");
            bool king = false;
            if (tok.front() == 'k')
                throw ParseError("king marker 'k' in '" + token + "' (a king is marked K)");
            if (tok.front() == 'K') {
                king = true;
                tok = trim(tok.substr(1));
            }
            int lo = 0, hi = 0;
            const auto dash = tok.find('-');
            if (dash != std::string_view::npos) {
                const std::string_view a = trim(tok.substr(0, dash));
                std::string_view b = trim(tok.substr(dash + 1));
                if (!b.empty() && b.front() == 'K' && king) b = trim(b.substr(1));
                if (!all_digits(a) || !all_digits(b)) throw ParseError("bad square range '" + token + "'");
                lo = parse_square<G>(a);
                hi = parse_square<G>(b);
                if (!lo || !hi || lo > hi) throw ParseError("bad square range '" + token + "'");
            } else {
                lo = hi = parse_square<G>(tok);
                if (!lo) throw ParseError("unknown square '" + token + "'" + non_ascii_note(token));
            }
            for (int n = lo; n <= hi; ++n) {
                const B m = G::mask_of_square(n);
                if ((p.pieces[0] | p.pieces[1]) & m)
                    throw ParseError("square listed twice '" + token + "'");
                if (!king && (m & Position<R>::promotion_row(c)))
                    throw ParseError(lo == hi ? "man on its promotion row '" + token + "'"
                                              : "man on its promotion row: square " +
                                                    std::to_string(n) + " of '" + token + "'");
                p.pieces[int(c)] |= m;
                if (king) p.kings |= m;
            }
        }
    }
    // "W" alone is no position: an empty board is written W:W:B.
    if (!seen[0] && !seen[1])
        throw ParseError("no piece list in FEN '" + std::string(s) + "' (want W:W...:B...)");
    // No game reaches more pieces than a side starts with.
    const int most = popcount(Position<R>::start().pieces[0]);
    for (int c = 0; c < 2; ++c)
        if (const int n = popcount(p.pieces[c]); n > most)
            throw ParseError(std::string(c == 0 ? "White" : "Black") + " has " +
                             std::to_string(n) + " pieces, more than the " +
                             std::to_string(most) + " a side starts with");
    return p;
}

// Writes a FEN string with numeric squares, White's list first, kings marked with K.
template <class R>
std::string to_fen(const Position<R>& p) {
    using G = typename R::Geometry;
    std::string s(1, p.side == Color::kWhite ? 'W' : 'B');
    for (int c = 0; c < 2; ++c) {
        s += c == 0 ? ":W" : ":B";
        bool first = true;
        for (int n = 1; n <= G::kSquares; ++n) {
            const auto m = G::mask_of_square(n);
            if (!(p.pieces[c] & m)) continue;
            if (!first) s += ',';
            first = false;
            if (p.kings & m) s += 'K';
            s += std::to_string(n);
        }
    }
    return s;
}

// The same with the H field when kings alone have moved for `halfmove` plies (fen_halfmove_clock
// reads it back): `W:WK22,K25,K29:BK10:H8`. Without it, a game position pasted elsewhere would
// start the move-count rules again.
template <class R>
std::string to_fen(const Position<R>& p, int halfmove) {
    return halfmove > 0 ? to_fen(p) + ":H" + std::to_string(halfmove) : to_fen(p);
}

// Long form of a move: from-to for a quiet move, every landing square of a capture otherwise.
template <class R>
std::string move_text(const PathMove<typename R::Geometry>& pm) {
    std::string s = square_name<R>(pm.move.from);
    if (!pm.move.is_capture()) return s + "-" + square_name<R>(pm.move.to);
    for (int i = 0; i < pm.length; ++i) s += R::kCaptureSeparator + square_name<R>(pm.path[i]);
    return s;
}

// The square numbers (1-based) of the pieces a capture takes, in the order it takes them: each leg
// of the path between two landing squares jumps exactly one of them.
template <class G>
std::vector<int> captured_squares(const PathMove<G>& pm) {
    std::vector<int> out;
    int at = pm.move.from;
    for (int i = 0; i < pm.length; ++i) {
        const auto a = G::coord_of_bit(at), b = G::coord_of_bit(pm.path[i]);
        const int dx = b.file > a.file ? 1 : -1, dy = b.rank > a.rank ? 1 : -1;
        for (int f = a.file + dx, r = a.rank + dy; f != b.file; f += dx, r += dy) {
            const int n = G::square_of_coord(f, r);
            if (n && (pm.move.captured & G::mask_of_square(n))) out.push_back(n);
        }
        at = pm.path[i];
    }
    return out;
}

// The same squares in the variant's notation.
template <class R>
std::vector<std::string> captured_names(const PathMove<typename R::Geometry>& pm) {
    using G = typename R::Geometry;
    std::vector<std::string> out;
    for (const int n : captured_squares<G>(pm)) out.push_back(square_name<R>(G::bit_of_square(n)));
    return out;
}

namespace notation_detail {

// Whether the written landing squares (bit indices, start first) describe a capture taking exactly
// `captured`: every leg runs along one diagonal and jumps at least one of the captured pieces, and
// every captured piece lies on exactly one leg.
template <class G>
bool legs_fit(const std::vector<int>& squares, typename G::Bitboard captured) {
    using B = typename G::Bitboard;
    B seen = 0;
    for (std::size_t i = 0; i + 1 < squares.size(); ++i) {
        const auto a = G::coord_of_bit(squares[i]), b = G::coord_of_bit(squares[i + 1]);
        const int dx = b.file - a.file, dy = b.rank - a.rank;
        if (dx == 0 || (dx != dy && dx != -dy)) return false;
        const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
        B leg = 0;
        for (int f = a.file + sx, r = a.rank + sy; f != b.file; f += sx, r += sy)
            leg |= G::mask_of_square(G::square_of_coord(f, r)) & captured;
        if (!leg || (leg & seen)) return false;
        seen |= leg;
    }
    return seen == captured;
}

// A few moves as the variant writes them, each once (under keep, identical paths are listed
// twice): the first four, then "..." when there are more.
template <class R>
std::string a_few_moves(const std::vector<const PathMove<typename R::Geometry>*>& moves) {
    std::vector<std::string> texts;
    for (const auto* pm : moves)
        if (std::find(texts.begin(), texts.end(), move_text<R>(*pm)) == texts.end())
            texts.push_back(move_text<R>(*pm));
    std::string out;
    for (std::size_t i = 0; i < texts.size() && i < 5; ++i)
        out += (i ? ", " : "") + (i == 4 ? std::string("...") : texts[i]);
    return out;
}

// Why no legal move of `p` (listed in `legal`) is the move from bit `from` (written `square`)
// that `capture` says it is, for the message of an illegal move: ": no piece on c3", ": a capture
// is compulsory (c3:e5)", ": the legal moves of b2 are b2-a3, b2-c3", ...
// `forbidden`: the move is a capture the precedence rule leaves out (generate_free_captures).
template <class R, class List>
std::string illegal_reason(const Position<R>& p, const List& legal, int from,
                           const std::string& square, bool capture, bool forbidden = false) {
    using B = typename R::Geometry::Bitboard;
    const char* side = p.side == Color::kWhite ? "White" : "Black";
    if (legal.empty()) return std::string(": ") + side + ", to move, has no legal move";
    const B at = bit<B>(from);
    if (!(p.pieces[int(p.side)] & at)) {
        if (!(p.occupied() & at)) return ": no piece on " + square;
        return ": " + square + " holds a " + (p.side == Color::kWhite ? "black" : "white") +
               ((p.kings & at) ? " king, " : " man, ") + "and " + side + " is to move";
    }
    // A few of the legal moves that `keep` picks.
    auto some = [&](auto&& keep) {
        std::vector<const PathMove<typename R::Geometry>*> kept;
        for (const auto& pm : legal)
            if (keep(pm)) kept.push_back(&pm);
        return a_few_moves<R>(kept);
    };
    const bool must_capture = legal[0].move.is_capture();
    // A capture, but not one the rule lets the side choose: the rule is the reason.
    if (forbidden && R::kPrecedence == Precedence::kMostPieces)
        return ": the majority rule: a capture of " +
               std::to_string(popcount(legal[0].move.captured)) + " pieces is compulsory (" +
               some([](const auto&) { return true; }) + ")";
    if (forbidden && R::kPrecedence == Precedence::kKingPriority)
        return ": the king's precedence: a capture by a king is compulsory (" +
               some([](const auto&) { return true; }) + ")";
    if (must_capture && !capture)
        return ": a capture is compulsory (" + some([](const auto&) { return true; }) + ")";
    const std::string own = some([&](const auto& pm) { return pm.move.from == from; });
    const std::string of = own.find(", ") == std::string::npos
                               ? "the one legal move of " + square + " is " + own
                               : "the legal moves of " + square + " are " + own;
    if (capture && !must_capture)
        return ": no capture is possible" + (own.empty() ? "" : "; " + of);
    if (own.empty())
        return ": the " + std::string((p.kings & at) ? "king" : "man") + " on " + square +
               " has no legal move" +
               (must_capture ? " (the captures: " + some([](const auto&) { return true; }) + ")"
                             : "");
    return ": " + of;
}

// The moves of `moves` that the landing squares `squares` (bit indices, the start first) name,
// written as a quiet move or (`capture`) a capture: a short form (the ends only) names
// the moves with those ends, unless one of them is written exactly (a single jump); a long form the
// moves with exactly those landing squares, else those whose legs it fits (a king going straight
// on may be written landing anywhere between two captured pieces). Identical paths (under keep)
// count as one when written exactly.
template <class G, class List>
std::vector<const PathMove<G>*> match_move(const List& moves, const std::vector<int>& squares,
                                           bool capture) {
    const int from = squares.front(), to = squares.back();
    std::vector<const PathMove<G>*> ends, exact, fitting;
    for (const auto& pm : moves) {
        if (pm.move.from != from || pm.move.to != to || pm.move.is_capture() != capture) continue;
        ends.push_back(&pm);
        if (!capture) continue;
        bool same = int(squares.size()) == pm.length + 1;
        for (int i = 0; same && i < pm.length; ++i) same = pm.path[i] == squares[i + 1];
        if (same) exact.push_back(&pm);
        if (squares.size() > 2 && legs_fit<G>(squares, pm.move.captured)) fitting.push_back(&pm);
    }
    if (!exact.empty()) return {exact.front()};
    return squares.size() == 2 ? ends : fitting;
}

}  // namespace notation_detail

// A quiet move in Russian short notation: the file of the moving piece and the algebraic square
// it goes to, "cd4" (the PDN reader takes such a word for a move; parse_move reads it in the
// algebraic variants).
inline bool is_short_quiet_move(std::string_view w) {
    return w.size() == 3 && w[0] >= 'a' && w[0] <= 'h' && w[1] >= 'a' && w[1] <= 'h' &&
           w[2] >= '1' && w[2] <= '8';
}

// Reads a move in long or short form ("-" for quiet moves; ":" or "x" for captures; "-" also for
// the one capture from-to when no quiet move goes there) and returns the legal move it names.
// Throws ParseError when the text is malformed, names no legal move (saying why: a capture the
// majority rule forbids is named as such), or (short form) names more than one.
template <class R, Duplicates D = Duplicates::kDrop>
PathMove<typename R::Geometry> parse_move(const Position<R>& p, std::string_view text) {
    using namespace notation_detail;
    using G = typename R::Geometry;
    const std::string_view s = trim(text);
    const std::string token(s);
    if (s.empty()) throw ParseError("empty move");
    std::vector<std::string_view> parts;
    bool capture = false;
    {
        std::size_t begin = 0;
        char kind = 0;
        for (std::size_t i = 0; i <= s.size(); ++i) {
            if (i < s.size() && s[i] != '-' && s[i] != ':' && s[i] != 'x' && s[i] != 'X') continue;
            if (i < s.size()) {
                const char k = s[i] == '-' ? '-' : 'x';
                if (kind && k != kind) throw ParseError("mixed separators in move '" + token + "'");
                kind = k;
            }
            parts.push_back(s.substr(begin, i - begin));
            begin = i + 1;
        }
        // Russian short notation, a quiet move as the file of the moving piece and the square
        // it goes to (`cd4`), is a move with no separator.
        if (!kind && R::kNotation == Notation::kAlgebraic && is_short_quiet_move(s)) {
            parts = {s.substr(0, 1), s.substr(1)};
            kind = '-';
        }
        capture = kind == 'x';
        if (!kind) throw ParseError("no separator in move '" + token + "'" + non_ascii_note(token));
        if (kind == '-' && parts.size() != 2) throw ParseError("bad quiet move '" + token + "'");
    }
    // The start given by its file alone (the short notation of Russian books and ballots: `cd4`,
    // `d:f6`, `c:e5:g3`): every piece of the side to move on that file is tried.
    const char file = R::kNotation == Notation::kAlgebraic && parts.front().size() == 1 &&
                              parts.front()[0] >= 'a' && parts.front()[0] <= 'h'
                          ? parts.front()[0]
                          : 0;
    std::vector<int> squares;
    if (file) squares.push_back(-1);  // the start: a square of the file, below
    for (std::size_t i = file ? 1 : 0; i < parts.size(); ++i) {
        const std::string_view part = parts[i];
        if (part.empty()) throw ParseError("missing square in move '" + token + "'");
        const int n = parse_square<G>(part);
        if (!n)
            throw ParseError("unknown square '" + std::string(part) + "' in move '" + token + "'" +
                             non_ascii_note(part));
        squares.push_back(G::bit_of_square(n));
    }
    FixedList<PathMove<G>, kMaxMoves> list;
    generate_paths<R, D>(p, list);
    // The moves the squares name; a capture written with '-', as English and Pool players write
    // it ("10-17" for 10x17), when no quiet move goes there: read as the capture it names, if it
    // names one.
    const auto moves_named = [&](const std::vector<int>& sq) {
        auto named = match_move<G>(list, sq, capture);
        if (named.empty() && !capture) named = match_move<G>(list, sq, true);
        return named;
    };
    std::vector<const PathMove<G>*> named;
    std::string start_name(parts.front());  // the start square as written, for the reasons
    if (file) {
        std::vector<int> starts;  // the side to move's pieces on the file
        for (int n = 1; n <= G::kSquares; ++n)
            if ((p.pieces[int(p.side)] & G::mask_of_square(n)) &&
                square_name<R>(G::bit_of_square(n))[0] == file)
                starts.push_back(G::bit_of_square(n));
        if (starts.empty())
            throw ParseError("illegal move '" + token + "': no piece on the " +
                             std::string(1, file) + " file");
        for (const int from : starts) {
            squares.front() = from;
            for (const auto* pm : moves_named(squares)) named.push_back(pm);
        }
        // None of them makes the move: the reasons are those of the first one (a capture is
        // compulsory, the majority rule, ...).
        if (named.empty()) squares.front() = starts.front();
        start_name = square_name<R>(squares.front());
    } else {
        named = moves_named(squares);
    }
    if (named.size() == 1) return *named.front();
    if (named.size() > 1) {  // the moves it may mean, in long form
        // Several pieces of the file, or several captures of one piece: what tells them apart.
        const bool starts_differ =
            std::any_of(named.begin(), named.end(),
                        [&](const auto* pm) { return pm->move.from != named.front()->move.from; });
        throw ParseError("ambiguous move '" + token + "': write " +
                         (starts_differ ? "its start square" : "every landing square") + " (" +
                         a_few_moves<R>(named) + ")");
    }
    bool forbidden = false;  // a capture, but one the precedence rule leaves out
    if constexpr (R::kPrecedence != Precedence::kFree) {
        if (!list.empty() && list[0].move.is_capture()) {
            FixedList<PathMove<G>, kMaxMoves> free;
            generate_free_captures<R>(p, free);
            forbidden = !match_move<G>(free, squares, true).empty();
        }
    }
    throw ParseError("illegal move '" + token + "'" +
                     illegal_reason<R>(p, list, squares.front(), start_name,
                                       capture, forbidden));
}

// The moves of a line written as text (moves between blanks), played from `p`, which ends at the
// position after them. Move numbers ("1.", "12...", also against the move: "1.c3-d4"), move
// strengths and NAGs (alone or joined to the move: "32-28!", "?!", "(!)", "$1") and a game's
// result at the end (PDN's 2-0, 0-2, 1-1, 0-0, 1-0, 0-1, 1/2-1/2, *, and ½-½ in UTF-8 or
// Latin-1) are skipped, so a line copied from a game reads; so is a ballot's name before the
// first move (`1-I cd4 ba5 dc5`, `I-1: ab4`, as match names its openings: is_ballot_name). A move
// that cannot be read or played is a ParseError naming it and its place in the line, and a move
// after the end of the game says so.
template <class R>
std::vector<PathMove<typename R::Geometry>> play_line(Position<R>& p, std::string_view text) {
    std::vector<PathMove<typename R::Geometry>> out;
    constexpr std::string_view kBlanks = " \t\r\n";
    for (std::size_t at = text.find_first_not_of(kBlanks); at != std::string_view::npos;
         at = text.find_first_not_of(kBlanks, at)) {
        const std::size_t end = std::min(text.find_first_of(kBlanks, at), text.size());
        const std::string_view word = text.substr(at, end - at);
        std::string_view token = word;
        const bool first_word = at == text.find_first_not_of(kBlanks);
        at = end;
        if (first_word && notation_detail::is_ballot_name(token)) continue;
        const auto digits = token.find_first_not_of("0123456789");
        if (digits > 0 && digits != std::string_view::npos && token[digits] == '.') {
            const auto move = token.find_first_not_of('.', digits);
            if (move == std::string_view::npos) continue;  // a move number
            token.remove_prefix(move);  // a move number written against its move: "1.c3-d4"
        }
        // The word as written where a move number stood against the move ("11.15": is 15 the
        // move, or a mistyped 11-15?).
        const std::string place =
            (token.size() < word.size() ? " (in '" + std::string(word) + "', move " : " (move ") +
            std::to_string(out.size() + 1) + " of the line)";
        if (token == "2-0" || token == "0-2" || token == "1-1" || token == "0-0" || token == "1-0" ||
            token == "0-1" || token == "1/2-1/2" || token == "\xC2\xBD-\xC2\xBD" ||
            token == "\xBD-\xBD" || token == "*") {
            if (text.find_first_not_of(kBlanks, at) == std::string_view::npos) break;
            throw ParseError("the result '" + std::string(token) + "' before the end of the line" +
                             place);
        }
        // A NAG, or a move strength alone or joined to the move, as the PDN reader skips them.
        if (is_nag(token)) continue;
        (void)split_move_strength(token);
        if (token.empty()) continue;
        try {
            out.push_back(parse_move<R>(p, token));
        } catch (const ParseError& e) {
            FixedList<PathMove<typename R::Geometry>, kMaxMoves> legal;
            generate_paths<R>(p, legal);
            if (legal.empty())
                throw ParseError("the game is over before '" + std::string(token) + "': " +
                                 (p.side == Color::kWhite ? "White" : "Black") +
                                 " has no legal move" + place);
            throw ParseError(e.what() + place);
        }
        p = p.play(out.back().move);
    }
    return out;
}

#define DAMBIT_NOTATION_TEMPLATES(R)                                                            \
    DAMBIT_EXTERN template Position<R> parse_fen<R>(std::string_view);                          \
    DAMBIT_EXTERN template std::string to_fen<R>(const Position<R>&);                           \
    DAMBIT_EXTERN template std::string move_text<R>(const PathMove<R::Geometry>&);              \
    DAMBIT_EXTERN template std::vector<std::string> captured_names<R>(                          \
        const PathMove<R::Geometry>&);                                                          \
    DAMBIT_EXTERN template PathMove<R::Geometry> parse_move<R, Duplicates::kDrop>(              \
        const Position<R>&, std::string_view);                                                  \
    DAMBIT_EXTERN template PathMove<R::Geometry> parse_move<R, Duplicates::kKeep>(              \
        const Position<R>&, std::string_view);
#ifndef DAMBIT_INSTANTIATE_CORE
DAMBIT_FOR_EACH_RULES(DAMBIT_NOTATION_TEMPLATES)
#endif

}  // namespace dambit
