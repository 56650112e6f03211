// The bitboard core against the plain reference generator (tests/reference/) on random positions
// of every variant, and the reference itself against published perft counts and rule cases.
#include "reference/reference.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "perft/perft.hpp"

using namespace dambit;
namespace ref = dambit::reference;

namespace {

// ---- Conversions between the core and the reference (both number squares as RULES.md §1) ----

template <class R>
Position<R> to_core(const ref::Board& b) {
    using G = typename R::Geometry;
    Position<R> p;
    p.pieces = {};
    p.kings = 0;
    for (int n = 1; n <= G::kSquares; ++n) {
        int file = 0, rank = 0;
        ref::square_coords(b.size, n, file, rank);
        const ref::Piece piece = b.at(file, rank);
        if (piece == ref::Piece::kEmpty) continue;
        const bool white = piece == ref::Piece::kWhiteMan || piece == ref::Piece::kWhiteKing;
        p.pieces[white ? 0 : 1] |= G::mask_of_square(n);
        if (piece == ref::Piece::kWhiteKing || piece == ref::Piece::kBlackKing)
            p.kings |= G::mask_of_square(n);
    }
    p.side = b.side == ref::Side::kWhite ? Color::kWhite : Color::kBlack;
    return p;
}

template <class G>
ref::Move to_reference(const Move<G>& m) {
    ref::Move r;
    r.from = G::square_of_bit(m.from);
    r.to = G::square_of_bit(m.to);
    for_each_bit(m.captured, [&](int b) { r.captured |= std::uint64_t(1) << G::square_of_bit(b); });
    r.promotes = m.promotes();
    return r;
}

template <class R, Duplicates D>
std::vector<ref::Move> core_moves(const Position<R>& p) {
    MoveList<typename R::Geometry> list;
    generate<R, D>(p, list);
    std::vector<ref::Move> out;
    out.reserve(std::size_t(list.size()));
    for (const auto& m : list) out.push_back(to_reference(m));
    std::sort(out.begin(), out.end());
    return out;
}

std::string list_text(const std::vector<ref::Move>& moves) {
    std::string s = std::to_string(moves.size()) + " moves:";
    for (const ref::Move& m : moves) s += "\n    " + ref::move_string(m);
    return s;
}

// ---- Random legal positions ----

// Men never stand on their own promotion row; everything else is allowed, reachable or not.
ref::Board random_board(int size, std::mt19937_64& rng) {
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const int squares = size * size / 2, start = size == 8 ? 12 : 20;
    int men[2] = {0, 0}, kings[2] = {0, 0};
    switch (uniform(0, 3)) {
        case 0:  // dense with men, as in the opening and middle game
            for (int c = 0; c < 2; ++c) {
                men[c] = uniform(start * 2 / 3, start);
                kings[c] = uniform(0, 1);
            }
            break;
        case 1:  // sparse king endgame
            for (int c = 0; c < 2; ++c) {
                kings[c] = uniform(1, 3);
                men[c] = uniform(0, 2);
            }
            break;
        case 2:  // mixed
            for (int c = 0; c < 2; ++c) {
                men[c] = uniform(1, start * 2 / 3);
                kings[c] = uniform(0, 3);
            }
            break;
        default: {  // a few kings against many scattered pieces: long captures, many paths
            const int strong = uniform(0, 1);
            kings[strong] = uniform(1, 3);
            men[strong] = uniform(0, 4);
            men[1 - strong] = uniform(start / 2, start);
            kings[1 - strong] = uniform(0, 2);
            break;
        }
    }
    ref::Board b;
    b.size = size;
    b.side = uniform(0, 1) == 0 ? ref::Side::kWhite : ref::Side::kBlack;
    auto place = [&](ref::Piece piece, int forbidden_rank) {
        for (;;) {
            int file = 0, rank = 0;
            ref::square_coords(size, uniform(1, squares), file, rank);
            if (rank == forbidden_rank || b.at(file, rank) != ref::Piece::kEmpty) continue;
            b.at(file, rank) = piece;
            return;
        }
    };
    for (int i = 0; i < men[0]; ++i) place(ref::Piece::kWhiteMan, size - 1);
    for (int i = 0; i < men[1]; ++i) place(ref::Piece::kBlackMan, 0);
    for (int i = 0; i < kings[0]; ++i) place(ref::Piece::kWhiteKing, -1);
    for (int i = 0; i < kings[1]; ++i) place(ref::Piece::kBlackKing, -1);
    return b;
}

// ---- Core against reference over perft trees ----

// Walks the reference perft tree of a root; at every inner node compares the core's move list,
// move count and capture/move detection with the reference, and the core's successor position
// with the reference's.
template <class R, Duplicates D>
class TreeCheck {
public:
    explicit TreeCheck(const ref::Rules& rules) : rules_(rules) {}

