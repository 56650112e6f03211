// The learned evaluation (search/learned_eval.hpp), its weights files (search/weights.hpp), the
// self-play data files and games (learn/dataset.hpp, learn/selfplay.hpp) and the fit
// (learn/fit.hpp, learn/features.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "learn/dataset.hpp"
#include "learn/features.hpp"
#include "learn/fit.hpp"
#include "learn/selfplay.hpp"
#include "search/engine.hpp"
#include "search/eval.hpp"
#include "search/learned_eval.hpp"
#include "search/weights.hpp"

#include <xxhash.h>

using namespace dambit;

namespace {

// Positions from random games (a fixed generator): openings, middle games and endings with
// kings, with the side to move free of captures (the positions the evaluation is asked about).
template <class R>
std::vector<Position<R>> sample_positions(int games, std::uint64_t seed) {
    using G = typename R::Geometry;
    std::vector<Position<R>> out;
    learn::SplitMix rng{seed};
    FixedList<PathMove<G>, kMaxMoves> list;
    for (int g = 0; g < games; ++g) {
        Position<R> p = Position<R>::start();
        for (int ply = 0; ply < 300; ++ply) {
            generate_paths<R>(p, list);
            if (list.empty()) break;
            if (!has_capture(p)) out.push_back(p);
            p = p.play(list[rng.below(list.size())].move);
        }
    }
    return out;
}

// The board turned round (a square at (f, r) goes to (N-1-f, N-1-r)), the colours and the side
// to move swapped: the same position for the other side.
template <class R>
Position<R> mirrored(const Position<R>& p) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    Position<R> m;
    for (int n = 1; n <= G::kSquares; ++n) {
        const auto c = G::coord_of_square(n);
        const B to = G::mask_of_square(G::square_of_coord(G::kSize - 1 - c.file, G::kSize - 1 - c.rank));
        const B from = G::mask_of_square(n);
        if (p.pieces[0] & from) m.pieces[1] |= to;
        if (p.pieces[1] & from) m.pieces[0] |= to;
        if (p.kings & from) m.kings |= to;
    }
    m.side = ~p.side;
    return m;
}

template <class R>
search::LearnedWeights hand_as_learned() {
    search::LearnedWeights w;
    w.variant = std::string(R::kName);
    w.hand = search::eval_weights<R>();
    return w;
}

// A pseudo-random value in -40..40 for canonical pattern c and phase ph.
int random_pattern_value(std::uint64_t seed, std::uint32_t c, int ph) {
    learn::SplitMix h{seed ^ (std::uint64_t(c) * 2 + std::uint64_t(ph))};
    return int(h.next() % 81) - 40;
}

// Antisymmetric pattern tables from the canonical parameters (as tune writes them), each
// parameter random_pattern_value(); with `strips`, the edge strips too, their canonical patterns
// numbered after the windows' as in the fit.
template <class R, int Step = 2>
search::LearnedWeights with_random_patterns(std::uint64_t seed, bool strips = false) {
    using G = typename R::Geometry;
    using L = search::PatternLayout<G, Step>;
    auto w = hand_as_learned<R>();
    w.tempo = 7;
    w.windows = L::kWindows;
    w.patterns = learn::expanded_patterns<G, Step>(
        [&](std::uint32_t c, int ph) { return random_pattern_value(seed, c, ph); });
    if (strips) {
        const auto base = std::uint32_t(L::kCount * L::kIndices);
        w.strips = search::StripLayout<G>::kCount;
        w.strip_patterns = learn::expanded_regions<search::StripLayout<G>>(
            [&](std::uint32_t c, int ph) { return random_pattern_value(seed, base + c, ph); });
    }
    return w;
}

template <class R>
void check_hand_equivalence() {
    const search::HandEvaluator<R> hand;
    const search::LearnedEvaluator<R> learned(hand_as_learned<R>());
    int checked = 0;
    for (const auto& p : sample_positions<R>(30, 11)) {
        REQUIRE(learned.evaluate(p) == hand.evaluate(p));
        ++checked;
    }
    CHECK(checked > 500);
}

template <class R, int Step = 2>
void check_mirror(std::uint64_t seed, bool strips = false) {
    const search::LearnedEvaluator<R> e(with_random_patterns<R, Step>(seed, strips));
    for (const auto& p : sample_positions<R>(10, seed)) REQUIRE(e.evaluate(p) == e.evaluate(mirrored(p)));
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("dambit_learn_test_" + name)).string();
}

}  // namespace

TEST_CASE("settings_change: what differs between two settings texts", "[learn]") {
    // Items are key=value or bare words, split at commas and blanks; order does not matter.
    CHECK(settings_change("nodes=300,eval=auto", "nodes=301,eval=auto") == "nodes=300, now nodes=301");
    CHECK(settings_change("a=1 b=2", "b=2 a=1") == "a=1 b=2");  // the same items: `then` itself
    CHECK(settings_change("a=1,ballots=x", "a=2,depth=5") ==
          "a=1, now a=2; ballots=x, now none; none, now depth=5");
    CHECK(settings_change("variant=russian seed=1 fast", "variant=czech seed=1") ==
          "variant=russian, now variant=czech; fast, now none");
}

TEST_CASE("learned evaluation with the hand-made weights and no patterns is the hand-made one",
          "[learn]") {
    check_hand_equivalence<Russian>();
    check_hand_equivalence<Czech>();
    check_hand_equivalence<Brazilian>();
    check_hand_equivalence<Pool>();
    check_hand_equivalence<English>();
    check_hand_equivalence<International>();
}

