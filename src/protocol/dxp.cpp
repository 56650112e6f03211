// DXP messages: encoding, decoding, boards and moves (dxp.hpp).
#include "protocol/dxp.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/movegen.hpp"

namespace dambit::dxp {
namespace {

using G = International::Geometry;

std::string number(int value, int width, const char* field) {
    std::string s = std::to_string(value);
    if (value < 0 || int(s.size()) > width)
        throw std::invalid_argument(std::string("DXP field ") + field + " out of range: " + s);
    return std::string(std::size_t(width) - s.size(), '0') + s;
}

std::string padded(std::string_view name) {
    std::string s(name.substr(0, kNameWidth));
    for (char& c : s)
        if (c == '\0' || c == '\n' || c == '\r') c = ' ';
    s.resize(kNameWidth, ' ');
    return s;
}

}  // namespace

std::string printable(std::string_view s, std::size_t limit) {
    std::string out;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 32 && u < 127)
            out += c;
        else
            out += "\\x" + std::string(1, "0123456789abcdef"[u >> 4]) + "0123456789abcdef"[u & 15];
        if (out.size() > limit) return out + "...";
    }
    return out;
}

namespace {

// Reads the fields of a message left to right.
class Reader {
public:
    Reader(std::string_view text, const char* message) : text_(text), message_(message) {}

    std::string_view take(std::size_t n, const char* field) {
        if (text_.size() < n)
            throw ParseError(std::string(message_) + ": message too short for field " + field +
                             " (" + std::to_string(n) + " characters wanted, " +
                             std::to_string(text_.size()) + " left)");
        const auto s = text_.substr(0, n);
        text_.remove_prefix(n);
        return s;
    }
    int number(std::size_t n, const char* field) {
        const auto s = take(n, field);
        int v = 0;
        for (char c : s) {
            if (c < '0' || c > '9')
                throw ParseError(std::string(message_) + ": non-digit in number field " + field +
                                 " '" + printable(s) + "'");
            v = v * 10 + (c - '0');
        }
        return v;
    }
    char one_of(const char* field, std::string_view allowed) {
        const char c = take(1, field)[0];
        if (allowed.find(c) == std::string_view::npos)
            throw ParseError(std::string(message_) + ": bad " + field + " '" +
                             printable(std::string_view(&c, 1)) + "' (want one of " +
                             std::string(allowed) + ")");
        return c;
    }
    int square(const char* field) {
        const int n = number(2, field);
        if (n < 1 || n > G::kSquares)
            throw ParseError(std::string(message_) + ": " + field + " square " +
                             std::to_string(n) + " out of range 1..50");
        return n;
    }
    std::string name(const char* field) {
        std::string s(take(kNameWidth, field));
        for (char c : s)
            if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126)
                throw ParseError(std::string(message_) + ": non-printable character in " + field);
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    }
    void end() const {
        if (!text_.empty())
            throw ParseError(std::string(message_) + ": " + std::to_string(text_.size()) +
                             " unexpected characters at the end '" + printable(text_) + "'");
    }
    std::size_t left() const { return text_.size(); }

private:
    std::string_view text_;
    const char* message_;
};

}  // namespace

std::string encode(const Message& m) {
    return std::visit(
        [](const auto& x) -> std::string {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, GameRequest>) {
                if (x.version.size() != 2)
                    throw std::invalid_argument("DXP version must have two characters");
                std::string s(1, 'R');
                s += x.version;
                s += padded(x.initiator);
                s += x.follower_colour;
                s += number(x.minutes, 3, "thinking time");
                s += number(x.moves, 3, "number of moves");
                s += x.start;
                if (x.start == 'B') {
                    if (x.board.size() != std::size_t(G::kSquares))
                        throw std::invalid_argument("DXP board must have 50 squares");
                    s += x.to_move;
                    s += x.board;
                }
                return s;
            } else if constexpr (std::is_same_v<T, GameAccept>) {
                std::string s(1, 'A');
                s += padded(x.follower);
                s += x.code;
                return s;
            } else if constexpr (std::is_same_v<T, MoveMessage>) {
                std::string s(1, 'M');
                s += number(std::min(x.seconds, 9999), 4, "time");
                s += number(x.from, 2, "from");
                s += number(x.to, 2, "to");
                s += number(int(x.captured.size()), 2, "number captured");
                for (int c : x.captured) s += number(c, 2, "captured");
                return s;
            } else if constexpr (std::is_same_v<T, GameEnd>) {
                return std::string("E") + x.reason + x.stop;
            } else if constexpr (std::is_same_v<T, Chat>) {
                std::string t = x.text.substr(0, kMaxChat);
                std::replace(t.begin(), t.end(), '\0', ' ');
                t.insert(t.begin(), 'C');
                return t;
            } else if constexpr (std::is_same_v<T, BackRequest>) {
                std::string s(1, 'B');
                s += number(x.move_number, 3, "move number");
                s += x.to_move;
                return s;
            } else {
                return std::string("K") + x.code;
            }
        },
        m);
}