    long compared() const { return compared_; }

    void check_root(const ref::Board& root, int depth) {
        root_fen_ = to_fen<R>(to_core<R>(root));
        const std::uint64_t leaves = walk(root, nullptr, depth);
        const std::uint64_t core = perft<R, D>(to_core<R>(root), depth);
        if (core != leaves) {
            FAIL(context() << "perft(" << depth << ") of " << root_fen_ << ": core " << core
                           << ", reference " << leaves);
        }
    }

private:
    static constexpr bool kKeep = D == Duplicates::kKeep;

    // Appended in place: GCC 12 at -O1 warns falsely (-Warray-bounds) on a temporary's operator+.
    std::string context() const {
        std::string text(R::kName);
        return text += kKeep ? " keep: " : " drop: ";
    }

    std::uint64_t walk(const ref::Board& b, const Position<R>* core_child, int depth) {
        const Position<R> p = to_core<R>(b);
        if (core_child && !(*core_child == p)) {
            FAIL(context() << "core play gives " << to_fen<R>(*core_child)
                           << ", reference play gives " << to_fen<R>(p) << " (tree of " << root_fen_
                           << ")");
        }
        const std::vector<ref::Move> expected = ref::generate(rules_, b, kKeep);
        const std::vector<ref::Move> actual = core_moves<R, D>(p);
        ++compared_;
        if (actual != expected) report(p, expected, actual);
        const bool capture = !expected.empty() && expected.front().captured != 0;
        if (count_moves<R, D>(p) != int(expected.size()) || has_capture(p) != capture ||
            has_move(p) != !expected.empty()) {
            FAIL(context() << to_fen<R>(p) << ": count_moves " << count_moves<R, D>(p)
                           << ", has_capture " << has_capture(p) << ", has_move " << has_move(p)
                           << "; reference " << list_text(expected));
        }
        if (depth == 1) return expected.size();
        // Both lists are sorted the same way, so the i-th core move is the i-th reference move.
        MoveList<typename R::Geometry> list;
        generate<R, D>(p, list);
        std::vector<std::pair<ref::Move, int>> order;
        for (int i = 0; i < list.size(); ++i) order.emplace_back(to_reference(list[i]), i);
        std::sort(order.begin(), order.end());
        std::uint64_t n = 0;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const Position<R> child = p.play(list[order[i].second]);
            n += walk(ref::play(b, expected[i]), &child, depth - 1);
        }
        return n;
    }

    void report(const Position<R>& p, const std::vector<ref::Move>& expected,
                const std::vector<ref::Move>& actual) {
        std::vector<ref::Move> missing, extra;
        std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                            std::back_inserter(missing));
        std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                            std::back_inserter(extra));
        FixedList<PathMove<typename R::Geometry>, kMaxMoves> paths;
        generate_paths<R, D>(p, paths);
        std::ostringstream s;
        s << context() << "move lists differ in " << to_fen<R>(p) << " (tree of " << root_fen_
          << ")\n  core " << list_text(actual) << "\n  core paths:";
        for (const auto& pm : paths) s << " " << move_text<R>(pm);
        s << "\n  reference " << list_text(expected) << "\n  only in reference "
          << list_text(missing) << "\n  only in core " << list_text(extra);
        FAIL(s.str());
    }

    const ref::Rules& rules_;
    long compared_ = 0;
    std::string root_fen_;
};