TEST_CASE("pattern windows: the layout by hand", "[learn]") {
    using L8 = search::PatternLayout<Board8>;
    using L10 = search::PatternLayout<Board10>;
    STATIC_REQUIRE(L8::kWindows == 9);
    STATIC_REQUIRE(L10::kWindows == 16);
    // Window 0 on 8x8 is files a-d, ranks 1-4: a1 c1 b2 d2 a3 c3 b4 d4, squares 29 30 25 26 21
    // 22 17 18 in the numbering from the top left (a1 = 29 as PDN numbers Russian boards from
    // the Black side... here the geometry's own numbering: coord_of_square).
    int count = 0;
    for (int n = 1; n <= 32; ++n) {
        const auto c = Board8::coord_of_square(n);
        const bool inside = c.file < 4 && c.rank < 4;
        CHECK(bool(L8::kMask[0] & Board8::mask_of_square(n)) == inside);
        count += inside;
    }
    CHECK(count == 8);
    // Every window has 8 squares, and a 10x10 window at the far corner (files g-j, ranks 7-10).
    for (int w = 0; w < L8::kWindows; ++w) CHECK(popcount(L8::kMask[w]) == 8);
    for (int w = 0; w < L10::kWindows; ++w) CHECK(popcount(L10::kMask[w]) == 8);
    const auto far = Board10::mask_of_square(Board10::square_of_coord(9, 9));
    CHECK((L10::kMask[15] & far) != 0);
    // 3^8 indices: all white men = sum of 3^i = 3280, all black = 6560.
    CHECK(L8::index(0, L8::kMask[0], 0) == 3280);
    CHECK(L8::index(0, 0, L8::kMask[0]) == 6560);
    CHECK(L8::index(0, 0, 0) == 0);
}

TEST_CASE("pattern partners: an involution, and the evaluation of a mirrored position is the same",
          "[learn]") {
    using L = search::PatternLayout<Board8>;
    for (int w = 0; w < L::kWindows; ++w)
        for (int i = 0; i < search::kPatternIndices; i += 7) {
            const int pw = L::partner_window(w), pi = L::partner_index(w, i);
            REQUIRE(L::partner_window(pw) == w);
            REQUIRE(L::partner_index(pw, pi) == i);
        }
    // All white men in window 0 become all black men in the far window 8.
    CHECK(L::partner_window(0) == 8);
    CHECK(L::partner_index(0, 3280) == 6560);
    check_mirror<Russian>(3);
    check_mirror<International>(4);
    check_mirror<English>(5);
}

TEST_CASE("pattern windows at every file and rank (step 1): the layout by hand, partners, mirror",
          "[learn]") {
    using L8 = search::PatternLayout<Board8, 1>;
    using L10 = search::PatternLayout<Board10, 1>;
    // Origins 0..4 on 8x8 and 0..6 on 10x10 in each direction.
    STATIC_REQUIRE(L8::kWindows == 25);
    STATIC_REQUIRE(L10::kWindows == 49);
    STATIC_REQUIRE(search::pattern_step<Board8>(9) == 2);
    STATIC_REQUIRE(search::pattern_step<Board8>(25) == 1);
    STATIC_REQUIRE(search::pattern_step<Board10>(49) == 1);
    STATIC_REQUIRE(search::pattern_step<Board10>(25) == 0);
    // Window 1 on 8x8 is files b-e, ranks 1-4; window 5 files a-d, ranks 2-5; the last, 24,
    // files e-h, ranks 5-8. Any 4x4 block of the board has 8 playable squares.
    const auto inside = [](int w, int f0, int r0) {
        for (int n = 1; n <= 32; ++n) {
            const auto c = Board8::coord_of_square(n);
            const bool in = c.file >= f0 && c.file < f0 + 4 && c.rank >= r0 && c.rank < r0 + 4;
            if (bool(L8::kMask[w] & Board8::mask_of_square(n)) != in) return false;
        }
        return true;
    };
    CHECK(inside(0, 0, 0));
    CHECK(inside(1, 1, 0));
    CHECK(inside(5, 0, 1));
    CHECK(inside(24, 4, 4));
    for (int w = 0; w < L8::kWindows; ++w) CHECK(popcount(L8::kMask[w]) == 8);
    for (int w = 0; w < L10::kWindows; ++w) CHECK(popcount(L10::kMask[w]) == 8);
    // Turned round, the window at origin (1, 0) is the one at (3, 4) on 8x8 (covers files
    // 1-4 -> 3-6, ranks 0-3 -> 4-7): window 4 * 5 + 3 = 23.
    CHECK(L8::partner_window(1) == 23);
    for (int w = 0; w < L10::kWindows; ++w)
        for (int i = 0; i < search::kPatternIndices; i += 11) {
            const int pw = L10::partner_window(w), pi = L10::partner_index(w, i);
            REQUIRE(L10::partner_window(pw) == w);
            REQUIRE(L10::partner_index(pw, pi) == i);
        }
    check_mirror<Russian, 1>(13);
    check_mirror<International, 1>(14);
    // Files of either layout load; another number of windows is refused by name.
    auto w = with_random_patterns<International, 1>(15);
    CHECK_NOTHROW(search::check_weights<International>(w, "f"));
    const auto back = search::parse_weights(search::weights_bytes(w), "t");
    CHECK(back.windows == 49);
    CHECK(back.patterns == w.patterns);
    w.windows = 25;
    CHECK_THROWS_WITH(search::check_weights<International>(w, "f"),
                      "f: 25 pattern windows, international has 16 or 49");
}

