// PDN 3.0 game files, read a game at a time from a stream in bounded memory (docs/pdn.md).
//
// The reader knows the grammar, not the rules: it splits the text into games and gives each its
// tags, its main-line move texts with where they stand, its result and the syntax errors found in
// it. src/pdn/game.hpp replays the moves with the rules of the game's variant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dambit::pdn {

// Where a token begins: line and column, both from 1; a column counts bytes (a tab is one).
struct Location {
    int line = 0;
    int column = 0;
};

// What kind of error a Problem is (written in --json output, so the names are an interface; the
// names in reader.cpp follow this order).
enum class ProblemKind {
    kIllegalMove,     // a move that names no legal move
    kAmbiguousMove,   // a short capture that names several legal moves
    kBadMove,         // a move text that cannot be read (unknown square, bad separators)
    kBadTag,          // a tag that is not [Name "value"]
    kTruncated,       // the file ends inside a comment, a tag or a variation
    kSyntax,          // anything else the grammar does not allow (a stray '}', an unknown word)
    kBadFen,          // a FEN tag dambit cannot read
    kBadGameType,     // a GameType tag that is malformed or names a variant dambit does not play
    kResultMismatch,  // the result at the end of the moves differs from the Result tag
    kTooLong,         // a token or a game beyond the reader's limits
    kNoResult,        // a game whose moves end without a result, with no Result tag either
    kEncoding,        // a file in another encoding than UTF-8 (a UTF-16 byte order mark)
};
std::string_view kind_name(ProblemKind k);

// One error: where, what kind, the token it is about (may be empty) and a one-line message that
// names the token.
struct Problem {
    Location at;
    ProblemKind kind = ProblemKind::kSyntax;
    std::string token;
    std::string message;
};

struct Tag {
    std::string name, value;  // value with its escapes undone
    Location at;              // of the '['
};

// A main-line move's own annotations, as the game gives them.
struct Annotation {
    // Its move strength: "!", "?", "!!", "??", "!?", "?!" (or another run of '!' and '?'), "(!)"
    // read as "!"; empty for none. A second strength on the same move is kept as its NAG.
    std::string strength;
    std::vector<std::string> nags;  // its NAGs as written, in file order: "$1", "$14"
    bool empty() const { return strength.empty() && nags.empty(); }
    friend bool operator==(const Annotation&, const Annotation&) = default;
};

// The NAG of a standard move strength ("!" $1, "?" $2, "!!" $3, "??" $4, "!?" $5, "?!" $6), or
// "" for another run of '!' and '?'.
std::string_view strength_nag(std::string_view strength);

struct MoveText {
    std::string text;  // as written, without move number or annotation: "32-28", "c3:e5:g3"
    Location at;
    std::string comment;  // the main line's comments after it (see RawGame::comment)
    Annotation own;       // its strength and NAGs (counted with the comments against kMaxComments)
};

// The results PDN writes at the end of a game's moves, and in the Result tag.
enum class Outcome { kWhiteWins, kBlackWins, kDraw, kDoubleForfeit, kUnknown };
// The outcome of a result text: "1-0" and "2-0" a white win, "0-1" and "0-2" a black win,
// "1/2-1/2" and "1-1" a draw (also "½-½", in UTF-8 or Latin-1, as some databases write it), "0-0"
// a double forfeit, "*" unknown; nullopt for anything else.
std::optional<Outcome> outcome_of(std::string_view result);
// A result as dambit writes it: "½-½" becomes "1/2-1/2", the others stay as they are.
std::string canonical_result(std::string_view result);

// A variation (RAV): moves in parentheses that stand for the move before the '(' and what
// follows it, in the main line or in another variation.
struct Variation {
    int parent = -1;            // the line it is in: -1 the main line, else a variation's index
    std::size_t replaces = 0;   // the index of the move of that line it is played instead of
    Location at;                // its '('
    std::vector<MoveText> moves;  // the texts and places only (no comments or annotations)
    bool closed = false;          // its ')' was read (an unclosed one is a problem of its own)
};

// A game as read, before any rule is applied.
struct RawGame {
    int number = 0;               // 1 for the first game of the stream
    Location at;                  // where its first tag or movetext token stands
    std::vector<Tag> tags;        // in file order
    std::vector<MoveText> moves;  // the main line
    // Its variations, each after the one it is in, when the reader keeps them (at most
    // kMaxVariationMoves variations and moves in all).
    std::vector<Variation> variations;
    // The comments after its tags and before its first move: the text between the braces, each
    // run of blanks and line breaks one space, several comments joined by a space (at most
    // kMaxComments characters of comments a game are kept; the rest are read and left out, as
    // are the comments inside variations and after the result).
    std::string comment;
    // The number written before its first main-line move ("23." or "23..."), 0 when none.
    int first_number = 0;
    std::string result;           // the result token that ended the moves; empty if none
    Location result_at;
    std::vector<Problem> problems;  // syntax errors, in file order (at most kMaxProblems)
    int more_problems = 0;          // syntax errors found beyond kMaxProblems
    Location more_at;               // where the first of those stands

