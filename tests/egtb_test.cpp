// Endgame tables: slice sizes, the index, the colour flip, values against a plain solver, the
// published values, distances against the published longest wins, and the solver.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "core/notation.hpp"
#include "egtb/api.hpp"
#include "egtb/index.hpp"
#include "egtb/tables.hpp"
#include "reference/plain_egtb.hpp"
#include "search/engine.hpp"
#include "search/line.hpp"
#include "search/solve.hpp"

#include <xxhash.h>

using namespace dambit;
using namespace dambit::egtb;

namespace {

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) {
        path = std::filesystem::temp_directory_path() /
               ("dambit_egtb_test_" + name + "_" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string str() const { return path.string(); }
};

template <class R>
void build(const std::string& dir, int pieces, int dtw) {
    BuildOptions o;
    o.dir = dir;
    o.max_pieces = pieces;
    o.dtw_pieces = dtw;
    o.threads = 2;
    o.memory_bytes = std::uint64_t(2) << 30;
    build_tables<R>(o, {});
}

// The counting formula of egtb-reference.md section 1, written out on its own: i black men on
// the far row only black men may use (4 squares on 8x8, 5 on 10x10), the rest of them on the
// middle rows, the white men on their rows less those squares, then the kings anywhere free.
std::uint64_t choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    std::uint64_t r = 1;
    for (int j = 1; j <= k; ++j) r = r * std::uint64_t(n - k + j) / std::uint64_t(j);
    return r;
}
std::uint64_t formula(int size, const Material& m) {
    const int squares = size * size / 2, row = size / 2, middle = squares - 2 * row;
    std::uint64_t n = 0;
    for (int i = 0; i <= m.bm && i <= row; ++i)
        n += choose(row, i) * choose(middle, m.bm - i) * choose(squares - row - (m.bm - i), m.wm) *
             choose(squares - m.bm - m.wm, m.bk) * choose(squares - m.bm - m.wm - m.bk, m.wk);
    return n;
}

// The Russian tables of 2 pieces built in `dir`, and of them the king-against-king file: its path,
// its values and its header, to be written again edited.
struct KingFile {
    std::string path;
    std::vector<std::uint8_t> codes;
    TableHeader header;
};
KingFile king_against_king(const TempDir& dir) {
    build<Russian>(dir.str(), 2, 2);
    KingFile k;
    k.path = dir.str() + "/" + table_file_name("russian", Material{0, 1, 0, 1});
    const TableFile f(k.path, "russian");
    k.codes = f.read_all();
    k.header = f.header();
    return k;
}

template <class R>
std::uint64_t placements(int pieces) {
    std::uint64_t n = 0;
    for (const Material& m : slices_up_to(pieces))
        if (m.pieces() == pieces) n += SliceIndex<R>(m).size();
    return n;
}

}  // namespace

// egtb-reference.md section 1: placements with both sides present (no side to move), per number
// of pieces, and the per-slice counts it lists. Slices there are (bm,bk|wm,wk); ours {wm,wk,bm,bk}.
TEST_CASE("egtb: slice sizes equal the published counts", "[egtb]") {
    CHECK(placements<Russian>(2) == 3488);
    CHECK(placements<Russian>(3) == 196032);
    CHECK(placements<Russian>(4) == 6209316);
    CHECK(placements<Russian>(5) == 139450808);
    CHECK(placements<Russian>(6) == 2426085676ull);
    CHECK(placements<International>(2) == 8845);
    CHECK(placements<International>(3) == 806300);
    CHECK(placements<International>(4) == 41971200);
    CHECK(placements<International>(5) == 1570600750ull);

    struct Row {
        int bm, bk, wm, wk;
        std::uint64_t n;
    };
    const Row rows8[] = {
        {0, 1, 0, 1, 992},       {0, 1, 1, 0, 868},       {1, 0, 0, 1, 868},
        {1, 0, 1, 0, 760},       {0, 1, 0, 2, 14880},     {0, 1, 1, 1, 26040},
        {0, 1, 2, 0, 11340},     {1, 0, 0, 2, 13020},     {1, 0, 1, 1, 22800},
        {1, 0, 2, 0, 9936},      {0, 1, 0, 3, 143840},    {0, 1, 1, 2, 377580},
        {0, 1, 2, 1, 328860},    {0, 1, 3, 0, 95004},     {1, 0, 0, 3, 125860},
        {1, 0, 1, 2, 330600},    {1, 0, 2, 1, 288144},    {1, 0, 3, 0, 83304},
        {0, 2, 0, 2, 215760},    {0, 2, 1, 1, 377580},    {0, 2, 2, 0, 164430},
        {1, 1, 0, 2, 377580},    {1, 1, 1, 1, 661200},    {1, 1, 2, 0, 288144},
        {2, 0, 0, 2, 164430},    {2, 0, 1, 1, 288144},    {2, 0, 2, 0, 125664},
        {1, 1, 1, 2, 9256800},   {1, 2, 1, 2, 124966800}, {1, 2, 2, 2, 1415939616},
        {2, 2, 2, 2, 15437822400ull},                     {0, 2, 0, 3, 2013760},
    };
    for (const Row& r : rows8) {
        const Material m{r.wm, r.wk, r.bm, r.bk};
        INFO("8x8 slice " << m.code());
        CHECK(SliceIndex<Russian>(m).size() == r.n);
        CHECK(SliceIndex<English>(m).size() == r.n);  // the same board for every 8x8 variant
    }
    CHECK(SliceIndex<International>(Material{1, 2, 1, 2}).size() == 2317447800ull);

    // Every slice of up to 6 pieces on 8x8 and 5 on 10x10 against the formula.
    for (const Material& m : slices_up_to(6)) {
        INFO("slice " << m.code());
        CHECK(SliceIndex<Russian>(m).size() == formula(8, m));
        if (m.pieces() <= 5) CHECK(SliceIndex<International>(m).size() == formula(10, m));
    }
}