Message decode(std::string_view text) {
    if (text.empty()) throw ParseError("empty DXP message");
    if (text.size() > kMaxMessage)
        throw ParseError("DXP message of " + std::to_string(text.size()) +
                         " characters, over the limit of " + std::to_string(kMaxMessage));
    const char header = text[0];
    const std::string_view rest = text.substr(1);
    switch (header) {
        case 'R': {
            Reader r(rest, "GAMEREQ");
            GameRequest m;
            m.version = std::string(r.take(2, "version"));
            for (char c : m.version)
                if (c < '0' || c > '9')
                    throw ParseError("GAMEREQ: non-digit in number field version '" +
                                     printable(m.version) + "'");
            m.initiator = r.name("initiator name");
            m.follower_colour = r.one_of("follower colour", "WZ");
            m.minutes = r.number(3, "thinking time");
            m.moves = r.number(3, "number of moves");
            m.start = r.one_of("starting position", "AB");
            // Some programs send the board after 'A' too; it is the start position then.
            if (m.start == 'B' || r.left() > 0) {
                const char side = r.one_of("colour to move", "WZ");
                const auto board = r.take(std::size_t(G::kSquares), "board");
                for (std::size_t i = 0; i < board.size(); ++i)
                    if (std::string_view("ewzWZ").find(board[i]) == std::string_view::npos)
                        throw ParseError("GAMEREQ: bad board character '" +
                                         printable(board.substr(i, 1)) + "' on square " +
                                         std::to_string(i + 1) + " (want e, w, z, W or Z)");
                if (m.start == 'B') {
                    m.to_move = side;
                    m.board = std::string(board);
                }
            }
            r.end();
            return m;
        }
        case 'A': {
            Reader r(rest, "GAMEACC");
            GameAccept m;
            m.follower = r.name("follower name");
            m.code = r.one_of("acceptance code", "01239");
            r.end();
            return m;
        }
        case 'M': {
            Reader r(rest, "MOVE");
            MoveMessage m;
            m.seconds = r.number(4, "time");
            m.from = r.square("from");
            m.to = r.square("to");
            const int n = r.number(2, "number captured");
            if (n > kMaxCaptured)
                throw ParseError("MOVE: number captured " + std::to_string(n) +
                                 " out of range 0.." + std::to_string(kMaxCaptured));
            if (r.left() != std::size_t(2 * n))
                throw ParseError("MOVE: number captured " + std::to_string(n) + " wants " +
                                 std::to_string(2 * n) + " characters of captured squares, " +
                                 std::to_string(r.left()) + " given");
            for (int i = 0; i < n; ++i) {
                const int c = r.square("captured");
                if (std::find(m.captured.begin(), m.captured.end(), c) != m.captured.end())
                    throw ParseError("MOVE: captured square " + std::to_string(c) +
                                     " given twice");
                m.captured.push_back(c);
            }
            r.end();
            return m;
        }
        case 'E': {
            Reader r(rest, "GAMEEND");
            GameEnd m;
            m.reason = r.one_of("reason", "0123");
            m.stop = r.one_of("stop code", "01");
            r.end();
            return m;
        }
        case 'C': {
            for (char c : rest)
                if (c == '\0') throw ParseError("CHAT: NUL byte in text");
            return Chat{std::string(rest)};
        }
        case 'B': {
            Reader r(rest, "BACKREQ");
            BackRequest m;
            m.move_number = r.number(3, "move number");
            m.to_move = r.one_of("colour to move", "WZ");
            r.end();
            return m;
        }
        case 'K': {
            Reader r(rest, "BACKACC");
            BackAccept m;
            m.code = r.one_of("acceptance code", "012");
            r.end();
            return m;
        }
        default:
            throw ParseError("unknown DXP header '" + printable(text.substr(0, 1)) + "' in '" +
                             printable(text) + "'");
    }
}

std::string move_message_text(const MoveMessage& m) {
    std::string s = std::to_string(m.from);
    s += m.captured.empty() ? '-' : 'x';
    s += std::to_string(m.to);
    if (!m.captured.empty()) {
        s += " (";
        for (std::size_t i = 0; i < m.captured.size(); ++i) {
            if (i) s += ',';
            s += std::to_string(m.captured[i]);
        }
        s += ')';
    }
    return s;
}

