// Opening books (src/book/): negamax values and book moves on a hand-made book, the drop-out
// order, the choice of a book move, the files, and a small book built by search checked move by
// move against the generator and value by value against negamax over its children.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "book/build.hpp"
#include "book/file.hpp"
#include "book/play.hpp"
#include "core/notation.hpp"

using namespace dambit;
using namespace dambit::book;

namespace {

template <class R>
Position<R> after(const Position<R>& p, const char* move) {
    return p.play(parse_move<R>(p, move).move);
}

Record searched(const Position<Russian>& p, int value, std::uint8_t flags = 0) {
    Record r = record_of<Russian>(p);
    r.value = std::int16_t(value);
    r.flags = std::uint8_t(Record::kSearched | flags);
    return r;
}

std::string temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() / name).string();
}

// Every record of `b`: its book moves are legal moves of its position, and its value is the best
// of its children's values seen from it (a leaf: its own search value, or its games' result).
template <class R>
void check_consistent(const Book<R>& b) {
    using G = typename R::Geometry;
    for (std::size_t i = 0; i < b.size(); ++i) {
        const Position<R> p = position_of<R>(b.records()[i]);
        FixedList<PathMove<G>, kMaxMoves> legal;
        generate_paths<R>(p, legal);
        const auto moves = b.moves(p);
        search::Score best = -search::kInfinite;
        for (const auto& m : moves) {
            CHECK(std::any_of(legal.begin(), legal.end(),
                              [&](const auto& pm) { return pm.move == m.move.move; }));
            const Record* child = b.find(p.play(m.move.move));
            REQUIRE(child);
            const auto v = from_parent(b.value(std::size_t(child - &b.records()[0])));
            CHECK(m.value == v);
            best = std::max(best, v);
        }
        if (moves.empty()) {
            const Record& r = b.records()[i];
            if (!legal.empty())
                CHECK(b.value(i) == ((r.flags & Record::kSearched) ? r.value : games_value(r)));
        } else {
            // A position from games with legal moves outside the book: its own search value
            // stands for those; never searched, its games' value does when the book moves are
            // proven lost (the moves outside may hold).
            const Record& r = b.records()[i];
            const bool partial =
                !(r.flags & Record::kExpanded) && int(moves.size()) < legal.size();
            search::Score expected = best;
            if (partial && (r.flags & Record::kSearched))
                expected = std::max(best, search::Score(r.value));
            else if (partial && search::is_loss(best))
                expected = games_value(r);
            CHECK(b.value(i) == expected);
        }
        if (b.records()[i].flags & Record::kExpanded) CHECK(int(moves.size()) == legal.size());
    }
}

// A book of `positions` or more positions from the start, 300 nodes a position.
std::vector<Record> build_russian(Book<Russian>& b, std::size_t positions, int threads) {
    search::Limits limits;
    limits.nodes = 300;
    Searcher<Russian> searcher(threads, 1, nullptr, limits);
    add_searched<Russian>(b, searcher, {Position<Russian>::start()}, Record::kRoot);
    while (b.size() < positions)
        if (expand_next<Russian>(b, searcher).empty()) break;
    auto records = b.records();
    std::sort(records.begin(), records.end());
    return records;
}

}  // namespace

TEST_CASE("book values are negamax over the book moves", "[book]") {
    // The start, and two of White's first moves: after c3-d4 Black stands +50 (bad for White),
    // after a3-b4 Black stands -30. So White's best is a3-b4, worth +30, and c3-d4 is -50.
    const auto s = Position<Russian>::start();
    const auto d4 = after(s, "c3-d4"), b4 = after(s, "a3-b4");
    // The start is expanded (as far as this book goes: two of its moves).
    const Book<Russian> b({searched(s, 7, Record::kRoot | Record::kExpanded), searched(d4, 50),
                           searched(b4, -30)});
    REQUIRE(b.size() == 3);
    CHECK(b.value(0) == 30);  // not its own search value 7: it has book moves
    const auto moves = b.moves(s);
    REQUIRE(moves.size() == 2);
    CHECK(move_text<Russian>(moves[0].move) == "a3-b4");
    CHECK(moves[0].value == 30);
    CHECK(moves[1].value == -50);
    CHECK(moves[0].depth == 1);
    CHECK(moves[0].weight == 1);
    CHECK(b.moves(d4).empty());
    CHECK(b.height(0) == 1);
    CHECK(b.depth_reached() == 1);
    // Drop-out: a3-b4 is the best move (drop 0, cost 10 for its ply), c3-d4 drops 80 (cost 90):
    // b4 is expanded first.
    CHECK(b.next_to_expand() == 2);
}