TEST_CASE("egtb: the index maps every placement to a number and back", "[egtb]") {
    auto whole = [](auto tag, const Material& m) {
        using R = typename decltype(tag)::type;
        const SliceIndex<R> index(m);
        std::uint64_t expected = 0;
        bool ok = true;
        index.for_each_in(0, index.size(), [&](std::uint64_t i, const Position<R>& p) {
            ok = ok && i == expected++ && index.index(p) == i && index.position(i) == p &&
                 material_of(p) == m && !(p.pieces[0] & p.pieces[1]) &&
                 !(p.pieces[0] & ~p.kings & Position<R>::promotion_row(Color::kWhite)) &&
                 !(p.pieces[1] & ~p.kings & Position<R>::promotion_row(Color::kBlack));
        });
        return ok && expected == index.size();
    };
    for (const Material& m : slices_up_to(3)) {
        INFO("slice " << m.code());
        CHECK(whole(std::type_identity<Russian>{}, m));
        CHECK(whole(std::type_identity<International>{}, m));
    }
    // Larger slices: random indices.
    std::mt19937_64 rng(7);
    for (const Material& m : {Material{2, 1, 1, 2}, Material{0, 3, 3, 0}, Material{1, 2, 2, 2}}) {
        const SliceIndex<Russian> r8(m);
        const SliceIndex<International> r10(m);
        for (int k = 0; k < 20000; ++k) {
            const std::uint64_t i = rng() % r8.size(), j = rng() % r10.size();
            REQUIRE(r8.index(r8.position(i)) == i);
            REQUIRE(r10.index(r10.position(j)) == j);
        }
    }
}

// RULES.md §1 numbers the squares from Black's side; the half turn maps square n to S + 1 - n.
TEST_CASE("egtb: the colour flip turns the board half a round", "[egtb]") {
    using G8 = Russian::Geometry;
    using G10 = International::Geometry;
    for (int n = 1; n <= 32; ++n)
        CHECK(turn<G8>(G8::mask_of_square(n)) == G8::mask_of_square(33 - n));
    for (int n = 1; n <= 50; ++n)
        CHECK(turn<G10>(G10::mask_of_square(n)) == G10::mask_of_square(51 - n));
    const auto p = parse_fen<Russian>("W:W21,K32:B5,K12");
    const auto q = flip(p);
    CHECK(to_fen<Russian>(q) == "B:WK21,28:BK1,12");
    CHECK(flip(q) == p);
}

// Every position of up to 3 pieces (both sides to move) against the plain solver, in every
// variant; 4 pieces on 8x8 under the slow label.
template <class R>
void compare_with_plain(int pieces) {
    TempDir dir(std::string(R::kName) + std::to_string(pieces));
    build<R>(dir.str(), pieces, 0);
    reference::PlainSolver<R> plain(pieces);
    Tables<R> tables(dir.str(), 64);
    std::uint64_t mismatches = 0, wins = 0, losses = 0, draws = 0;
    for (std::size_t i = 0; i < plain.positions().size(); ++i) {
        const Value v = tables.probe(plain.positions()[i]);
        const reference::PlainValue want = plain.value(i);
        const bool same = (want == reference::PlainValue::kWin && v.outcome == Outcome::kWin) ||
                          (want == reference::PlainValue::kLoss && v.outcome == Outcome::kLoss) ||
                          (want == reference::PlainValue::kDraw && v.outcome == Outcome::kDraw);
        if (!same && mismatches++ < 5)
            FAIL_CHECK(R::kName << " " << to_fen<R>(plain.positions()[i]) << ": tables "
                                << v.text() << ", plain solver " << int(want));
        wins += v.outcome == Outcome::kWin;
        losses += v.outcome == Outcome::kLoss;
        draws += v.outcome == Outcome::kDraw;
    }
    INFO(R::kName << ": " << plain.positions().size() << " positions, " << wins << " wins, "
                  << draws << " draws, " << losses << " losses");
    CHECK(mismatches == 0);
    CHECK(wins > 0);
    CHECK(losses > 0);
    // The same values through a block cache of no size (it keeps the last block read, so the
    // clock evicts at nearly every read), positions taken in a scattered order.
    Tables<R> small(dir.str(), 0);
    const std::size_t n = plain.positions().size();
    std::uint64_t differ = 0;
    for (std::size_t k = 0; k < std::min<std::size_t>(n, 3000); ++k) {
        const auto& p = plain.positions()[k * 7919 % n];
        differ += !(small.probe(p) == tables.probe(p));
    }
    CHECK(differ == 0);
    // The same through one such cache shared by three threads at once, as a search's threads
    // share it: each reads blocks that the others evict and refill under it (the sequence lock of
    // Tables::cached_code), and must still read every value right. Under ThreadSanitizer
    // (scripts/test tsan) this is also the check that the cache has no data race.
    {
        Tables<R> shared(dir.str(), 0);
        std::atomic<std::uint64_t> wrong{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 3; ++t)
            threads.emplace_back([&, t] {
                for (std::size_t k = 0; k < std::min<std::size_t>(n, 2000); ++k) {
                    const auto& p = plain.positions()[(k * 7919 + std::size_t(t) * 104729) % n];
                    if (!(shared.probe(p) == tables.probe(p))) ++wrong;
                }
            });
        for (auto& t : threads) t.join();
        CHECK(wrong == 0);
    }
    // And `dambit egtb verify --full` passes on them.
    int files = 0;
    VerifyOptions full;
    full.full = true;
    full.threads = 2;
    verify_tables<R>(dir.str(), slices_up_to(pieces), full,
                     [&](const Material& m, const VerifyReport& r) {
                         INFO(m.code() << ": " << r.failure << r.first_error);
                         CHECK(r.failure.empty());
                         CHECK(r.errors == 0);
                         CHECK(r.positions == SliceIndex<R>(m).size());
                         ++files;
                     });
    CHECK(files == int(slices_up_to(pieces).size()));
}