TEST_CASE("edge strips: the layout by hand, partners, mirror, files", "[learn]") {
    using S8 = search::StripLayout<Board8>;
    using S10 = search::StripLayout<Board10>;
    STATIC_REQUIRE(S10::kCount == 4);
    STATIC_REQUIRE(S10::kIndices == 19683);  // 3^9
    // Strip 0 is files a-c over ranks 1-6, strip 1 files h-j (f-h on 8x8) over the same ranks,
    // strips 2 and 3 files a-c and h-j over the six ranks from the other side: on 10x10 strip 0
    // holds a1 c1 b2 a3 c3 b4 a5 c5 b6 and strip 3 (turned) i5 h6 j6 i7 h8 j8 i9 h10 j10.
    const auto holds = [](auto mask, auto geometry, int f, int r) {
        using G = decltype(geometry);
        return (mask & G::mask_of_square(G::square_of_coord(f, r))) != 0;
    };
    for (const auto& [f, r] : {std::pair{0, 0}, {2, 0}, {1, 1}, {0, 2}, {2, 2}, {1, 3}, {0, 4},
                              {2, 4}, {1, 5}})
        CHECK(holds(S10::kMask[0], Board10{}, f, r));
    for (const auto& [f, r] : {std::pair{8, 4}, {7, 5}, {9, 5}, {8, 6}, {7, 7}, {9, 7}, {8, 8},
                              {7, 9}, {9, 9}})
        CHECK(holds(S10::kMask[3], Board10{}, f, r));
    CHECK(holds(S10::kMask[1], Board10{}, 9, 1));  // j2
    CHECK(holds(S10::kMask[2], Board10{}, 1, 9));  // b10
    CHECK(holds(S8::kMask[1], Board8{}, 7, 1));    // h2
    CHECK(!holds(S8::kMask[0], Board8{}, 3, 1));   // d2: the fourth file is outside
    CHECK(!holds(S10::kMask[0], Board10{}, 0, 6)); // a7: the seventh rank is outside
    for (int s = 0; s < 4; ++s) {
        CHECK(popcount(S8::kMask[s]) == 9);
        CHECK(popcount(S10::kMask[s]) == 9);
        CHECK(S10::partner_window(s) == 3 - s);
    }
    // All white men in strip 0 (3^0 + ... + 3^8 = 9841) are all black men in strip 3 turned.
    CHECK(S10::index(0, S10::kMask[0], 0) == 9841);
    CHECK(S10::partner_index(0, 9841) == 19682);
    for (int s = 0; s < 4; ++s)
        for (int i = 0; i < S10::kIndices; i += 13) {
            const int ps = S10::partner_window(s), pi = S10::partner_index(s, i);
            REQUIRE(S10::partner_window(ps) == s);
            REQUIRE(S10::partner_index(ps, pi) == i);
        }
    check_mirror<Russian>(51, true);
    check_mirror<International>(52, true);
    // A file with strips: written as version 3, read back whole; a number of strips other
    // than 4 is refused by name, and a version 2 file (the compiled-in ones) has none.
    auto w = with_random_patterns<International>(53, true);
    CHECK_NOTHROW(search::check_weights<International>(w, "f"));
    const auto bytes = search::weights_bytes(w);
    std::uint32_t version = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    CHECK(version == 3);
    const auto back = search::parse_weights(bytes, "t");
    CHECK(back.strips == 4);
    CHECK(back.strip_patterns == w.strip_patterns);
    CHECK(back.patterns == w.patterns);
    const search::LearnedEvaluator<International> e(w), e2(back);
    for (const auto& p : sample_positions<International>(3, 54))
        REQUIRE(e.evaluate(p) == e2.evaluate(p));
    w.strips = 2;
    CHECK_THROWS_WITH(search::check_weights<International>(w, "f"),
                      "f: 2 edge strips, international has 4");
}

TEST_CASE("weights files: round trip and every kind of damage", "[learn]") {
    auto w = with_random_patterns<Russian>(9);
    w.description = "a test";
    w.king_opening = 11;
    w.sole_king_opening = -12;
    w.sole_king_ending = 13;
    const std::string bytes = search::weights_bytes(w);
    const auto back = search::parse_weights(bytes, "t");
    CHECK(back.variant == "russian");
    CHECK(back.description == "a test");
    CHECK(back.hand.king == w.hand.king);
    CHECK(back.tempo == 7);
    CHECK(back.king_opening == 11);
    CHECK(back.sole_king_opening == -12);
    CHECK(back.sole_king_ending == 13);
    CHECK(back.patterns == w.patterns);
    {
        // Files of the versions before: version 2 (before the edge strips: the same bytes
        // without the two strip counts after the window and index counts, at byte 208, here 0)
        // and version 1 (before the king terms: without their three i32 after the 40 hand-made
        // ones too) still load, with no strips and the king terms 0.
        const std::size_t kings_at = 8 + 4 + 16 + 40 * 4, strips_at = kings_at + 12 + 8;
        std::uint32_t counts[2] = {1, 1};
        std::memcpy(counts, bytes.data() + strips_at, 8);
        REQUIRE((counts[0] == 0 && counts[1] == 0));
        const auto older = [&](int version) {
            std::string b(bytes, 0, bytes.size() - 8);
            b.erase(strips_at, 8);
            if (version == 1) b.erase(kings_at, 12);
            b[8] = char(version);
            const std::uint64_t sum = XXH64(b.data(), b.size(), 0);
            return b.append(reinterpret_cast<const char*>(&sum), 8);
        };
        const auto v2 = search::parse_weights(older(2), "v2");
        CHECK(v2.king_opening == 11);
        CHECK(v2.strips == 0);
        CHECK(v2.description == "a test");
        CHECK(v2.patterns == w.patterns);
        const auto v1 = search::parse_weights(older(1), "v1");
        CHECK(v1.king_opening == 0);
        CHECK(v1.sole_king_opening == 0);
        CHECK(v1.sole_king_ending == 0);
        CHECK(v1.tempo == 7);
        CHECK(v1.strips == 0);
        CHECK(v1.patterns == w.patterns);
    }
    auto expect = [&](std::string b, const std::string& message) {
        try {
            search::parse_weights(b, "t");
            FAIL("no error for " << message);
        } catch (const std::runtime_error& e) {
            CHECK(std::string(e.what()) == message);
        }
    };
    std::string flipped = bytes;
    flipped[200] ^= 1;
    expect(flipped, "t: weights file checksum mismatch");
    expect(bytes.substr(0, 100), "t: truncated weights file (ends in the hand-made weights)");
    expect("XAMBITEV" + bytes.substr(8), "t: not a dambit weights file");
    std::string v4 = bytes;
    v4[8] = 4;
    expect(v4, "t: weights file version 4, this dambit reads 1 to 3");
    // A count that disagrees with the file: in a file whose checksum holds, the count is named; in
    // one whose checksum fails (a flipped bit), it is damage. The window count is bytes 200-203
    // (magic 8, version 4, name 16, 43 weights of 4), the strip count 208-211. A window count of
    // 2^31 + 9 was read as a negative size and ended in the library's "vector::_M_default_append".
    const auto resum = [](std::string b) {
        const std::uint64_t sum = XXH64(b.data(), b.size() - 8, 0);
        std::memcpy(b.data() + b.size() - 8, &sum, 8);
        return b;
    };
    std::string five = bytes;
    five[208] = 5;
    expect(resum(five), "t: 5 strips of 0 indices, expected at most 4 strips of 19683 indices");
    expect(five, "t: weights file checksum mismatch");
    std::string high = bytes;
    high[203] = char(0x80);
    expect(high, "t: weights file checksum mismatch");
    expect(resum(high),
           "t: 2147483657 windows of 6561 indices, expected at most 64 windows of 6561 indices");
    std::string strips_high = bytes;
    strips_high[211] = char(0x80);
    expect(strips_high, "t: weights file checksum mismatch");
    // The description's length (bytes 216-219) with bit 30 set: damage too, not a file that ends
    // in its description.
    std::string long_description = bytes;
    long_description[219] = char(long_description[219] | 0x40);
    expect(long_description, "t: weights file checksum mismatch");
    expect(bytes + "x", "t: 1 bytes after the checksum");
    // A weight of the hand-made or king terms beyond a hundred men: the sums of the evaluation
    // could overflow (a man's weight of 2^31 - 1 times 12 men did, under UBSan). Counted from 0 in
    // the file's order: the man is weight 0, the last king term weight 42 (40 hand-made weights
    // with the tempo, then 3 king terms).
    auto heavy = w;
    heavy.hand.man = 10001;
    expect(search::weights_bytes(heavy),
           "t: weight 0 of the hand-made and king terms is 10001, beyond +-10000 (a hundred men)");
    heavy = w;
    heavy.sole_king_ending = -10001;
    expect(search::weights_bytes(heavy),
           "t: weight 42 of the hand-made and king terms is -10001, beyond +-10000 (a hundred "
           "men)");
    heavy.sole_king_ending = -10000;  // the bound itself is a weight
    CHECK(search::parse_weights(search::weights_bytes(heavy), "t").sole_king_ending == -10000);
    // Another variant's weights are refused by the check every loader makes.
    CHECK_THROWS_WITH(search::check_weights<International>(back, "f"),
                      "f: weights for russian, not international");
    // The file written and read back.
    const std::string path = temp_path("w.dbw");
    search::write_weights_file(path, w);
    CHECK(search::read_weights_file(path).patterns == w.patterns);
    std::filesystem::remove(path);
    CHECK_THROWS_WITH(search::weights_for("/nonexistent/w.dbw", "russian"),
                      "cannot read weights file '/nonexistent/w.dbw': No such file or directory");
    // A directory opens and fails only at its first read: refused by name before.
    CHECK_THROWS_WITH(search::weights_for("/tmp", "russian"),
                      "cannot read weights file '/tmp': Is a directory");
    CHECK(search::weights_for("hand", "russian") == nullptr);
}