TEST_CASE("a proven result is one ply further from the parent", "[book]") {
    CHECK(from_parent(search::win_in(3)) == search::loss_in(4));
    CHECK(from_parent(search::loss_in(0)) == search::win_in(1));
    CHECK(from_parent(-25) == 25);
}

TEST_CASE("a book move within the ply limit and the margin", "[book]") {
    const auto s = Position<Russian>::start();
    auto b = std::make_shared<Book<Russian>>(std::vector<Record>{
        searched(s, 0, Record::kRoot | Record::kExpanded), searched(after(s, "c3-d4"), 50),
        searched(after(s, "a3-b4"), -30), searched(after(s, "c3-b4"), -20)});
    // Values from White: b4 (a3) +30, b4 (c3) +20, d4 -50.
    BookPlayer<Russian> best(b, {30, 0, 1});
    for (int i = 0; i < 20; ++i) CHECK(move_text<Russian>(best.choose(s, 0)->move) == "a3-b4");
    CHECK(!best.choose(s, 30));  // past the ply limit
    CHECK(!best.choose(after(s, "e3-f4"), 0));  // not in the book
    BookPlayer<Russian> near(b, {30, 10, 1});
    std::set<std::string> seen;
    for (int i = 0; i < 200; ++i) seen.insert(move_text<Russian>(near.choose(s, 0)->move));
    CHECK(seen == std::set<std::string>{"a3-b4", "c3-b4"});  // never c3-d4, 80 below the best
}

TEST_CASE("a book player's draws in a game depend on the game, not on the games before it",
          "[book]") {
    // The book above with a margin that lets two moves through: a player that played other games
    // first draws in game 7 what a fresh player draws there (a match resumed, or played several
    // games at once, plays the same games).
    const auto s = Position<Russian>::start();
    auto b = std::make_shared<Book<Russian>>(std::vector<Record>{
        searched(s, 0, Record::kRoot | Record::kExpanded), searched(after(s, "c3-d4"), 50),
        searched(after(s, "a3-b4"), -30), searched(after(s, "c3-b4"), -20)});
    const auto draws = [&](BookPlayer<Russian>& p, std::uint64_t game) {
        p.new_game(game);
        std::string out;
        for (int i = 0; i < 40; ++i) out += move_text<Russian>(p.choose(s, 0)->move) + " ";
        return out;
    };
    BookPlayer<Russian> fresh(b, {30, 10, 1}), used(b, {30, 10, 1});
    for (std::uint64_t g = 0; g < 5; ++g) draws(used, g);
    CHECK(draws(used, 7) == draws(fresh, 7));
    // Another game draws otherwise (40 draws of two moves alike by chance: 2^-40).
    CHECK(draws(fresh, 8) != draws(fresh, 7));
}