// International's 3 pieces are half the time of this test (1.6 million positions on 50 squares,
// both sides to move): under the sanitizers, whose run is for memory errors and undefined
// behaviour, it is compared up to 2 pieces. Its 3-piece tables are still built there and probed
// against `solve` (compare_with_solve below); what the sanitizers no longer run on them is this
// test's block cache of no size, its three threads on one cache and `verify --full`, which run
// on 10x10 at 2 pieces and on the five 8x8 variants at 3.
#ifdef __SANITIZE_ADDRESS__
constexpr int kInternationalPlainPieces = 2;
#else
constexpr int kInternationalPlainPieces = 3;
#endif
TEST_CASE("egtb: every variant's values up to 3 pieces equal a plain solver's", "[egtb]") {
    compare_with_plain<Russian>(3);
    compare_with_plain<Czech>(3);
    compare_with_plain<Brazilian>(3);
    compare_with_plain<Pool>(3);
    compare_with_plain<English>(3);
    compare_with_plain<International>(kInternationalPlainPieces);
}

TEST_CASE("egtb: 8x8 values up to 4 pieces equal a plain solver's", "[egtb][slow]") {
    compare_with_plain<Russian>(4);
    compare_with_plain<Czech>(4);
    compare_with_plain<Brazilian>(4);
    compare_with_plain<Pool>(4);
    compare_with_plain<English>(4);
}

// egtb-reference.md section 2 (Ed Trice): English, one king against one king, White to move: 992
// positions, 230 wins, 654 draws, 108 losses; the longest win is 11 plies.
TEST_CASE("egtb: English king against king", "[egtb]") {
    TempDir dir("english2");
    build<English>(dir.str(), 2, 2);
    const TableFile file(dir.str() + "/" + table_file_name("english", Material{0, 1, 0, 1}),
                         "english");
    CHECK(file.header().positions == 992);
    CHECK(file.header().wins == 230);
    CHECK(file.header().draws == 654);
    CHECK(file.header().losses == 108);
    CHECK(file.header().longest_win == 11);
    CHECK(file.header().distances);
}