TEST_CASE("weights at their extremes: the evaluation stays a static score", "[learn]") {
    // Every pattern entry at the largest 16-bit weight: 16 windows and 4 strips of 32767 each
    // would sum to 655,340 hundredths of a man, a score above every proven win (31000 - plies):
    // the search took it for a win. The evaluation is held within kMaxStatic (a hundred men),
    // the tempo of the side to move included: a file's tempo may be up to 10000 too, and
    // 10000 + 10000 is a table win one ply away (kTableWin - 1).
    auto w = with_random_patterns<International>(5, true);
    REQUIRE(w.tempo == 7);
    for (auto& v : w.patterns) v = 32767;
    for (auto& v : w.strip_patterns) v = 32767;
    const search::LearnedEvaluator<International> high(w);
    auto start = Position<International>::start();
    CHECK(high.evaluate(start) == search::kMaxStatic);  // 10000 + 7, held at 10000
    start.side = Color::kBlack;
    CHECK(high.evaluate(start) == -search::kMaxStatic);  // -655340 + 7, held at -10000
    for (auto& v : w.patterns) v = -32768;
    for (auto& v : w.strip_patterns) v = -32768;
    const search::LearnedEvaluator<International> low(w);
    CHECK(low.evaluate(start) == search::kMaxStatic);  // Black to move: -(-10000) + 7
    CHECK(!search::is_decisive(low.evaluate(start)));
    w.tempo = 10000;
    for (auto& v : w.patterns) v = 32767;
    const search::LearnedEvaluator<International> both(w);
    start.side = Color::kWhite;
    CHECK(both.evaluate(start) == search::kMaxStatic);
    CHECK(!search::is_decisive(both.evaluate(start)));
}

TEST_CASE("data records: a record that is no position is named", "[learn]") {
    using G = Russian::Geometry;
    learn::Sample ok;
    ok.white = G::mask_of_square(1) | G::mask_of_square(2);
    ok.black = G::mask_of_square(32);
    ok.kings = G::mask_of_square(2);
    CHECK(learn::invalid_sample<G>(ok) == nullptr);
    auto bad = ok;
    bad.side = 7;
    CHECK(std::string(learn::invalid_sample<G>(bad)) == "side to move out of range");
    bad = ok;
    bad.result = 100;
    CHECK(std::string(learn::invalid_sample<G>(bad)) == "result out of range");
    bad = ok;
    bad.black |= G::mask_of_square(1);
    CHECK(std::string(learn::invalid_sample<G>(bad)) == "a square of both colours");
    bad = ok;
    bad.kings |= G::mask_of_square(20);
    CHECK(std::string(learn::invalid_sample<G>(bad)) == "a king on an empty square");
    bad = ok;
    bad.white |= std::uint64_t(1) << 40;  // no square of an 8x8 board (32 bits)
    CHECK(std::string(learn::invalid_sample<G>(bad)) == "a piece off the board");
}

namespace {

// The bytes of a file, and a file of those bytes.
std::string file_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}
void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// Little-endian bytes of an integer, appended.
template <class T>
void append_le(std::string& out, T v) {
    for (std::size_t i = 0; i < sizeof v; ++i) out += char((std::uint64_t(v) >> (8 * i)) & 0xff);
}