    // The value of the first tag named `name`, if any.
    const Tag* tag(std::string_view name) const;
    // The first problem that leaves its moves in doubt: a truncated file, a token or game past
    // the reader's limits, a file in UTF-16, or more problems than are kept. A bad tag, a stray
    // token or comments past kMaxComments do not: check reports those, and fen, analyse and a
    // book from games replay the game past them (saying so: passed_over in pdn/game.hpp).
    std::optional<Problem> doubtful_moves() const;
    // The line that stands for the problems beyond kMaxProblems (more_problems > 0).
    Problem more_problem() const;
};

// printable(s) (core/notation.hpp) cut to kShown bytes, with "..." after it when longer: a token
// in a message. The cut falls between two UTF-8 characters (a Cyrillic letter is two bytes).
inline constexpr std::size_t kShown = 60;
std::string shown(std::string_view s);

// The reader's limits, which keep its memory bounded whatever the input.
inline constexpr std::size_t kMaxToken = 256;           // characters in one word of movetext
inline constexpr std::size_t kMaxTagValue = 64 * 1024;  // characters in one tag value
inline constexpr std::size_t kMaxGameMoves = 4096;      // main-line moves of one game
inline constexpr std::size_t kMaxVariationMoves = 16384;  // variations and their moves, a game
inline constexpr std::size_t kMaxTags = 256;            // tags of one game
inline constexpr std::size_t kMaxProblems = 16;         // syntax errors kept per game
// Characters of comments kept per game, the moves' strengths and NAGs among them; beyond it, the
// comments are left out with one problem (too-long, token "{").
inline constexpr std::size_t kMaxComments = 64 * 1024;
inline constexpr std::size_t kMaxStrength = 7;  // characters of a move strength kept

// Reads PDN games from a stream, one at a time. Never throws for bad input: what the grammar does
// not allow becomes a Problem of the game it stands in, and reading goes on after it.
class Reader {
public:
    // `keep_variations`: keep the move texts of variations (RawGame::variations), for pdn check
    // and pdn analyse --pdn (which writes them back); the other commands read them and leave them
    // out.
    explicit Reader(std::istream& in, bool keep_variations = false);
    // The next game, or false at the end of the stream. `game` is overwritten (its vectors keep
    // their capacity, so reading a file reuses them).
    bool next(RawGame& game);
    // Bytes consumed so far.
    std::uint64_t bytes() const { return consumed_; }

private:
    // The character `k` places ahead, or -1 past the end of the stream.
    int peek(std::size_t k = 0) {  // the buffered case inline: a character at a time
        return pos_ + k < end_ ? static_cast<unsigned char>(buffer_[pos_ + k]) : refill(k);
    }
    int refill(std::size_t k);  // peek when the buffer holds fewer than k + 1 characters
    // Consumes one character, keeping line and column.
    int get();
    Location here() const { return {line_, column_}; }
    void problem(RawGame& g, Location at, ProblemKind kind, std::string token, std::string message);
    void read_tag(RawGame& g);
    // Whether the tag at the reader's '[' has a name that `g` has already: a game without moves
    // (a forfeit, a game whose result is only in its tag) has ended before it.
    bool repeats_tag(const RawGame& g);
    // Counts a variation or a move of one against kMaxVariationMoves: false past it (the game's
    // problem says so once, at `at`, naming `token`).
    bool keep_variation(RawGame& g, Location at, std::string_view token);
    void read_comment(RawGame& g);
    // Whether `chars` more characters of comments and annotations fit in kMaxComments; when they
    // do not, the game's problem says so (once) at `at`.
    bool keep_comment(RawGame& g, std::size_t chars, Location at);
    // Keeps a strength (`nag` false) or a NAG written after the last move of the main line.
    void annotate(RawGame& g, std::string_view text, bool nag, Location at);
    void skip_line();
    std::string read_word();
    // Handles one word of movetext standing at `at`.
    void word(RawGame& g, std::string_view w, Location at);
    void begin_game(RawGame& g, Location at);

    std::istream& in_;
    std::vector<char> buffer_;
    std::size_t pos_ = 0, end_ = 0;
    bool eof_ = false;
    int line_ = 1, column_ = 1;
    std::uint64_t consumed_ = 0;
    int games_ = 0;

    // The state of the game being read.
    bool started_ = false;         // a tag or movetext token of it has been seen
    bool in_moves_ = false;        // a movetext token other than a comment has been seen
    bool ended_ = false;           // its result token has been read
    bool too_many_moves_ = false;  // it has more than kMaxGameMoves moves
    bool too_many_tags_ = false;   // it has more than kMaxTags tags (reported once, as moves)
    std::size_t comment_chars_ = 0;  // characters of its comments kept
    bool comments_cut_ = false;      // its comments went past kMaxComments (reported once)
    std::vector<Location> open_;   // the '(' of each open variation
    // For each open variation, its index in RawGame::variations (-1: not kept: it stands before
    // any move, in a variation not kept, or past kMaxVariationMoves).
    std::vector<int> open_variation_;
    bool keep_variations_ = false;
    std::size_t variation_moves_ = 0;  // variations and moves kept in the game's variations
    bool too_many_variation_moves_ = false;  // reported once
};

}  // namespace dambit::pdn