// The published longest wins of solve-reference.md: with distance tables to 4 pieces, each row
// has exactly its distance, and no position of its slice (White to move) has a longer win. (The
// file's last row, "David & Goliath", is a famous position of a slice listed earlier, not its
// longest win: only its distance is checked.)
TEST_CASE("egtb: International distances equal the published longest wins", "[egtb][slow]") {
    TempDir dir("international4");
    build<International>(dir.str(), 4, 4);
    Tables<International> tables(dir.str(), 256);
    std::ifstream rows(std::string(DAMBIT_SOURCE_DIR) + "/bench/solve-international.txt");
    REQUIRE(rows);
    std::string line;
    int checked = 0, longest = 0;
    std::vector<Material> seen;
    while (std::getline(rows, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        const std::string fen = line.substr(0, tab);
        const int plies = std::stoi(line.substr(line.find_first_of("0123456789", tab)));
        const auto p = parse_fen<International>(fen);
        INFO(fen);
        CHECK(tables.probe(p) == Value::win(plies));
        const Material m = material_of(p);
        ++checked;
        if (std::find(seen.begin(), seen.end(), m) != seen.end()) continue;
        seen.push_back(m);
        const TableFile file(dir.str() + "/" + table_file_name("international", m), "");
        CHECK(file.header().longest_win == plies);
        ++longest;
    }
    CHECK(checked == 42);
    CHECK(longest == 41);
}

// The solver's draws (and halves of draws) proven with the tables of 2 pieces only, on random
// positions of 3 pieces, against the tables of 3: a draw is the tables' draw, "cannot lose" is
// never their loss, "cannot win" never their win. A draw here is proven by play that reaches
// drawn 2-piece positions (a capture) or repeats. Every move's proof (`solve --moves`) likewise.
// `tables`: those of 3 pieces.
// Four positions a slice, two under AddressSanitizer.
#ifdef __SANITIZE_ADDRESS__
constexpr int kDrawSolvesPerSlice = 2;
#else
constexpr int kDrawSolvesPerSlice = 4;
#endif
template <class R>
void compare_draws_with_tables(Tables<R>& tables) {
    TempDir small(std::string(R::kName) + "_draws2");
    build<R>(small.str(), 2, 2);
    std::mt19937_64 rng(17);
    int draws = 0, checked = 0;
    const auto check = [&](const search::Proof<typename R::Geometry>& proof, const Value& v) {
        if (proof.outcome == search::Outcome::kForcedWin) CHECK(v == Value::win(proof.plies));
        if (proof.outcome == search::Outcome::kForcedLoss) CHECK(v == Value::loss(proof.plies));
        if (proof.outcome == search::Outcome::kDrawn) {
            CHECK(v.outcome == Outcome::kDraw);
            CHECK((proof.cannot_lose && proof.cannot_win));
            ++draws;
        }
        if (proof.cannot_lose) CHECK(v.outcome != Outcome::kLoss);
        if (proof.cannot_win) CHECK(v.outcome != Outcome::kWin);
        ++checked;
    };
    for (const Material& m : slices_up_to(3)) {
        if (m.pieces() != 3) continue;
        const SliceIndex<R> index(m);
        for (int k = 0; k < kDrawSolvesPerSlice; ++k) {
            Position<R> p = index.position(rng() % index.size());
            if (rng() % 2) p = flip(p);
            search::SolveOptions o;
            o.max_plies = 11;
            o.hash_megabytes = 2;
            o.tables_dir = small.str();
            search::Solver<R> solver(o);
            INFO(R::kName << " " << to_fen<R>(p));
            check(solver.solve(p), tables.probe(p));
            for (const auto& [move, mp] : solver.solve_moves(p)) {
                INFO("move " << search::join_line<R>(p, {move}));
                check(mp, tables.probe(p.play(move)).parent());
            }
        }
    }
    CHECK(checked > 0);
    CHECK(draws > 0);
}

// Where the solver proves a result, the tables say the same (random quiet positions of 3 pieces,
// every variant, distances included); where it proves none within 15 plies, the tables have no
// result that short. Twelve draws a slice; four under AddressSanitizer, where the solves took a
// minute of the sanitizer build's test time.
#ifdef __SANITIZE_ADDRESS__
constexpr int kSolveDrawsPerSlice = 4;
#else
constexpr int kSolveDrawsPerSlice = 12;
#endif
template <class R>
void compare_with_solve() {
    TempDir dir(std::string(R::kName) + "_solve");
    build<R>(dir.str(), 3, 3);
    Tables<R> tables(dir.str(), 64);
    std::mt19937_64 rng(11);
    int proven = 0, moves_proven = 0, turn_moves = 0;
    for (const Material& m : slices_up_to(3)) {
        const SliceIndex<R> index(m);
        for (int k = 0; k < kSolveDrawsPerSlice; ++k) {
            Position<R> p = index.position(rng() % index.size());
            if (rng() % 2) p = flip(p);
            if (has_capture(p)) continue;
            search::SolveOptions o;
            o.max_plies = 15;
            o.hash_megabytes = 4;
            const auto proof = search::Solver<R>(o).solve(p);
            const Value v = tables.probe(p);
            INFO(R::kName << " " << to_fen<R>(p));
            if (proof.outcome == search::Outcome::kForcedWin) {
                CHECK(v == Value::win(proof.plies));
                ++proven;
            } else if (proof.outcome == search::Outcome::kForcedLoss) {
                CHECK(v == Value::loss(proof.plies));
                ++proven;
            } else {
                // No forced result within 15 plies: a draw, or longer than that.
                CHECK((v.outcome == Outcome::kDraw || v.plies > 15));
            }
            // Each move proven on its own (`solve --moves`) against the tables' value of the
            // position it leads to, for the side that makes it.
            if (k % 4 == 0) {
                search::Solver<R> solver(o);
                for (const auto& [move, mp] : solver.solve_moves(p)) {
                    const Value mv = tables.probe(p.play(move)).parent();
                    INFO("move " << search::join_line<R>(p, {move}));
                    if (mp.outcome == search::Outcome::kForcedWin)
                        CHECK(mv == Value::win(mp.plies));
                    else if (mp.outcome == search::Outcome::kForcedLoss)
                        CHECK(mv == Value::loss(mp.plies));
                    else  // no result within the bound it gives: a draw, or longer than that
                        CHECK((mv.outcome == Outcome::kDraw || mv.plies > mp.no_result_plies));
                    ++moves_proven;
                }
                // At each of the winner's turns of the proven line (`solve --duals`), every other
                // move against the tables, from that turn's position.
                Position<R> q = p;
                std::size_t played = 0;
                for (const auto& t : solver.line_turns(p, proof)) {
                    for (; played + 1 < std::size_t(t.ply); ++played) q = q.play(proof.line[played]);
                    CHECK(t.move == proof.line[played]);
                    for (const auto& [move, mp] : t.others) {
                        CHECK_FALSE(move == t.move);
                        const Value mv = tables.probe(q.play(move)).parent();
                        INFO("turn at ply " << t.ply << ", move " << search::join_line<R>(q, {move}));
                        if (mp.outcome == search::Outcome::kForcedWin)
                            CHECK(mv == Value::win(mp.plies));
                        else if (mp.outcome == search::Outcome::kForcedLoss)
                            CHECK(mv == Value::loss(mp.plies));
                        else
                            CHECK((mv.outcome == Outcome::kDraw || mv.plies > mp.no_result_plies));
                        // Looking as far as the root's 15 plies allow from this turn, no further.
                        if (mp.outcome == search::Outcome::kUnknown)
                            CHECK(mp.no_result_plies <= 16 - t.ply);
                        ++turn_moves;
                    }
                }
            }
        }
    }
    CHECK(proven > 0);
    CHECK(moves_proven > 0);
    CHECK(turn_moves > 0);
    compare_draws_with_tables<R>(tables);
}

// With the draw rules and no tables, a Russian king against a king: the Kodeks draws it after 5
// moves of each side without a capture (RULES.md §5), so the solver proves a draw wherever the
// tables (game-theoretic values) have no win or loss within those 10 plies, and a win or loss
// of the tables' length wherever they have one.
TEST_CASE("egtb: draws by the rules, a king against a king, agree with the tables", "[egtb]") {
    TempDir dir("kk_rules");
    build<Russian>(dir.str(), 2, 2);
    Tables<Russian> tables(dir.str(), 16);
    const SliceIndex<Russian> index(Material{0, 1, 0, 1});
    std::mt19937_64 rng(23);
    int draws = 0;
    for (int k = 0; k < 12; ++k) {
        const Position<Russian> p = index.position(rng() % index.size());
        search::SolveOptions o;
        o.max_plies = 12;
        o.hash_megabytes = 4;
        o.draw_rules = true;
        const auto proof = search::Solver<Russian>(o).solve(p);
        const Value v = tables.probe(p);
        INFO(to_fen<Russian>(p));
        if (v.outcome == Outcome::kDraw || v.plies > 10) {
            CHECK(proof.outcome == search::Outcome::kDrawn);
            draws += proof.outcome == search::Outcome::kDrawn;
        } else {
            CHECK(proof.outcome == (v.outcome == Outcome::kWin ? search::Outcome::kForcedWin
                                                               : search::Outcome::kForcedLoss));
            CHECK(proof.plies == v.plies);
        }
    }
    CHECK(draws > 0);
}

TEST_CASE("egtb: the tables agree with dambit solve, its draws too", "[egtb]") {
    compare_with_solve<Russian>();
    compare_with_solve<Czech>();
    compare_with_solve<Brazilian>();
    compare_with_solve<Pool>();
    compare_with_solve<English>();
    compare_with_solve<International>();
}

// By the rules (RULES.md: a side with no legal move loses), with no table needed: the side to
// move with no piece has lost; the side to move against none wins with any move, the opponent
// left to move with nothing. A lone king on square 5 (Russian a7, International 5) has moves.
TEST_CASE("egtb: a side with no piece is valued by the rules, without a table", "[egtb]") {
    TempDir dir("no_piece");  // empty: no position here may need a file
    const auto check = [&](auto variant) {
        using R = decltype(variant);
        Tables<R> tables(dir.str(), 1);
        CHECK(tables.probe(parse_fen<R>("W:W:BK5")) == Value::loss(0));
        CHECK(tables.probe(parse_fen<R>("B:W:BK5")) == Value::win(1));
        CHECK(tables.probe(parse_fen<R>("W:W20,K10:B")) == Value::win(1));
        const auto r = probe_with_moves<R>(dir.str(), 1, parse_fen<R>("B:W:BK5"));
        CHECK(r.value == Value::win(1));
        REQUIRE(!r.moves.empty());
        for (const auto& m : r.moves) CHECK(m.value == Value::win(1));
    };
    check(Russian{});
    check(International{});
}

TEST_CASE("egtb: a damaged file is reported with its name, never used", "[egtb]") {
    TempDir dir("damaged");
    build<Russian>(dir.str(), 2, 2);
    const std::string path = dir.str() + "/" + table_file_name("russian", Material{0, 1, 0, 1});
    {  // flip one byte in the last block
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-3, std::ios::end);
        char c = 0;
        f.get(c);
        f.seekp(-3, std::ios::end);
        f.put(char(c ^ 0x10));
    }
    Tables<Russian> tables(dir.str(), 16);
    try {
        tables.probe(parse_fen<Russian>("W:WK1:BK32"));
        FAIL("a damaged block was used");
    } catch (const TableError& e) {
        CHECK(std::string(e.what()).find(path) == 0);
        CHECK(std::string(e.what()).find("checksum") != std::string::npos);
    }
    // A table of another variant under this variant's name.
    TempDir other("other");
    build<Czech>(other.str(), 2, 2);
    std::filesystem::rename(other.str() + "/czech-0101.egtb", other.str() + "/russian-0101.egtb");
    Tables<Russian> wrong(other.str(), 16);
    CHECK_THROWS_WITH(wrong.probe(parse_fen<Russian>("W:WK1:BK32")),
                      Catch::Contains("russian-0101.egtb: a table of czech, not of russian"));
    // A position outside the tables built.
    CHECK_THROWS_WITH(wrong.probe(parse_fen<Russian>("W:WK1,K2:BK32")),
                      Catch::Contains("no table of slice 0201"));
}

