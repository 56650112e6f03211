// Playing from an opening book: loading one for a variant, and the choice of a book move within a
// ply limit and a value margin (as Scan's book-ply and book-margin).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/book.hpp"

namespace dambit::book {

// Reads the book at `path` for the variant R; throws std::runtime_error (one line naming the
// file) when it cannot be read, is corrupt or is for another variant.
template <class R>
std::shared_ptr<const Book<R>> load_book(const std::string& path) {
    BookFile f = read_book(path);
    if (f.header.variant != R::kName)
        throw std::runtime_error(path + ": a " + f.header.variant + " book, not " +
                                 std::string(R::kName));
    auto book = std::make_shared<Book<R>>(f.records);
    if (book->size()) book->value(0);  // computes the values now: later reads only read
    return book;
}

// How a player uses a book.
struct PlayOptions {
    int max_ply = 30;         // the book is used for the first max_ply plies of a game
    int margin = 0;           // moves within this much of the best are chosen at random
    std::uint64_t seed = 1;   // of those random choices
};

// A player's book: the book (shared, read only), the options and the player's own random draws.
template <class R>
class BookPlayer {
    using G = typename R::Geometry;

public:
    BookPlayer(std::shared_ptr<const Book<R>> book, const PlayOptions& options)
        : book_(std::move(book)), options_(options), random_(options.seed) {}

    // Starts the draws of a new game from the seed and `game` (a number that tells the game from
    // the others: a match's opening and colour), so that the moves drawn in a game do not depend
    // on the games played before it by this player (a match resumed, or played several games at
    // once, draws the same).
    void new_game(std::uint64_t game) {
        random_.seed(options_.seed ^ (game * 0x9E3779B97F4A7C15ull));
    }

    // The book's move in `p`, the ply-th position of its game (0: the first), if the book is
    // still used there and holds the position: with margin 0 the best one (the first in
    // generation order of equal values), otherwise one drawn uniformly from those whose value is
    // at least the best minus the margin. None when the position's own search value, which
    // stands for the moves a book from games does not hold, is higher than the margin allows:
    // the engine then finds the move.
    std::optional<BookMove<R>> choose(const Position<R>& p, std::size_t ply) {
        if (ply >= std::size_t(options_.max_ply)) return std::nullopt;
        const auto moves = book_->moves(p);
        if (moves.empty()) return std::nullopt;
        const search::Score best = book_->value(std::size_t(book_->find(p) - &book_->records()[0]));
        if (moves[0].value < best - options_.margin) return std::nullopt;
        std::size_t near = 1;
        while (near < moves.size() && moves[near].value >= best - options_.margin) ++near;
        if (options_.margin == 0 || near == 1) return moves[0];
        return moves[std::uniform_int_distribution<std::size_t>(0, near - 1)(random_)];
    }

private:
    std::shared_ptr<const Book<R>> book_;
    PlayOptions options_;
    std::mt19937_64 random_;
};

}  // namespace dambit::book