// A version-1 data file as dataset.hpp describes it, written here byte by byte: the header, one
// block of one game with one record (white = 7), and, unless `partial`, the end block, whose
// XXH64 covers its own 24 bytes alone.
std::string version1_file(bool partial) {
    std::string b = "DAMBITSP";
    append_le(b, std::uint32_t(1));
    append_le(b, std::uint32_t(32));
    std::string name = "russian";
    name.resize(16, '\0');
    b += name;
    append_le(b, std::uint64_t(5));
    std::string settings = "nodes=1";
    settings.resize(88, '\0');
    b += settings;
    const std::size_t block = b.size();
    b += "GAME";
    append_le(b, std::uint32_t(0));  // first game
    append_le(b, std::uint32_t(1));  // games
    append_le(b, std::uint32_t(1));  // records
    append_le(b, std::uint64_t(7));  // white
    append_le(b, std::uint64_t(0));  // black
    append_le(b, std::uint64_t(0));  // kings
    append_le(b, std::uint8_t(0));   // side
    append_le(b, std::uint8_t(1));   // result
    append_le(b, std::uint16_t(0));  // score
    append_le(b, std::uint32_t(0));  // game
    append_le(b, std::uint64_t(XXH64(b.data() + block, b.size() - block, 0)));
    if (partial) return b;
    const std::size_t done = b.size();
    b += "DONE";
    append_le(b, std::uint32_t(0));
    append_le(b, std::uint64_t(1));  // games
    append_le(b, std::uint64_t(1));  // records
    append_le(b, std::uint64_t(XXH64(b.data() + done, 24, 0)));
    return b;
}

}  // namespace

TEST_CASE("data files: blocks, resume after a torn block, and no end block no file", "[learn]") {
    const std::string path = temp_path("d.dat");
    std::filesystem::remove(path);
    std::filesystem::remove(path + ".part");
    learn::DataHeader h{"russian", 5, "nodes=1"};
    auto sample = [](std::uint32_t game, std::uint64_t x) {
        learn::Sample s;
        s.white = x;
        s.game = game;
        s.result = 1;
        return s;
    };
    std::vector<learn::Sample> existing;
    {
        learn::DataWriter w(path, h, existing);
        CHECK(existing.empty());
        w.append(2, {sample(0, 1), sample(1, 2)});
        w.append(1, {sample(2, 3)});
    }
    // Interrupted before the end: the reader refuses the part file, a writer resumes it.
    CHECK_THROWS_WITH(learn::read_data(path + ".part"),
                      Catch::Contains("incomplete data file (no valid end block after 3 games)"));
    // A torn block at the end (half written) is cut off on resume.
    {
        std::ofstream f(path + ".part", std::ios::binary | std::ios::app);
        f << "GAME\x03\0\0\0partial";
    }
    {
        learn::DataWriter w(path, h, existing);
        CHECK(existing.size() == 3);
        CHECK(w.next_game() == 3);
        w.append(1, {sample(3, 4)});
        w.finish();
    }
    const auto d = learn::read_data(path);
    CHECK(d.games == 4);
    REQUIRE(d.samples.size() == 4);
    CHECK(d.samples[3].white == 4);
    CHECK(d.header.settings == "nodes=1");
    // One byte changed inside a block of a complete file: read as damaged (the checksum), not as
    // a file cut short. The header is 128 bytes; the first block's records follow its 16 bytes.
    {
        std::string bytes = file_bytes(path);
        const std::string flipped_path = path + ".flipped";
        bytes[128 + 16 + 3] = char(bytes[128 + 16 + 3] ^ 0x10);
        write_bytes(flipped_path, bytes);
        CHECK_THROWS_WITH(learn::read_data(flipped_path),
                          Catch::Contains("damaged data file (a block's checksum fails at byte "
                                          "128, after 0 games)"));
        std::filesystem::remove(flipped_path);
    }
    // A flipped bit in a block's record count (its bytes 12-15) makes the block look longer than
    // the file. In a complete file a valid end block follows, so it is damage, not a file cut
    // short; the record count's high byte (2^31 records for 2 games) cannot be a block's in a part
    // file either, and the resume says so rather than dropping the blocks without a word. The
    // first block (2 games, 2 records of 32 bytes) is at byte 128, its count at 140.
    {
        std::string bytes = file_bytes(path);
        const std::string counted_path = path + ".counted";
        bytes[128 + 15] = char(0x80);
        write_bytes(counted_path, bytes);
        CHECK_THROWS_WITH(learn::read_data(counted_path),
                          Catch::Contains("damaged data file (a block's checksum fails at byte "
                                          "128, after 0 games)"));
        std::filesystem::remove(counted_path);
        const std::string part_path = path + ".p";
        write_bytes(part_path + ".part", bytes.substr(0, bytes.size() - 32));
        learn::DataWriter w(part_path, h, existing);
        // The damaged count hides the block's length: the message gives the bytes from its start
        // at 128 to the end of the part file (the file less its end block), and does not call
        // them the bytes after it (they include it).
        CHECK(w.damage() == "the block at byte 128 fails its check; it and all after it, " +
                                std::to_string(bytes.size() - 32 - 128) +
                                " bytes, are dropped, and their games played again");
        CHECK(w.next_game() == 0);
    }
    std::filesystem::remove(path + ".p.part");
    // A complete file is not written again, and other settings do not resume a part file.
    CHECK_THROWS_WITH(learn::DataWriter(path, h, existing), Catch::Contains("exists already"));
    std::filesystem::remove(path);
    { learn::DataWriter w(path, h, existing); }
    learn::DataHeader other{"russian", 6, "nodes=1"};
    CHECK_THROWS_WITH(learn::DataWriter(path, other, existing),
                      Catch::Contains("was begun with other settings (seed=5, now seed=6); "
                                      "remove it or give them"));
    std::filesystem::remove(path + ".part");
    // A block of a game without a quiet position (no records): read as nothing, the empty
    // vector's null data() never handed to memcpy (UBSan reported it).
    {
        learn::DataWriter w(path, h, existing);
        w.append(1, {});
        w.append(1, {sample(1, 9)});
        w.finish();
    }
    const auto e = learn::read_data(path);
    CHECK(e.games == 2);
    REQUIRE(e.samples.size() == 1);
    CHECK(e.samples[0].white == 9);
    std::filesystem::remove(path);
}