namespace {

// Flips one bit of the byte `back` bytes before the end of `path` (in its last block).
void damage(const std::string& path, int back = 3) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-back, std::ios::end);
    char c = 0;
    f.get(c);
    f.seekp(-back, std::ios::end);
    f.put(char(c ^ 0x10));
}

std::string file_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("egtb: a file is checked whole when opened, not only the blocks a probe reads",
          "[egtb]") {
    TempDir dir("whole");
    build<Russian>(dir.str(), 2, 2);
    const Material m{0, 1, 0, 1};
    const std::string path = dir.str() + "/" + table_file_name("russian", m);
    {  // the same values in blocks of 64 positions: a file of many blocks
        std::vector<std::uint8_t> codes;
        TableHeader h;
        {
            const TableFile f(path, "russian");
            codes = f.read_all();
            h = f.header();
        }
        h.block_positions = 64;
        write_table(path, h, codes, 1);
    }
    const Position<Russian> first = slice_position<Russian>(m, 0);  // in block 0
    REQUIRE(!has_capture(first));
    {
        Tables<Russian> intact(dir.str(), 16);
        const Value v = intact.probe(first);
        TableFile f(path, "russian");
        REQUIRE(f.header().blocks > 3);
        CHECK_NOTHROW(f.check_blocks());
        damage(path);  // in the last block, which probing `first` never reads
        CHECK(intact.probe(first) == v);  // a file already open and checked is not read again
        CHECK_THROWS_WITH(f.check_blocks(),
                          Catch::StartsWith(path + ": block " +
                                            std::to_string(f.header().blocks - 1) +
                                            " checksum mismatch"));
    }
    Tables<Russian> tables(dir.str(), 16);
    CHECK_THROWS_WITH(tables.probe(first), Catch::StartsWith(path + ": block ") &&
                                               Catch::Contains("checksum mismatch"));
}