// Compares core and reference on random positions, each the root of a perft tree of depth 3,
// until each convention has compared `per_convention` move lists. Returns the number compared.
template <class R>
long compare_random(long per_convention, std::uint64_t seed) {
    const ref::Rules& rules = ref::rules_named(R::kName);
    std::mt19937_64 rng(seed);
    TreeCheck<R, Duplicates::kKeep> keep(rules);
    TreeCheck<R, Duplicates::kDrop> drop(rules);
    int keep_roots = 0, drop_roots = 0;
    for (; keep.compared() < per_convention; ++keep_roots)
        keep.check_root(random_board(rules.size, rng), 3);
    for (; drop.compared() < per_convention; ++drop_roots)
        drop.check_root(random_board(rules.size, rng), 3);
    const long n = keep.compared() + drop.compared();
    std::cout << "[reference] " << R::kName << ": " << n << " positions compared (keep "
              << keep.compared() << " in the trees of " << keep_roots << " random roots, drop "
              << drop.compared() << " in " << drop_roots << ")" << std::endl;
    return n;
}

// Move lists compared per variant and convention in the fast set (at least 100,000 per variant
// are required; the sanitizer build still finishes the [reference] set in well under a minute).
constexpr long kFastPerConvention = 150'000;
constexpr long kRequiredPerVariant = 100'000;

}  // namespace

// ---- The core against the reference on random positions ----

TEST_CASE("Russian core matches the reference on random positions", "[reference]") {
    CHECK(compare_random<Russian>(kFastPerConvention, 0x5275737369616eull) >= kRequiredPerVariant);
}
TEST_CASE("Czech core matches the reference on random positions", "[reference]") {
    CHECK(compare_random<Czech>(kFastPerConvention, 0x437a656368ull) >= kRequiredPerVariant);
}
TEST_CASE("Brazilian core matches the reference on random positions", "[reference]") {
    CHECK(compare_random<Brazilian>(kFastPerConvention, 0x4272617a696cull) >= kRequiredPerVariant);
}
TEST_CASE("Pool core matches the reference on random positions", "[reference]") {
    CHECK(compare_random<Pool>(kFastPerConvention, 0x506f6f6cull) >= kRequiredPerVariant);
}
TEST_CASE("English core matches the reference on random positions", "[reference]") {
    CHECK(compare_random<English>(kFastPerConvention, 0x456e676c697368ull) >= kRequiredPerVariant);
}
TEST_CASE("International core matches the reference on random positions", "[reference]") {
    CHECK(compare_random<International>(kFastPerConvention, 0x496e746cull) >= kRequiredPerVariant);
}

TEST_CASE("Core matches the reference on ten times as many random positions", "[reference][slow]") {
    // Other seeds than the fast cases, so these are new positions.
    compare_random<Russian>(10 * kFastPerConvention, 1);
    compare_random<Czech>(10 * kFastPerConvention, 2);
    compare_random<Brazilian>(10 * kFastPerConvention, 3);
    compare_random<Pool>(10 * kFastPerConvention, 4);
    compare_random<English>(10 * kFastPerConvention, 5);
    compare_random<International>(10 * kFastPerConvention, 6);
}

// ---- The reference against published numbers ----