TEST_CASE("a searched position from games is worth its search when its game moves are worse",
          "[book]") {
    // The start as a book from games and search makes it: searched (+10 for White), not
    // expanded, reached by two games that both went on with c3-d4. Its one book move is c3-d4;
    // its six other legal moves are outside the book.
    const auto s = Position<Russian>::start();
    const auto d4 = after(s, "c3-d4");
    auto games = [](Record r) {
        r.games = 2;
        r.points2 = 2;
        return r;
    };
    SECTION("the game move was proven lost: the search value stands, and no book move") {
        // After c3-d4 Black wins in 5 plies (as the search of a position 60 plies on, backed up
        // along the games, can make it): for White c3-d4 is lost in 6.
        auto b = std::make_shared<Book<Russian>>(std::vector<Record>{
            games(searched(s, 10, Record::kRoot)), games(searched(d4, search::win_in(5)))});
        const auto moves = b->moves(s);
        REQUIRE(moves.size() == 1);
        CHECK(moves[0].value == search::loss_in(6));
        CHECK(b->value(0) == 10);  // not a proven loss: White has six other moves
        CHECK(!BookPlayer<Russian>(b, {30, 0, 1}).choose(s, 0));
        CHECK(!BookPlayer<Russian>(b, {30, 100, 1}).choose(s, 0));
        check_consistent(*b);
    }
    SECTION("the game move is better than the search: it is the value and the book move") {
        auto b = std::make_shared<Book<Russian>>(std::vector<Record>{
            games(searched(s, 10, Record::kRoot)), games(searched(d4, -40))});
        CHECK(b->value(0) == 40);
        const auto m = BookPlayer<Russian>(b, {30, 0, 1}).choose(s, 0);
        REQUIRE(m);
        CHECK(move_text<Russian>(m->move) == "c3-d4");
        check_consistent(*b);
    }
    SECTION("within the margin of the search value the game move is still played") {
        auto b = std::make_shared<Book<Russian>>(std::vector<Record>{
            games(searched(s, 10, Record::kRoot)), games(searched(d4, -5))});
        CHECK(b->value(0) == 10);
        CHECK(!BookPlayer<Russian>(b, {30, 0, 1}).choose(s, 0));
        CHECK(BookPlayer<Russian>(b, {30, 5, 1}).choose(s, 0));
    }
    SECTION("a book from games alone: a loss through the games' moves is no proof") {
        // White e3 against Black c5, White to move. Two games went 1. e3-d4 c5:e3, and White,
        // with no piece left, lost both: after e3-d4 Black wins in 1, so e3-d4 is lost in 2. But
        // White had e3-f4 too, which no game played: the position is not lost by proof, and is
        // worth its games' result (-100: White lost them all). Black's win in 1 is a proof (one
        // winning move is enough), and so is White's loss with no move left.
        const auto p = parse_fen<Russian>("W:We3:Bc5");
        const auto c = after(p, "e3-d4"), l = after(c, "c5:e3");
        Record root = games(record_of<Russian>(p)), mid = games(record_of<Russian>(c)),
               end = games(record_of<Russian>(l));
        root.flags = Record::kRoot;
        root.points2 = 0;  // White, to move, lost both
        mid.points2 = 4;   // Black, to move, won both
        end.points2 = 0;
        const Book<Russian> b({root, mid, end});
        const auto at = [&](const Position<Russian>& q) {
            return b.value(std::size_t(b.find(q) - &b.records()[0]));
        };
        CHECK(at(l) == search::loss_in(0));
        CHECK(at(c) == search::win_in(1));
        CHECK(at(p) == -100);
        const auto moves = b.moves(p);
        REQUIRE(moves.size() == 1);
        CHECK(moves[0].value == search::loss_in(2));  // the move itself is proven lost
        check_consistent(b);
    }
    SECTION("a book from games alone keeps the negamax of the games' moves") {
        Record start = games(record_of<Russian>(s)), after_d4 = games(record_of<Russian>(d4));
        start.flags = Record::kRoot;
        after_d4.points2 = 4;  // Black, to move after c3-d4, won both games: +100 for Black
        const Book<Russian> b({start, after_d4});
        CHECK(b.value(0) == -100);
    }
}

