// A deliberately plain, square-by-square move generator used only to check the bitboard core.
//
// It shares no code with src/: the board is a 2D array board[rank][file], the rules are a table
// transcribed from RULES.md §3, and captures are found by walking the diagonals one square at a
// time. Speed is not a goal; being easy to check against the rule book is.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dambit::reference {

enum class Piece : std::uint8_t { kEmpty, kWhiteMan, kWhiteKing, kBlackMan, kBlackKing };
enum class Side : std::uint8_t { kWhite, kBlack };

// RULES.md §3, one field per row of the table.
struct Rules {
    enum class Precedence { kFree, kKingPriority, kMostPieces };
    enum class FarRowInCapture { kContinuesAsKing, kEndsMove, kPassesThrough };

    std::string_view name;
    int size;  // 8 or 10 squares per side
    bool men_capture_backward;
    bool flying_kings;
    Precedence precedence;
    FarRowInCapture far_row;
};

// The rules of a variant by its name ("russian", "czech", "brazilian", "pool", "english",
// "international"); throws std::invalid_argument for any other name.
const Rules& rules_named(std::string_view name);

struct Board {
    static constexpr int kMaxSize = 10;
    int size = 8;
    Side side = Side::kWhite;
    std::array<std::array<Piece, kMaxSize>, kMaxSize> cell{};  // cell[rank][file], a1 = [0][0]

    Piece at(int file, int rank) const { return cell[std::size_t(rank)][std::size_t(file)]; }
    Piece& at(int file, int rank) { return cell[std::size_t(rank)][std::size_t(file)]; }
};

// Square numbering of RULES.md §1: number 1 is the first dark square of the top rank (Black's
// side); numbers run left to right, top to bottom.
int square_number(int size, int file, int rank);  // 0 for a light or off-board square
void square_coords(int size, int number, int& file, int& rank);
int square_count(int size);

// Reads a FEN position string of RULES.md §1 (W/B side, numeric or algebraic squares, K for kings,
// ranges); enough for the tests, throws std::invalid_argument on anything it does not understand.
Board board_from_fen(int size, std::string_view fen);
std::string board_to_fen(const Board& b);

// A move as the rules see it. `captured` is a set of square numbers: bit n stands for square n.
struct Move {
    int from = 0, to = 0;
    std::uint64_t captured = 0;
    bool promotes = false;

    friend bool operator==(const Move&, const Move&) = default;
    friend auto operator<=>(const Move&, const Move&) = default;
};

std::string move_string(const Move& m);  // "from-to" or "fromxtox{captured,...}" plus "=K"

// Every legal move of the side to move. keep_duplicates: count every capture path (each path a
// separate entry); otherwise identical (from, to, captured, promotes) appear once. Sorted.
std::vector<Move> generate(const Rules& rules, const Board& board, bool keep_duplicates);

Board play(const Board& board, const Move& m);

std::uint64_t perft(const Rules& rules, const Board& board, int depth, bool keep_duplicates);

}  // namespace dambit::reference