TEST_CASE("egtb: a file of blocks larger than the cache's frames is refused", "[egtb]") {
    // A well-formed file (every checksum right) whose blocks hold 2^17 positions: the block cache
    // keeps a block in a frame of 2^16 bytes, and copying a larger block into one would write past
    // it. Refused when opened, with the reason, by every reader of table files.
    TempDir dir("bigblocks");
    const KingFile k = king_against_king(dir);
    const std::string& path = k.path;
    TableHeader h = k.header;
    h.block_positions = std::uint32_t(1) << 17;
    write_table(path, h, k.codes, 1);
    CHECK_THROWS_WITH(TableFile(path, "russian"),
                      path + ": blocks of 131072 positions (at most 65536)");
    Tables<Russian> tables(dir.str(), 16);
    CHECK_THROWS_WITH(tables.probe(parse_fen<Russian>("W:WK1:BK32")),
                      Catch::Contains("blocks of 131072 positions"));
}

TEST_CASE("egtb: a header that declares more blocks than the file holds is refused before the "
          "index is read", "[egtb]") {
    // A file cut to its 128-byte header, whose header (checksum recomputed, as anyone can) says
    // 2^26 blocks and a data offset past the file's end, the file's real length as its length.
    // Every reader opening it allocated and cleared the whole index, 1.6 GB here, before its read
    // failed ("truncated or unreadable table file"); the header is now refused first.
    TempDir dir("hollow");
    const KingFile k = king_against_king(dir);
    std::string head = file_bytes(k.path).substr(0, 128);
    const auto put64 = [&](std::size_t at, std::uint64_t v) { std::memcpy(&head[at], &v, 8); };
    const auto put32 = [&](std::size_t at, std::uint32_t v) { std::memcpy(&head[at], &v, 4); };
    const std::uint64_t blocks = std::uint64_t(1) << 26;
    put64(40, blocks * k.header.block_positions);  // positions
    put32(88, std::uint32_t(blocks));              // blocks
    put64(96, 128 + blocks * 24);                  // data offset: after the index
    put64(104, 128);                               // the file's length, as it is
    put64(120, XXH64(head.data(), 120, 0));        // the header's checksum
    {
        std::ofstream f(k.path, std::ios::binary | std::ios::trunc);
        f.write(head.data(), std::streamsize(head.size()));
    }
    CHECK_THROWS_WITH(TableFile(k.path, "russian"), k.path + ": inconsistent header");
}

TEST_CASE("egtb: a header whose numbers do not fit its slice is refused before they are used",
          "[egtb]") {
    // Every checksum right (write_table makes them), numbers the slice cannot have. King against
    // king on 8x8: 32 * 31 = 992 positions. `egtb info` decoded the example position's index as
    // it stood: an index past the slice read outside the index's tables (ASan: stack overflow).
    TempDir dir("header");
    const KingFile k = king_against_king(dir);
    const std::string& path = k.path;
    const std::vector<std::uint8_t>& codes = k.codes;
    const TableHeader good = k.header;
    const Material m{0, 1, 0, 1};
    REQUIRE(good.positions == 992);
    REQUIRE(good.distances);
    REQUIRE(good.longest_win >= 0);
    CHECK_NOTHROW(check_header<Russian>(path, good, m));
    const auto refused = [&](TableHeader h, const std::string& why) {
        write_table(path, h, codes, 1);
        const TableFile f(path, "");  // its checksums pass
        CHECK_THROWS_WITH(check_header<Russian>(path, f.header(), m), why);
    };
    TableHeader h = good;
    h.longest_example = 992;
    refused(h, path + ": inconsistent header (example position 992 of 992)");
    h = good;
    h.wins += 1;
    refused(h, path + ": inconsistent header (wins, draws and losses do not add up to the "
                      "positions)");
    h = good;
    h.material = Material{0, 2, 0, 1};
    refused(h, path + ": holds slice 0201, not what its name says");
    // A material that does not fit the board (29 white men: they may stand on 28 squares of 8x8)
    // is refused by the index, with its reason.
    TableHeader big = good;
    big.material = Material{29, 0, 0, 1};
    CHECK_THROWS_WITH(check_header<Russian>(path, big, big.material),
                      Catch::StartsWith(path + ": inconsistent header (slice ") &&
                          Catch::Contains("does not fit the board"));
    // The verifier uses the same check, and names the file.
    h = good;
    h.longest_example = 5000;
    write_table(path, h, codes, 1);
    std::string failure;
    verify_tables<Russian>(dir.str(), {m}, VerifyOptions{},
                           [&](const Material&, const VerifyReport& r) { failure = r.failure; });
    CHECK(failure == path + ": inconsistent header (example position 5000 of 992)");
}

