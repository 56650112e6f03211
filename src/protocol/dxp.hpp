// DXP (DamExchange protocol, Frank Mesander): the messages, their text form, and the board and
// move conversions for International draughts.
//
// A message is ASCII text ending in a NUL byte on a TCP stream; its first character is the
// header, the rest fixed-width fields, numbers as zero-padded decimal. encode() gives the text
// without the NUL; decode() reads it back and throws ParseError naming the offending field.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/rules.hpp"

namespace dambit::dxp {

constexpr int kDefaultPort = 27531;
constexpr std::size_t kNameWidth = 32;
constexpr std::size_t kMaxMessage = 1024;  // the longest message accepted, without the NUL
constexpr int kMaxCaptured = 20;           // 20 pieces of a side: the most a capture can take

// 'R': the initiator asks for a game.
struct GameRequest {
    std::string version = "01";
    std::string initiator;      // at most 32 characters; trailing spaces are not kept
    char follower_colour = 'Z';  // 'W' white, 'Z' black
    int minutes = 0;            // thinking time per side, 0..999
    int moves = 0;              // moves in that time, 0..999 (0: the whole game)
    char start = 'A';           // 'A' the start position, 'B' the position below
    char to_move = 'W';         // with 'B': the side to move ('W' or 'Z')
    std::string board;          // with 'B': 50 characters, squares 1..50 (e w z W Z)
};

// 'A': the follower answers.
struct GameAccept {
    std::string follower;
    char code = '0';  // '0' accepted, '1' not this protocol version, '2' not this game (its
                      // time or start position) but another one, '3' no game at all
};

// 'M': a move.
struct MoveMessage {
    int seconds = 0;  // time used for the move, 0..9999
    int from = 0, to = 0;
    std::vector<int> captured;  // squares of the captured pieces, in any order
};

// 'E': the game ends.
struct GameEnd {
    char reason = '0';  // from the sender's side: '0' unknown, '1' I lose, '2' draw, '3' I win
    char stop = '0';    // '0' next game preferred, '1' no next game
};

// 'C': free text, of at most kMaxChat characters as sent (the DXP specification's CHAT holds 1 to
// 126; pydraughts's reader gives up past 128): a longer text is cut there. One received may be
// longer (up to kMaxMessage).
constexpr std::size_t kMaxChat = 126;
struct Chat {
    std::string text;
};

// 'B': take back to a move.
struct BackRequest {
    int move_number = 1;  // 1..999
    char to_move = 'W';
};

// 'K': the answer to a BACKREQ.
struct BackAccept {
    char code = '0';  // '0' accepted, '1' not supported, '2' other
};

using Message =
    std::variant<GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept>;

// The text of a message, without the NUL. Names are cut or padded to 32 characters and NUL
// bytes in text are replaced by spaces; a number that does not fit its field throws
// std::invalid_argument (move seconds above 9999 are written 9999).
std::string encode(const Message& m);

// Reads a message (without its NUL). Throws ParseError naming the field for an unknown header,
// a short or long message, a non-digit in a number field, a bad colour, board character,
// square or code, a captured count out of range or not matching the length, or text over
// kMaxMessage characters.
Message decode(std::string_view text);

// Text from the wire made safe to print: non-printable bytes as \xNN, cut after `limit`
// characters (a CHAT is shown whole: a message is at most 1024 characters).
std::string printable(std::string_view s, std::size_t limit = 40);

// A one-line description of a message, for logs ("MOVE 32-28 (12 s)").
std::string describe(const Message& m);

// --- International boards and moves --------------------------------------------------------

using Board = Position<International>;
using BoardMove = PathMove<International::Geometry>;

// The side to move ('W' or 'Z') followed by the 50 squares.
std::string dxp_board(const Board& p);
// The position of a board of 50 squares with `colour` ('W' or 'Z') to move. Throws ParseError
// for a bad colour, length or character, what parse_fen refuses (a man on its promotion row), or
// what check_game_start refuses.
Board position_from_dxp(char colour, std::string_view board);
// A game can start from `p`: both sides have a piece and the side to move a legal move (else the
// game would be over before its first move). Throws ParseError saying which is missing.
void check_game_start(const Board& p);

char colour_char(Color c);  // 'W' or 'Z'
Color colour_of(char c);    // throws ParseError for anything but 'W' and 'Z'

// The MOVE message of m (captured squares in the order they are taken).
MoveMessage move_message(const BoardMove& m, int seconds);
// The legal move of p that a MOVE names: the same from, to and set of captured squares (paths
// that differ only in their turning squares are the same move). Throws ParseError("illegal move
// ...") when there is none.
BoardMove legal_move(const Board& p, const MoveMessage& m);
// A MOVE's move as text: "32-28", "28x17 (22,23)".
std::string move_message_text(const MoveMessage& m);

}  // namespace dambit::dxp