namespace {

struct PublishedPerft {
    const char* variant;
    const char* fen;
    bool keep;
    std::vector<std::uint64_t> counts;  // perft at depth 1, 2, ...
};

void check_reference_perft(const PublishedPerft& row, int max_depth) {
    const ref::Rules& rules = ref::rules_named(row.variant);
    const ref::Board b = ref::board_from_fen(rules.size, row.fen);
    for (int d = 1; d <= max_depth && d <= int(row.counts.size()); ++d) {
        INFO(row.variant << " " << row.fen << (row.keep ? " keep" : " drop") << " depth " << d);
        CHECK(ref::perft(rules, b, d, row.keep) == row.counts[std::size_t(d - 1)]);
    }
}

// Start positions, /work/shared/perft-reference.md, source [dctl] (English keep also [OEIS]
// A133046, International drop also [BikDam]). The conventions first differ at depth 8 in Russian,
// Brazilian, Pool and International, at depth 12 in Czech and English (RULES.md §4).
const std::vector<PublishedPerft>& start_rows() {
    static const std::vector<PublishedPerft> table = [] {
        const char* k8 = "W:W21-32:B1-12";
        const char* k10 = "W:W31-50:B1-20";
        std::vector<PublishedPerft> t;
        auto add = [&](const char* variant, const char* fen, std::vector<std::uint64_t> common,
                       std::vector<std::uint64_t> keep, std::vector<std::uint64_t> drop) {
            for (bool k : {true, false}) {
                std::vector<std::uint64_t> counts = common;
                for (auto n : k ? keep : drop) counts.push_back(n);
                t.push_back({variant, fen, k, counts});
            }
        };
        add("russian", k8, {7, 49, 302, 1469, 7482, 37986, 190146}, {929905, 4570667},
            {929899, 4570586});
        add("czech", k8, {7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671}, {}, {});
        add("brazilian", k8, {7, 49, 302, 1469, 7473, 37628, 187302}, {907836, 4431847},
            {907830, 4431766});
        add("pool", k8, {7, 49, 302, 1469, 7482, 37986, 190146}, {929902, 4570615},
            {929896, 4570534});
        add("english", k8, {7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680}, {}, {});
        add("international", k10, {9, 81, 658, 4265, 27117, 167140, 1049442}, {6483971}, {6483961});
        return t;
    }();
    return table;
}

// Depth checked in the fast set: 8 where the conventions first differ there, else 7 on 8x8;
// 6 on 10x10. The slow set checks the last published depth of each row above.
int fast_depth(const PublishedPerft& row) {
    const std::string_view v = row.variant;
    if (v == "international") return 6;
    return v == "czech" || v == "english" ? 7 : 8;
}

}  // namespace

TEST_CASE("Reference perft of the start positions matches the published counts", "[reference]") {
    for (const PublishedPerft& row : start_rows()) check_reference_perft(row, fast_depth(row));
}

TEST_CASE("Reference perft of the start positions, deeper", "[reference][slow]") {
    for (const PublishedPerft& row : start_rows()) {
        const ref::Rules& rules = ref::rules_named(row.variant);
        const ref::Board b = ref::board_from_fen(rules.size, row.fen);
        const int depth = int(row.counts.size());
        INFO(row.variant << (row.keep ? " keep" : " drop") << " depth " << depth);
        CHECK(ref::perft(rules, b, depth, row.keep) == row.counts.back());
    }
}

TEST_CASE("Reference perft of International positions matches the published counts",
          "[reference]") {
    // perft-reference.md "International positions other than the start", source [dctl] fmjd.cpp
    // and shashki.cpp (FrontRows counts every path, the others drop duplicates).
    const std::vector<PublishedPerft> rows = {
        {"international",
         "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
         false,
         {14, 55, 1168, 5432}},
        {"international",
         "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
         false,
         {6, 12, 30, 73, 215, 590, 1944}},
        {"international", "W:WK31-50:BK1-20", false, {17, 79, 352, 1399}},
        {"international", "W:W6,7,8,9,10:B41,42,43,44,45", false, {9, 81, 795, 7578}},
        {"international",
         "W:B16,17,18,19,20:W31,32,33,34,35",
         true,
         {9, 81, 534, 2538, 9052, 29999}},
    };
    for (const PublishedPerft& row : rows) check_reference_perft(row, 10);
}