TEST_CASE("data files: the end block covers the header; version 1 still read and resumed",
          "[learn]") {
    const std::string path = temp_path("v.dat");
    std::filesystem::remove(path);
    std::filesystem::remove(path + ".part");
    learn::DataHeader h{"russian", 5, "nodes=1"};
    std::vector<learn::Sample> existing;
    {
        learn::DataWriter w(path, h, existing);
        learn::Sample s;
        s.white = 7;
        s.result = 1;
        w.append(1, {s});
        w.finish();
    }
    const std::string good = file_bytes(path);
    CHECK(learn::read_data(path).version == 2);
    // The header holds the seed at byte 32 and the settings text from byte 40. Neither is read
    // back by anything that could notice a change (the settings are any text), so only the end
    // block's checksum tells a damaged one. The end block starts at byte 128 + 16 + 32 + 8 = 184
    // (the header, the game block's 16-byte head, its one record and its checksum).
    for (const std::size_t at : {std::size_t(33), std::size_t(42)}) {
        std::string bytes = good;
        bytes[at] = char(bytes[at] ^ 0x04);
        write_bytes(path, bytes);
        CHECK_THROWS_WITH(learn::read_data(path),
                          Catch::Contains("damaged data file (the end block's checksum, which "
                                          "covers the header, or counts fail at byte 184, after "
                                          "1 game)"));
    }
    // A file of a version this program does not know is named as such.
    {
        std::string bytes = good;
        bytes[8] = 3;
        write_bytes(path, bytes);
        CHECK_THROWS_WITH(
            learn::read_data(path),
            Catch::Contains("selfplay data file version 3 (this dambit reads 1 to 2)"));
    }
    // Version 1, as dambit wrote it before: read, with its own end-block checksum.
    write_bytes(path, version1_file(false));
    const auto v1 = learn::read_data(path);
    CHECK(v1.version == 1);
    CHECK(v1.games == 1);
    REQUIRE(v1.samples.size() == 1);
    CHECK(v1.samples[0].white == 7);
    CHECK(v1.header.seed == 5);
    CHECK(v1.header.settings == "nodes=1");
    // An interrupted version-1 run is resumed by this program and ends as version 1: a file
    // begun by the old program is not refused as begun with other settings.
    std::filesystem::remove(path);
    write_bytes(path + ".part", version1_file(true));
    {
        learn::DataWriter w(path, h, existing);
        CHECK(existing.size() == 1);
        CHECK(w.next_game() == 1);
        w.finish();
    }
    CHECK(file_bytes(path) == version1_file(false));
    std::filesystem::remove(path);
}

TEST_CASE("selfplay games: quiet positions, one result per game, the same game every time",
          "[learn]") {
    learn::SelfplaySettings s;
    s.nodes = 300;
    search::Engine<Russian> e1(4, 1), e2(4, 1);
    for (std::uint32_t g = 0; g < 6; ++g) {
        const auto a = learn::selfplay_game(e1, s, 42, g);
        // Another engine, after another game: the same game.
        learn::selfplay_game(e2, s, 42, g + 100);
        const auto b = learn::selfplay_game(e2, s, 42, g);
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            const auto p = learn::position_of<Russian>(a[i]);
            CHECK(a[i].white == b[i].white);
            CHECK(a[i].score == b[i].score);
            CHECK(a[i].result == a[0].result);
            CHECK(a[i].game == g);
            CHECK(learn::quiet(p));
            CHECK((p.pieces[0] & p.pieces[1]) == 0);
        }
    }
}

TEST_CASE("fit: finds known weights, lowers the loss, the same for any number of threads",
          "[learn]") {
    // Rows whose targets come from known weights: man 100, king 300, tempo 10 (hand terms only)
    // on random term values; the fit from other weights must come back near them.
    learn::FitRows f;
    f.hand = learn::kHandParams;
    f.rows = 4000;
    f.terms.assign(f.rows * std::size_t(f.hand), 0.0f);
    f.opening_share.assign(f.rows, 0.5f);
    f.scale.assign(f.rows, 1.0f);
    f.target.resize(f.rows);
    learn::SplitMix rng{7};
    const double k = 150;
    for (std::size_t r = 0; r < f.rows; ++r) {
        float* t = &f.terms[r * std::size_t(f.hand)];
        t[0] = float(rng.below(5) - 2);
        t[1] = float(rng.below(3) - 1);
        t[f.hand - 1] = rng.below(2) ? 1.0f : -1.0f;
        const double s = 100 * t[0] + 300 * t[1] + 10 * t[f.hand - 1];
        f.target[r] = float(1 / (1 + std::exp(-s / k)));
    }
    auto fitted = [&](int threads) {
        std::vector<double> p(std::size_t(f.hand), 0.0);
        p[0] = 50, p[1] = 50;
        learn::FitSettings s;
        s.k = k;
        s.epochs = 600;
        s.rate = 2;
        s.patterns = false;
        s.threads = threads;
        const double before = learn::fit_loss(f, p, k, 1);
        learn::fit(f, p, s, {});
        CHECK(learn::fit_loss(f, p, k, 1) < before);
        return p;
    };
    const auto p1 = fitted(1);
    CHECK(p1[0] == Approx(100).margin(3));
    CHECK(p1[1] == Approx(300).margin(9));
    CHECK(p1[std::size_t(f.hand - 1)] == Approx(10).margin(2));
    CHECK(fitted(3) == p1);  // bit for bit
    // Stopped after 250 of the 600 epochs and gone on from its parameters and Adam's state (as
    // tune's checkpoint does): the same weights, bit for bit, as the fit never stopped.
    {
        std::vector<double> p(std::size_t(f.hand), 0.0);
        p[0] = 50, p[1] = 50;
        learn::FitSettings s;
        s.k = k;
        s.rate = 2;
        s.patterns = false;
        s.epochs = 250;
        learn::FitState state;
        int last = 0;
        learn::fit(f, p, s, [&](int epoch, double) { last = epoch; }, &state);
        CHECK(state.epoch == 250);
        CHECK(last == 250);
        learn::FitState copy = state;  // as written and read back
        s.epochs = 600;
        int first = 0;
        learn::fit(f, p, s, [&](int epoch, double) { if (!first) first = epoch; }, &copy);
        CHECK(first == 251);
        CHECK(copy.epoch == 600);
        CHECK(p == p1);
    }
    // The scale that fits the true weights best is the one the targets were made with.
    std::vector<double> truth(std::size_t(f.hand), 0.0);
    truth[0] = 100, truth[1] = 300, truth[std::size_t(f.hand - 1)] = 10;
    CHECK(learn::fit_scale(f, truth, 2) == Approx(k).margin(1));
}

