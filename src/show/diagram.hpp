// Pictures of a position: a text diagram for the terminal and an SVG drawing for documents.
//
// A position is first turned into a Board (what stands on each square and how the squares are
// named); the drawing itself does not depend on the variant.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"

namespace dambit::show {

// What one square of the board holds, as a character: ' ' a light square, '.' an empty dark
// square, 'w' / 'W' a white man / king, 'b' / 'B' a black man / king.
struct Board {
    int size = 8;            // squares per side
    bool algebraic = false;  // squares named a1..h8 (else numbered 1..50)
    bool white_to_move = true;
    // cells[rank][file], rank 0 = White's back row (rank 1), file 0 = file a.
    std::vector<std::string> cells;
    // The dark squares' numbers (PDN numbering, from Black's side), 0 on light squares.
    std::vector<std::vector<int>> numbers;
    // Squares to mark (the last move's start and end), as (file, rank); empty when none.
    std::vector<std::pair<int, int>> marked;
};

template <class R>
Board board_of(const Position<R>& p) {
    using G = typename R::Geometry;
    Board b;
    b.size = G::kSize;
    b.algebraic = R::kNotation == Notation::kAlgebraic;
    b.white_to_move = p.side == Color::kWhite;
    b.cells.assign(std::size_t(G::kSize), std::string(std::size_t(G::kSize), ' '));
    b.numbers.assign(std::size_t(G::kSize), std::vector<int>(std::size_t(G::kSize), 0));
    for (int n = 1; n <= G::kSquares; ++n) {
        const auto c = G::coord_of_square(n);
        const auto m = G::mask_of_square(n);
        char piece = '.';
        if (p.pieces[0] & m) piece = (p.kings & m) ? 'W' : 'w';
        if (p.pieces[1] & m) piece = (p.kings & m) ? 'B' : 'b';
        b.cells[std::size_t(c.rank)][std::size_t(c.file)] = piece;
        b.numbers[std::size_t(c.rank)][std::size_t(c.file)] = n;
    }
    return b;
}

// Marks the start and end squares of move `m` (bit indices of R's geometry).
template <class R>
void mark_move(Board& b, const Move<typename R::Geometry>& m) {
    using G = typename R::Geometry;
    for (const int bit : {int(m.from), int(m.to)}) {
        const auto c = G::coord_of_bit(bit);
        b.marked.emplace_back(c.file, c.rank);
    }
}

// The board as text, White's side at the bottom (at the top with `flip`). Algebraic boards have
// rank numbers on the left and file letters below; numbered boards show the number of each empty
// dark square in place and the numbers of each row on the right.
std::string text_diagram(const Board& b, bool flip = false);

// The board as a standalone SVG document, `pixels` wide and high.
std::string svg_diagram(const Board& b, bool flip = false, int pixels = 400);

}  // namespace dambit::show