TEST_CASE("book files and journals", "[book]") {
    const auto s = Position<Russian>::start();
    const std::string path = temp_path("dambit_book_test.book");
    std::vector<Record> records{searched(after(s, "c3-d4"), 50), searched(s, 7, Record::kRoot)};
    write_book(path, {"russian", "nodes=1"}, records);
    const BookFile f = read_book(path);
    CHECK(f.header.variant == "russian");
    CHECK(f.header.settings == "nodes=1");
    REQUIRE(f.records.size() == 2);
    CHECK(f.records[0].same_position(std::min(records[0], records[1])));
    CHECK(f.bytes == 128 + 2 * sizeof(Record) + 24);
    {  // one byte changed: the checksum fails
        std::FILE* out = std::fopen(path.c_str(), "r+b");
        std::fseek(out, 140, SEEK_SET);
        std::fputc(0x55, out);
        std::fclose(out);
        CHECK_THROWS_AS(read_book(path), std::runtime_error);
    }
    // Records no build writes, in a file whose checksum holds (edited, the checksum computed
    // again): refused, naming the position and what is wrong (a value of -32768 was read as a
    // loss and printed `loss -1766`).
    for (const auto& [edit, what] :
         std::vector<std::pair<std::function<void(Record&)>, std::string>>{
             {[](Record& r) { r.value = -32768; }, "position 1: value -32768 beyond a win (31000)"},
             {[](Record& r) { r.side = 2; }, "position 1: side to move 2"},
             {[](Record& r) { r.black |= r.white; }, "position 1: a square held by both sides"},
             {[](Record& r) {
                  const std::uint64_t empty = ~(r.white | r.black);
                  r.kings = empty & (~empty + 1);  // the lowest empty square
              },
              "position 1: a king on an empty square"},
             {[](Record& r) { r.games = 2, r.points2 = 5; }, "position 1: 5 half-points in 2 games"}}) {
        Record bad = searched(s, 7, Record::kRoot);
        edit(bad);
        write_book(path, {"russian", "nodes=1"}, {bad});
        CHECK_THROWS_WITH(read_book(path), path + ": corrupt book file (" + what + ")");
    }
    // A book of no positions reads back as none (an empty vector's null data() was handed to
    // memcpy: UBSan reported it for `book info`, `book probe` and the Hub's `book` parameter).
    write_book(path, {"russian", "nodes=1"}, {});
    const BookFile empty = read_book(path);
    CHECK(empty.records.empty());
    CHECK(empty.bytes == 128 + 24);
    std::filesystem::remove(path);

    std::vector<Record> back;
    {
        Journal j(path, {"russian", "nodes=1"}, back);
        CHECK(!j.resumed());
        j.append({records[0]});
        j.append({records[1]});
    }
    std::filesystem::resize_file(path + ".part", std::filesystem::file_size(path + ".part") - 3);
    {
        Journal j(path, {"russian", "nodes=1"}, back);  // the torn second block is dropped
        CHECK(j.resumed());
        REQUIRE(back.size() == 1);
        CHECK(back[0].same_position(records[0]));
    }
    CHECK_THROWS_AS(Journal(path, {"russian", "nodes=2"}, back), std::runtime_error);
    std::filesystem::remove(path + ".part");
}

TEST_CASE("a book built by search: legal, consistent, reproducible, resumable", "[book]") {
    Book<Russian> one;
    const auto records = build_russian(one, 60, 1);
    CHECK(records.size() >= 60);
    check_consistent(one);
    // Again with two threads: the same book.
    Book<Russian> two;
    CHECK(build_russian(two, 60, 2) == records);
    // Stopped at 25 positions, read back from its records (sorted, as a file has them) and
    // continued: the same book.
    Book<Russian> part;
    const auto first = build_russian(part, 25, 1);
    Book<Russian> resumed(first);
    CHECK(build_russian(resumed, 60, 1) == records);
}