TEST_CASE("fit features: the hand-made terms' numbers times the hand-made weights are the "
          "hand-made evaluation",
          "[learn]") {
    // position_features() and the evaluation must describe the same terms: the dot product of
    // the hand-made weights with a position's numbers is the evaluation (White's side), up to
    // the integer division of the blend.
    const auto w = search::eval_weights<Russian>();
    search::LearnedWeights lw;
    lw.hand = w;
    const auto params = learn::hand_params(lw);
    const search::HandEvaluator<Russian> hand;
    std::vector<std::uint32_t> pats(9);
    for (const auto& p : sample_positions<Russian>(10, 21)) {
        float terms[learn::kHandParams], share, scale;
        learn::position_features<Russian>(p, w, terms, pats.data(), share, scale);
        double s = 0;
        for (int i = 0; i + 1 < learn::kHandParams; ++i) s += terms[i] * params[std::size_t(i)];
        s *= scale;
        const double white = p.side == Color::kWhite ? hand.evaluate(p) : -hand.evaluate(p);
        REQUIRE(s == Approx(white).margin(2.01));
    }
}

TEST_CASE("learned evaluation: the king terms, by hand", "[learn]") {
    // Russian (24 men at the start). White: kings c1 and e1, men a3 c3 e3; Black: men b6 d6 f6
    // h6: 7 men on the board, no drawn ending the evaluation knows (draw scale 16). White alone
    // has kings: sole_king_opening 48 and sole_king_ending 24 add (48 * 7 + 24 * 17) / 24 = 31;
    // king_opening 24 adds 2 kings * 24 * 7 / 24 = 14. The blend's integer division is done
    // once over all its terms, so the sum may differ by one from the terms one by one.
    const auto p = parse_fen<Russian>("W:WKc1,Ke1,a3,c3,e3:Bb6,d6,f6,h6");
    REQUIRE(search::HandEvaluator<Russian>::draw_scale(p) == 16);
    auto w = hand_as_learned<Russian>();
    const search::LearnedEvaluator<Russian> base(w);
    w.sole_king_opening = 48;
    w.sole_king_ending = 24;
    const search::LearnedEvaluator<Russian> sole(w);
    CHECK(sole.evaluate(p) - base.evaluate(p) == Approx(31).margin(1));
    w.king_opening = 24;
    const search::LearnedEvaluator<Russian> both(w);
    CHECK(both.evaluate(p) - base.evaluate(p) == Approx(31 + 14).margin(1));
    // Black to move: the same from the other side.
    const auto q = parse_fen<Russian>("B:WKc1,Ke1,a3,c3,e3:Bb6,d6,f6,h6");
    CHECK(both.evaluate(q) - base.evaluate(q) == Approx(-(31 + 14)).margin(1));
    // Once Black has a king too, nobody has the first king: only king_opening counts (2 - 1).
    const auto r = parse_fen<Russian>("W:WKc1,Ke1,a3,c3,e3:Bb6,d6,f6,Kh6");
    REQUIRE(search::HandEvaluator<Russian>::draw_scale(r) == 16);
    CHECK(both.evaluate(r) - base.evaluate(r) == Approx(24 * 6 / 24).margin(1));
    // The fit sees the same numbers: its features times the three weights.
    float terms[learn::kHandParams], share, scale;
    std::vector<std::uint32_t> pats(9);
    learn::position_features<Russian>(p, w.hand, terms, pats.data(), share, scale);
    const auto params = learn::hand_params(w);
    double kings = 0;
    for (int i = learn::kHandParams - 4; i < learn::kHandParams - 1; ++i)
        kings += terms[i] * params[std::size_t(i)];
    CHECK(kings == Approx(31 + 14).margin(1));
}

// The fit's view of the patterns (position_features: each window's canonical pattern, signed)
// times the canonical values must be what the evaluation adds for its tables (expanded from the
// same values), in positions without kings (no draw scale), up to the blend's integer division.
template <class R, int Step>
void check_pattern_features(std::uint64_t seed, bool strips = false) {
    using G = typename R::Geometry;
    using L = search::PatternLayout<G, Step>;
    const auto with = with_random_patterns<R, Step>(seed, strips);
    auto without = with;
    without.windows = 0;
    without.patterns.clear();
    without.strips = 0;
    without.strip_patterns.clear();
    const search::LearnedEvaluator<R> e(with), base(without);
    const auto hand = search::eval_weights<R>();
    std::vector<std::uint32_t> pats(std::size_t(L::kWindows) +
                                    (strips ? std::size_t(search::StripLayout<G>::kCount) : 0));
    int checked = 0;
    for (const auto& p : sample_positions<R>(10, seed)) {
        if (p.kings || !p.occupied()) continue;
        float terms[learn::kHandParams], share, scale;
        learn::position_features<R, Step>(p, hand, terms, pats.data(), share, scale, strips);
        double expect = 0;
        for (const std::uint32_t c : pats) {
            if (c == learn::kNoPattern) continue;
            const double open = share;
            const double v = open * random_pattern_value(seed, c >> 1, 0) +
                             (1 - open) * random_pattern_value(seed, c >> 1, 1);
            expect += (c & 1) ? -v : v;
        }
        const int diff = e.evaluate(p) - base.evaluate(p);
        REQUIRE((p.side == Color::kWhite ? diff : -diff) == Approx(expect).margin(1.01));
        ++checked;
    }
    CHECK(checked > 100);
}

