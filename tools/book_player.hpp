// The opening book of a front end (--book FILE, cli::book_option) as a player's book.
#pragma once

#include <memory>
#include <stdexcept>

#include "book/play.hpp"
#include "cli.hpp"

namespace dambit::cli {

// The book player of `option` (nullptr when it names no book); `option_name` names the option in
// errors (UsageError: the book cannot be read, is corrupt or is for another variant).
template <class R>
std::unique_ptr<book::BookPlayer<R>> book_player(const BookOption& option,
                                                 const std::string& option_name,
                                                 std::uint64_t seed = 1) {
    if (option.file.empty()) return nullptr;
    try {
        return std::make_unique<book::BookPlayer<R>>(
            book::load_book<R>(option.file), book::PlayOptions{option.max_ply, option.margin, seed});
    } catch (const std::runtime_error& e) {
        // "--a book=" names its value too ("--a book=FILE: ..."); "--book" gives it in the text.
        const bool setting = !option_name.empty() && option_name.back() == '=';
        throw UsageError(option_name + (setting ? option.file : "") + ": " + e.what());
    }
}

}  // namespace dambit::cli