TEST_CASE("a build expands one position at a time below 1000 positions, then more", "[book]") {
    CHECK(batch_size(0) == 1);
    CHECK(batch_size(999) == 1);
    CHECK(batch_size(1000) == 2);
    CHECK(batch_size(25'400) == 26);
}

TEST_CASE("a book from games: the positions played, their results, negamax", "[book]") {
    const std::string path = temp_path("dambit_book_games.pdn");
    {
        std::FILE* f = std::fopen(path.c_str(), "w");
        std::fputs("[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 1-0\n\n"
                   "[GameType \"25\"]\n1. c3-d4 f6-g5 1-0\n\n"
                   "[GameType \"25\"]\n1. a3-b4 b6-a5 0-1\n\n"
                   "[GameType \"25\"]\n1. c3-d4 *\n"  // no result: skipped
                   // Skipped, one for each reason: another variant, another start, an illegal
                   // move (Black's f6-e5 again), the file cut inside a comment.
                   "[GameType \"20\"]\n1. 32-28 19-23 2-0\n\n"
                   "[GameType \"25\"]\n[FEN \"W:W22:B12\"]\n1. c3-d4 1-0\n\n"
                   "[GameType \"25\"]\n1. c3-d4 f6-e5 2. f6-e5 1-0\n\n"
                   "[GameType \"25\"]\n1. c3-d4 f6-e5 {unclosed 1-0\n",
                   f);
        std::fclose(f);
    }
    const std::string cosmetic = temp_path("dambit_book_cosmetic.pdn");
    {
        // Two games that pdn check faults for a bad tag (an unescaped quote) and a stray token,
        // one without a GameType tag: read all the same, as pdn fen reads them.
        std::FILE* f = std::fopen(cosmetic.c_str(), "w");
        std::fputs("[Event \"NK \"Open\"\"]\n[GameType \"25\"]\n1. c3-d4 f6-e5 } 1-0\n\n"
                   "[GameType \"25\"]\n1. c3-d4 $ f6-g5 1-0\n\n"
                   "1. c3-d4 f6-g5 0-1\n",
                   f);
        std::fclose(f);
    }
    GamesRead read;
    const auto twice = records_from_games<Russian>({path}, 2, read);
    CHECK(read.games == 3);
    CHECK(read.skipped() == 5);
    CHECK(read.other == 2);
    CHECK(read.no_result == 1);
    CHECK(read.unplayed == 2);
    CHECK(read.first_unplayed.starts_with(path + ":20:"));  // the illegal move's line
    CHECK(read.first_unplayed.find("game 7") != std::string::npos);
    // Reached by two games or more: the start (3) and c3-d4 (2), where Black lost both.
    REQUIRE(twice.size() == 2);
    const Book<Russian> b2(twice);
    const auto s = Position<Russian>::start();
    const Record* d4 = b2.find(after(s, "c3-d4"));
    REQUIRE(d4);
    CHECK(d4->games == 2);
    CHECK(d4->points2 == 0);
    CHECK(b2.find(s)->points2 == 4);  // White, to move at the start, scored 2 of 3
    CHECK(b2.value(std::size_t(d4 - &b2.records()[0])) == -100);
    const auto moves = b2.moves(s);
    REQUIRE(moves.size() == 1);
    CHECK(moves[0].value == 100);
    CHECK(moves[0].weight == 2);

    const Book<Russian> b1(records_from_games<Russian>({path}, 1, read));
    CHECK(b1.size() == 8);  // the start, then 4, 2 and 1 more positions along the three games
    check_consistent(b1);
    const auto all = b1.moves(s);
    REQUIRE(all.size() == 2);
    CHECK(move_text<Russian>(all[1].move) == "a3-b4");
    CHECK(all[1].value == -100);  // Black won the only game after a3-b4
    CHECK(all[1].depth == 2);
    std::filesystem::remove(path);
    CHECK_THROWS_AS(records_from_games<Russian>({path}, 1, read), std::runtime_error);

    const auto kept = records_from_games<Russian>({cosmetic}, 3, read);
    CHECK(read.games == 3);
    CHECK(read.skipped() == 0);
    REQUIRE(kept.size() == 2);  // the start and c3-d4, reached by all three games
    // Read as an International book, the game without a GameType tag is International: its
    // first move is not, and it is skipped as one that cannot be replayed.
    records_from_games<International>({cosmetic}, 1, read);
    CHECK(read.games == 0);
    CHECK(read.other == 2);
    CHECK(read.unplayed == 1);
    std::filesystem::remove(cosmetic);
}

TEST_CASE("book: one of a dambit before 2026-12-07 is named as such, not as other settings",
          "[book]") {
    using dambit::book::BookHeader;
    // Books before 2026-12-07 named the --eval choice and no table size (docs/book.md); "give
    // them" could not be followed: no option gives `eval=auto` or no hash.
    const BookHeader old{"russian", "nodes=2000,eval=auto"};
    const BookHeader now{"russian", "nodes=2000,eval=xxh64:b20916de7cf9896b,hash=4"};
    CHECK(old.before_checksums());
    CHECK_FALSE(now.before_checksums());
    CHECK_FALSE(BookHeader{"russian", "search=none"}.before_checksums());
    CHECK(dambit::book::other_settings("bk.book", old, now, "build it again") ==
          "'bk.book' was written by a dambit before 2026-12-07 (its header names the --eval "
          "choice, nodes=2000,eval=auto, not the weights' checksum, and no table size): this one "
          "cannot extend it; build it again");
    const BookHeader other{"russian", "nodes=2001,eval=xxh64:b20916de7cf9896b,hash=4"};
    CHECK(dambit::book::other_settings("bk.book", other, now, "give them") ==
          "'bk.book' was built with other settings (nodes=2001, now nodes=2000); give them");
}