namespace {

// A move written as in the tests below: "from-to" or "fromxto" plus the captured squares.
ref::Move hand_move(int from, int to, std::vector<int> captured, bool promotes) {
    ref::Move m{from, to, 0, promotes};
    for (int n : captured) m.captured |= std::uint64_t(1) << n;
    return m;
}

template <class R>
void check_hand_case(const char* fen, bool keep, std::vector<ref::Move> expected) {
    const ref::Rules& rules = ref::rules_named(R::kName);
    const ref::Board b = ref::board_from_fen(rules.size, fen);
    std::sort(expected.begin(), expected.end());
    const auto actual = ref::generate(rules, b, keep);
    INFO(R::kName << " " << fen << (keep ? " keep" : " drop") << "\n  reference "
                  << list_text(actual) << "\n  expected " << list_text(expected));
    CHECK(actual == expected);
    // The core must agree too.
    if (keep)
        TreeCheck<R, Duplicates::kKeep>(rules).check_root(b, 1);
    else
        TreeCheck<R, Duplicates::kDrop>(rules).check_root(b, 1);
}

template <class R>
void check_hand_case(const char* fen, const std::vector<ref::Move>& expected) {
    check_hand_case<R>(fen, true, expected);
    check_hand_case<R>(fen, false, expected);
}

}  // namespace

TEST_CASE("Reference: RULES.md §6 worked example", "[reference]") {
    // W:Wh6:Bg7,c5,d2 = W:W12:B8,14,26. h6=12, g7=8, f8=3, c5=14, b4=17, d2=26, e1=31.
    const char* fen = "W:Wh6:Bg7,c5,d2";
    // Russian: h6:f8:b4:e1, promoting on f8 and going on as a king (RULES.md §6).
    check_hand_case<Russian>(fen, {hand_move(12, 31, {8, 14, 26}, true)});
    // Czech, Brazilian, Pool: h6:f8 and the move ends there (RULES.md §6).
    check_hand_case<Czech>(fen, {hand_move(12, 3, {8}, true)});
    check_hand_case<Brazilian>(fen, {hand_move(12, 3, {8}, true)});
    check_hand_case<Pool>(fen, {hand_move(12, 3, {8}, true)});
    // English (hand analysis): the man becomes a king on f8 and the move ends (RULES.md §3).
    check_hand_case<English>(fen, {hand_move(12, 3, {8}, true)});
}

TEST_CASE("Reference: a king going straight on is one path", "[reference]") {
    // W:WKa1:Bc3,f6 (a1=29, c3=22, f6=11, g7=8, h8=4). Hand analysis: the king takes c3 and may
    // land on d4 or e5; from neither can it turn to a capture (the diagonals c5-a7, e3-g1, d6-b8,
    // f4-h2 are empty), but straight on it takes f6 and lands on g7 or h8, where it stops. Keep
    // counts one path per final square, not one per square it passed behind c3.
    const char* fen = "W:WKa1:Bc3,f6";
    const std::vector<ref::Move> moves = {hand_move(29, 8, {22, 11}, false),
                                          hand_move(29, 4, {22, 11}, false)};
    check_hand_case<Russian>(fen, moves);
    check_hand_case<Czech>(fen, moves);
    check_hand_case<Brazilian>(fen, moves);
    check_hand_case<Pool>(fen, moves);
}

TEST_CASE("Reference: a man's loop is two paths to one move", "[reference]") {
    // W:Wc1:Bb2,d2,b4,d4 (c1=30, b2=25, d2=26, b4=17, d4=18, c5=14). Hand analysis: a man that
    // captures backwards goes round c1-e3-c5-a3-c1 or c1-a3-c5-e3-c1, taking all four and ending
    // on its start square (which counts as empty): two paths, one resulting position.
    const char* fen = "W:Wc1:Bb2,d2,b4,d4";
    const ref::Move loop = hand_move(30, 30, {17, 18, 25, 26}, false);
    for (int variant = 0; variant < 3; ++variant) {
        auto run = [&]<class R>(std::type_identity<R>) {
            check_hand_case<R>(fen, true, {loop, loop});
            check_hand_case<R>(fen, false, {loop});
        };
        if (variant == 0) run(std::type_identity<Russian>{});
        if (variant == 1) run(std::type_identity<Brazilian>{});
        if (variant == 2) run(std::type_identity<Pool>{});
    }
    // Czech and English men only capture forwards: c1-e3-c5 or c1-a3-c5, then the backward jump
    // is not allowed; two different captured sets.
    const std::vector<ref::Move> forward = {hand_move(30, 14, {26, 18}, false),
                                            hand_move(30, 14, {25, 17}, false)};
    check_hand_case<Czech>(fen, forward);
    check_hand_case<English>(fen, forward);
}