TEST_CASE("fit features: the patterns as the fit sees them are the evaluation's, both layouts",
          "[learn]") {
    check_pattern_features<Russian, 2>(31);
    check_pattern_features<Russian, 1>(32);
    check_pattern_features<International, 2>(33);
    check_pattern_features<International, 1>(34);
    check_pattern_features<Russian, 2>(35, true);
    check_pattern_features<International, 2>(36, true);
    check_pattern_features<International, 1>(37, true);
}

TEST_CASE("fit: pattern weights are fitted", "[learn]") {
    // One window; rows whose score comes from the pattern alone: pattern 0 (canonical, positive)
    // is worth +60 and pattern 1 (the negated member of pair 1) -(+40), and no term counts. The
    // fit from zero must come back near those values: a penalty that kept pattern weights at
    // zero (as a too large l2 once did) fails here.
    learn::FitRows f;
    f.hand = learn::kHandParams;
    f.windows = 1;
    f.rows = 3000;
    f.terms.assign(f.rows * std::size_t(f.hand), 0.0f);
    f.patterns.resize(f.rows);
    f.opening_share.assign(f.rows, 1.0f);
    f.scale.assign(f.rows, 1.0f);
    f.target.resize(f.rows);
    const double k = 100;
    for (std::size_t r = 0; r < f.rows; ++r) {
        // Pair 0 as itself (+60), pair 1 negated (-40), or a self-partnered index (no weight).
        const int kind = int(r % 3);
        f.patterns[r] = kind == 0 ? 0u : kind == 1 ? (1u << 1) | 1u : learn::kNoPattern;
        const double s = kind == 0 ? 60 : kind == 1 ? -40 : 0;
        f.target[r] = float(1 / (1 + std::exp(-s / k)));
    }
    std::vector<double> p(std::size_t(f.hand) + 2 * 2 + 2, 0.0);
    learn::FitSettings s;
    s.k = k;
    s.epochs = 400;
    s.rate = 1;
    learn::fit(f, p, s, {});
    CHECK(p[std::size_t(f.hand)] == Approx(60).margin(3));      // pair 0, opening
    CHECK(p[std::size_t(f.hand) + 2] == Approx(40).margin(3));  // pair 1, opening
}

TEST_CASE("fit: l2 pulls the pattern weights toward the centre it is given (tune --init)",
          "[learn]") {
    // One window; every row holds pair 0 (worth +60 in the targets); pair 1 is in no row.
    learn::FitRows f;
    f.hand = learn::kHandParams;
    f.windows = 1;
    f.rows = 1000;
    f.terms.assign(f.rows * std::size_t(f.hand), 0.0f);
    f.patterns.assign(f.rows, 0u);
    f.opening_share.assign(f.rows, 1.0f);
    f.scale.assign(f.rows, 1.0f);
    const double k = 100;
    f.target.assign(f.rows, float(1 / (1 + std::exp(-60 / k))));
    const std::size_t pair0 = std::size_t(f.hand), pair1 = pair0 + 2;
    const auto fitted = [&](double l2, double centre0, double centre1,
                            std::size_t l2_end = SIZE_MAX) {
        std::vector<double> p(std::size_t(f.hand) + 2 * 2, 0.0);
        p[pair1] = p[pair1 + 1] = 30;  // as if fitted before on other data
        learn::FitSettings s;
        s.k = k;
        s.epochs = 400;
        s.rate = 1;
        s.l2 = l2;
        s.l2_end = l2_end;
        if (centre0 == centre0) {  // not NaN: a centre is given
            s.l2_centre = p;
            s.l2_centre[pair0] = s.l2_centre[pair0 + 1] = centre0;
            s.l2_centre[pair1] = s.l2_centre[pair1 + 1] = centre1;
        }
        learn::fit(f, p, s, {});
        return p;
    };
    const double none = std::nan("");
    // A weight no row sees: kept where it was when the centre is its start, decays toward 0
    // without a centre.
    CHECK(fitted(0.01, 0, 30)[pair1] == 30);
    CHECK(fitted(0.01, none, 0)[pair1] < 5);
    // A strong pull wins over the data: the weight ends at its centre, 20 or 0, not at 60.
    CHECK(fitted(1.0, 20, 30)[pair0] == Approx(20).margin(1));
    CHECK(fitted(1.0, none, 0)[pair0] == Approx(0).margin(1));
    // No pull: the data's 60.
    CHECK(fitted(0, 20, 30)[pair0] == Approx(60).margin(3));
    // The pull ends at l2_end (tune --init adding strips the starting weights lack): pair 1 is
    // past it and keeps its 30 while pair 0, before it, is held at 0.
    const auto ended = fitted(1.0, none, 0, pair1);
    CHECK(ended[pair1] == 30);
    CHECK(ended[pair0] == Approx(0).margin(1));
}

TEST_CASE("canonical weights: the inverse of the expanded pattern tables", "[learn]") {
    const auto check = [](auto expand, auto invert, std::uint64_t seed) {
        const std::vector<std::int16_t> table =
            expand([&](std::uint32_t c, int ph) { return random_pattern_value(seed, c, ph); });
        int seen = 0;
        invert(table, [&](std::uint32_t c, int ph, int v) {
            REQUIRE(v == random_pattern_value(seed, c, ph));
            ++seen;
        });
        // Every pair once, two phases: fewer than half of the table's entries, many of them.
        CHECK(seen * 2 < int(table.size()));
        CHECK(seen * 3 > int(table.size()));
    };
    using G8 = Russian::Geometry;
    using G10 = International::Geometry;
    check([](auto v) { return learn::expanded_patterns<G8, 2>(v); },
          [](const auto& t, auto s) { learn::canonical_weights<G8, 2>(t, s); }, 41);
    check([](auto v) { return learn::expanded_patterns<G10, 1>(v); },
          [](const auto& t, auto s) { learn::canonical_weights<G10, 1>(t, s); }, 42);
}