TEST_CASE("egtb: a damaged file stops the engine and the solver from using the tables",
          "[egtb]") {
    TempDir dir("engine");
    build<Russian>(dir.str(), 3, 3);
    // A slice the positions below never reach: before, the engine went on silently (with fewer
    // pieces of tables, or none) and the solver searched without them.
    const std::string path = dir.str() + "/" + table_file_name("russian", Material{2, 0, 1, 0});
    const Position<Russian> p = parse_fen<Russian>("W:WK1:BK32");
    search::Engine<Russian> engine(4, 1);
    REQUIRE(engine.set_tables(dir.str(), 16) == 3);
    damage(path);
    CHECK_THROWS_WITH(engine.set_tables(dir.str(), 16),
                      Catch::StartsWith(path + ": block 0 checksum mismatch"));
    // The engine is left without tables, and searches on.
    search::Limits limits;
    limits.depth = 2;
    CHECK(engine.go(p, {}, limits).has_move);
    search::SolveOptions o;
    o.tables_dir = dir.str();
    o.hash_megabytes = 4;
    CHECK_THROWS_WITH(search::Solver<Russian>(o), Catch::StartsWith(path + ": block 0"));
    // A missing file is not an error: the tables then cover fewer pieces.
    std::filesystem::remove(path);
    CHECK(engine.set_tables(dir.str(), 16) == 2);
}

TEST_CASE("egtb: in a drawn table position the engine keeps its pieces", "[egtb]") {
    TempDir dir("drawn");
    build<Russian>(dir.str(), 3, 3);
    search::Engine<Russian> engine(4, 1);
    REQUIRE(engine.set_tables(dir.str(), 16) == 3);
    // Two white kings on c1 and e1 against the black king on g1: a draw (two kings cannot force
    // a lone king in Russian draughts; the tables say so, and a king against a king is a draw
    // too), so most moves keep the table's value. But a white king played onto that diagonal with an empty
    // square behind it (e1-f2, c1-e3, ...) is taken at once (a flying king captures from afar),
    // leaving a king against a king. The engine played e1-f2. Every reply to its move must leave
    // White both kings.
    const Position<Russian> p = parse_fen<Russian>("W:WKc1,Ke1:BKg1");
    search::Limits limits;
    limits.depth = 6;
    const auto result = engine.go(p, {}, limits);
    REQUIRE(result.has_move);
    const Position<Russian> after = p.play(result.best);
    MoveList<Russian::Geometry> replies;
    generate<Russian>(after, replies);
    REQUIRE(replies.size() > 0);
    for (const auto& r : replies) CHECK(popcount(after.play(r).pieces[int(Color::kWhite)]) == 2);
}

TEST_CASE("egtb: a table found damaged during a search is an error of go(), in every thread",
          "[egtb]") {
    TempDir dir("during");
    build<Russian>(dir.str(), 2, 2);
    // King against king: every position of the search below is in this one file. It is checked
    // whole when the engine opens it, then damaged under the open engine (as a failing disk
    // would), so the first probe of the search reads the bad block. Before, the threads that
    // found it ended the program (std::terminate); now go() throws the error once every thread
    // has stopped, and the engine can search again.
    const std::string path = dir.str() + "/" + table_file_name("russian", Material{0, 1, 0, 1});
    const Position<Russian> p = parse_fen<Russian>("W:WK1:BK32");
    for (const int threads : {1, 2, 3}) {
        INFO("threads " << threads);
        search::Engine<Russian> engine(4, threads);
        REQUIRE(engine.set_tables(dir.str(), 16) == 2);
        const std::string intact = file_bytes(path);
        damage(path);
        search::Limits limits;
        limits.depth = 6;
        CHECK_THROWS_WITH(engine.go(p, {}, limits),
                          Catch::StartsWith(path + ": block 0 checksum mismatch"));
        {  // the file mended, the same engine searches again
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f << intact;
        }
        CHECK(engine.go(p, {}, limits).has_move);
        // A server's search: the tables fail, are turned off, and the search is made again.
        // (Opened afresh: the block read by the search above is in the tables' cache.)
        REQUIRE(engine.set_tables(dir.str(), 16) == 2);
        damage(path);
        std::vector<std::string> errors;
        const auto r = engine.go_without_failed_tables(
            p, {}, limits, {}, [&](const std::string& m) { errors.push_back(m); });
        CHECK(r.has_move);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0] == "search failed: " + path +
                               ": block 0 checksum mismatch (damaged file); the tables are off, "
                               "searching again without them");
        CHECK(engine.go(p, {}, limits).has_move);  // without tables now: no probe, no error
        {
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f << intact;
        }
    }
}

TEST_CASE("egtb: build makes a damaged file again, the same as before", "[egtb]") {
    TempDir dir("rebuild");
    build<Russian>(dir.str(), 3, 3);
    const std::string path = dir.str() + "/" + table_file_name("russian", Material{1, 1, 0, 1});
    const std::string intact = file_bytes(path);
    damage(path);
    REQUIRE(file_bytes(path) != intact);
    build<Russian>(dir.str(), 3, 3);
    CHECK(file_bytes(path) == intact);
}