TEST_CASE("Reference: which captures are legal (precedence)", "[reference]") {
    // W:WKa1,e3:Bb2,f4 (a1=29, b2=25, e3=23, f4=19, g5=16, g3=24, h2=28). Hand analysis: the man
    // e3 can take f4 (landing g5, nothing more). The king takes b2; of its landing squares c3..h8
    // only e5 lets it go on (down-right over f4; from d4 the way down-right is blocked by its own
    // man on e3), so it lands on e5, takes f4 and stops on g3 or h2.
    const char* fen = "W:WKa1,e3:Bb2,f4";
    const ref::Move king_g3 = hand_move(29, 24, {25, 19}, false);
    const ref::Move king_h2 = hand_move(29, 28, {25, 19}, false);
    const ref::Move man = hand_move(23, 16, {19}, false);
    check_hand_case<Russian>(fen, {king_g3, king_h2, man});  // free choice
    check_hand_case<Pool>(fen, {king_g3, king_h2, man});     // free choice
    check_hand_case<Czech>(fen, {king_g3, king_h2});         // a king capture has priority
    check_hand_case<Brazilian>(fen, {king_g3, king_h2});     // two pieces beat one
}

TEST_CASE("Reference: International rule cases give the published move lists", "[reference]") {
    // perft-reference.md "International rule cases", from the FFJD and FID rule tutorials via
    // [dctl]'s rulebook tests. Moves are compared by their from and to squares.
    const std::vector<std::pair<const char*, std::vector<const char*>>> cases = {
        {"W:W28", {"28-22", "28-23"}},
        {"B:B13", {"13-18", "13-19"}},
        {"W:WK28",
         {"28-22", "28-17", "28-11", "28-6", "28-23", "28-19", "28-14", "28-10", "28-5", "28-32",
          "28-37", "28-41", "28-46", "28-33", "28-39", "28-44", "28-50"}},
        {"W:W28,32:B23", {"28x19"}},
        {"W:WK46:B23", {"46x19", "46x14", "46x10", "46x5"}},
        {"W:W15:B8,19,20", {"15x2"}},
        {"W:WK47:B9,12,33", {"47x17", "47x21", "47x26"}},
        {"W:WK41,49:B9,10,12,19,38", {"41x43"}},
        {"W:W48:B24,K31,34,K42,43", {"48x19"}},
        {"W:W35:B30,K40", {"35x24", "35x44"}},
        {"W:W47:B13,14,22,24,31,34,K41,44", {"47x49"}},
        {"W:WK1:B7,9,17,19,20,30,31,33,43,44", {"1x15"}},
        {"B:W27,28,38,39,42:BK25", {"25x33"}},
        {"W:WK48:B7,8,31,34,K42,44", {"48x50"}},
        {"W:W26:B12,K21,31,32", {"26x8", "26x28"}},
        {"W:W15:B9,10", {"15x13"}},
    };
    const ref::Rules& rules = ref::rules_named("international");
    for (const auto& [fen, published] : cases) {
        std::vector<std::pair<int, int>> expected, actual;
        for (std::string_view m : published) {
            const auto sep = m.find_first_of("-x");
            expected.emplace_back(std::stoi(std::string(m.substr(0, sep))),
                                  std::stoi(std::string(m.substr(sep + 1))));
        }
        const ref::Board b = ref::board_from_fen(rules.size, fen);
        for (const ref::Move& m : ref::generate(rules, b, false)) actual.emplace_back(m.from, m.to);
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        INFO(fen);
        CHECK(actual == expected);
        TreeCheck<International, Duplicates::kDrop>(rules).check_root(b, 1);
    }
}