std::string describe(const Message& m) {
    return std::visit(
        [](const auto& x) -> std::string {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, GameRequest>)
                return "GAMEREQ from '" + x.initiator + "'";
            else if constexpr (std::is_same_v<T, GameAccept>)
                return "GAMEACC from '" + x.follower + "' code " + x.code;
            else if constexpr (std::is_same_v<T, MoveMessage>)
                return "MOVE " + move_message_text(x);
            else if constexpr (std::is_same_v<T, GameEnd>)
                return std::string("GAMEEND reason ") + x.reason + " stop " + x.stop;
            else if constexpr (std::is_same_v<T, Chat>)
                return "CHAT '" + x.text + "'";
            else if constexpr (std::is_same_v<T, BackRequest>)
                return "BACKREQ to move " + std::to_string(x.move_number);
            else
                return std::string("BACKACC code ") + x.code;
        },
        m);
}

char colour_char(Color c) { return c == Color::kWhite ? 'W' : 'Z'; }

Color colour_of(char c) {
    if (c == 'W') return Color::kWhite;
    if (c == 'Z') return Color::kBlack;
    throw ParseError("bad DXP colour '" + printable(std::string_view(&c, 1)) + "' (want W or Z)");
}

std::string dxp_board(const Board& p) {
    std::string s(1, colour_char(p.side));
    for (int n = 1; n <= G::kSquares; ++n) {
        const auto m = G::mask_of_square(n);
        const bool king = (p.kings & m) != 0;
        if (p.pieces[0] & m)
            s += king ? 'W' : 'w';
        else if (p.pieces[1] & m)
            s += king ? 'Z' : 'z';
        else
            s += 'e';
    }
    return s;
}

Board position_from_dxp(char colour, std::string_view board) {
    const Color side = colour_of(colour);
    if (board.size() != std::size_t(G::kSquares))
        throw ParseError("DXP board of " + std::to_string(board.size()) +
                         " squares (want 50)");
    std::string white, black;
    for (int n = 1; n <= G::kSquares; ++n) {
        const char c = board[std::size_t(n - 1)];
        std::string* list = c == 'w' || c == 'W' ? &white : c == 'z' || c == 'Z' ? &black : nullptr;
        if (!list) {
            if (c == 'e') continue;
            throw ParseError("bad DXP board character '" + printable(std::string_view(&c, 1)) +
                             "' on square " + std::to_string(n) + " (want e, w, z, W or Z)");
        }
        if (!list->empty()) *list += ',';
        if (c == 'W' || c == 'Z') *list += 'K';
        *list += std::to_string(n);
    }
    const Board p = parse_fen<International>(std::string(side == Color::kWhite ? "W" : "B") +
                                             ":W" + white + ":B" + black);
    check_game_start(p);
    return p;
}

void check_game_start(const Board& p) {
    if (p.white() == 0 || p.black() == 0)
        throw ParseError(std::string(p.white() == 0 ? "White" : "Black") +
                         " has no piece: the game would be over before it starts");
    FixedList<BoardMove, kMaxMoves> list;
    generate_paths<International>(p, list);
    if (list.empty())
        throw ParseError(std::string(p.side == Color::kWhite ? "White" : "Black") +
                         " to move has no legal move: the game would be over before it starts");
}

MoveMessage move_message(const BoardMove& m, int seconds) {
    MoveMessage out;
    out.seconds = std::clamp(seconds, 0, 9999);
    out.from = G::square_of_bit(m.move.from);
    out.to = G::square_of_bit(m.move.to);
    for (const auto& name : captured_names<International>(m)) out.captured.push_back(std::stoi(name));
    return out;
}

BoardMove legal_move(const Board& p, const MoveMessage& m) {
    typename G::Bitboard captured = 0;
    for (int c : m.captured) {
        if (c < 1 || c > G::kSquares)
            throw ParseError("illegal move " + move_message_text(m) + ": no square " +
                             std::to_string(c));
        captured |= G::mask_of_square(c);
    }
    if (popcount(captured) != int(m.captured.size()))
        throw ParseError("illegal move " + move_message_text(m) + ": a captured square twice");
    if (m.from < 1 || m.from > G::kSquares || m.to < 1 || m.to > G::kSquares)
        throw ParseError("illegal move " + move_message_text(m) + ": square out of range");
    FixedList<BoardMove, kMaxMoves> list;
    generate_paths<International>(p, list);
    const int from = G::bit_of_square(m.from), to = G::bit_of_square(m.to);
    for (const auto& pm : list)
        if (pm.move.from == from && pm.move.to == to && pm.move.captured == captured) return pm;
    throw ParseError("illegal move " + move_message_text(m) + " in " + to_fen<International>(p));
}

}  // namespace dambit::dxp