// dambit egtb's time left (tools/cli.hpp). Rounded to the last unit shown, the rounding carried
// into the next unit: the old text took floor(s / 60) minutes and rounded the rest on its own, so
// 239.6 s (3 min 59.6 s) came out "3 min 60 s", and 59.6 s "60 s".
TEST_CASE("egtb: the time left is rounded with the carry, \"4 min 00 s\" not \"3 min 60 s\"",
          "[egtb]") {
    using cli::duration_text;
    CHECK(duration_text(0) == "0 s");
    CHECK(duration_text(59.4) == "59 s");
    CHECK(duration_text(59.6) == "1 min 00 s");   // 60 s once rounded
    CHECK(duration_text(125) == "2 min 05 s");    // 2 * 60 + 5
    CHECK(duration_text(239.6) == "4 min 00 s");  // the user's "3 min 60 s"
    CHECK(duration_text(3599.4) == "59 min 59 s");
    CHECK(duration_text(3599.6) == "1 h 00 min");  // 3600 s once rounded
    CHECK(duration_text(3929) == "1 h 05 min");    // 65 min 29 s: 65.48 min
    CHECK(duration_text(7185) == "2 h 00 min");    // 1 h 59 min 45 s: 119.75 min, 120 rounded
    // Nothing to estimate yet (a rate of 0 gives an infinite or undefined time).
    CHECK(duration_text(-3) == "0 s");
    CHECK(duration_text(std::nan("")) == "0 s");
    CHECK(duration_text(1e300) == duration_text(1e12));  // no overflow: 1e12 s is the most
}

TEST_CASE("egtb: counts in messages are singular for one", "[egtb]") {
    CHECK(cli::count_text(0, "slice", "slices") == "0 slices");
    CHECK(cli::count_text(1, "slice", "slices") == "1 slice");
    CHECK(cli::count_text(22, "slice", "slices") == "22 slices");
}

// egtb verify --full, stopped as a signal handler would stop it (the flag set while the second
// file's tables load): Interrupted, with the first file reported and the second not. The files in
// build order (egtb/material.hpp: pieces, then men, then the code): 0101, then 0110 (a white king
// and a black man) before 1001.
TEST_CASE("egtb: verify stops between the pieces of its work when asked", "[egtb]") {
    TempDir dir("verify_stop");
    build<Russian>(dir.str(), 2, 2);
    std::vector<std::string> phases;
    int reports = 0;
    std::atomic<bool> stop{false};
    VerifyOptions o;
    o.full = true;
    o.progress = [&](const VerifyProgress& p) {
        phases.push_back(p.slice.code() + " " + p.phase);
        if (reports == 1 && p.phase == "loading") stop = true;
    };
    o.stop = [&] { return stop.load(); };
    CHECK_THROWS_AS(verify_tables<Russian>(dir.str(), slices_up_to(2), o,
                                           [&](const Material&, const VerifyReport&) { ++reports; }),
                    Interrupted);
    CHECK(reports == 1);
    // 0101 has 992 positions (32 * 31): one piece of work of the values, told at its start.
    CHECK(phases == std::vector<std::string>{"0101 checksums", "0101 loading", "0101 values",
                                             "0110 checksums", "0110 loading"});
    // Stopped before it starts: nothing is reported.
    stop = true;
    reports = 0;
    CHECK_THROWS_AS(verify_tables<Russian>(dir.str(), slices_up_to(2), o,
                                           [&](const Material&, const VerifyReport&) { ++reports; }),
                    Interrupted);
    CHECK(reports == 0);
}

// A journal names the tables by what they hold (tools/cli.hpp): a resume with other tables built
// into the same folder was taken (it named the folder's path), and the same tables copied to
// another folder were refused. The identity reads each table's name and 128-byte header (which
// holds the checksums of its blocks), so files of any bytes serve here.
TEST_CASE("egtb: the tables' identity is what they hold, not where", "[egtb]") {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / ("dambit_tables_id." + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "a");
    const auto write = [](const fs::path& p, char fill) {
        std::ofstream(p, std::ios::binary) << std::string(200, fill);
    };
    write(root / "a" / "russian-0101.egtb", 'x');
    write(root / "a" / "russian-0110.egtb", 'y');
    const std::string a = cli::tables_identity((root / "a").string());
    CHECK(a.ends_with("/2"));
    CHECK(a.find(' ') == std::string::npos);  // a journal escapes blanks: "%20" in a message
    // Another variant's tables built into the same folder: the Russian ones are the same.
    CHECK(cli::tables_identity((root / "a").string(), "russian") == a);
    write(root / "a" / "international-0101.egtb", 'i');
    CHECK(cli::tables_identity((root / "a").string(), "russian") == a);
    CHECK(cli::tables_identity((root / "a").string()) != a);
    fs::remove(root / "a" / "international-0101.egtb");
    CHECK(a.starts_with("xxh64:"));
    fs::copy(root / "a", root / "copy");
    CHECK(cli::tables_identity((root / "copy").string()) == a);
    CHECK(cli::tables_identity((root / "a").string() + "/") == a);
    write(root / "a" / "russian-0201.egtb", 'z');  // the next piece count built into the folder
    CHECK(cli::tables_identity((root / "a").string()) != a);
    write(root / "copy" / "russian-0110.egtb", 'w');  // a table built again, other bytes
    CHECK(cli::tables_identity((root / "copy").string()) != a);
    CHECK(cli::tables_identity("") == "none");
    fs::remove_all(root);
}
