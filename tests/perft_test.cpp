// Perft of every published row (perft/*.txt, sources cited there): shallow rows fast, deep rows slow.
#include <catch2/catch.hpp>

#include "core/notation.hpp"
#include "perft/perft.hpp"
#include "tables.hpp"
#include "core/variant.hpp"

using namespace dambit;

namespace {

// Checks the rows of `variant` whose node count is within [lo, hi).
void check_rows(std::string_view variant, std::uint64_t lo, std::uint64_t hi, int threads) {
    const auto rows = perft_table(variant);
    REQUIRE(!rows.empty());
    for (const PerftRow& r : rows) {
        if (r.nodes < lo || r.nodes >= hi) continue;
        with_variant(*parse_variant(variant), [&]<class R>(std::type_identity<R>) {
            const auto p = parse_fen<R>(r.fen);
            const auto counts = perft_divide<R>(p, r.depth, r.duplicates, threads, nullptr);
            std::uint64_t n = 0;
            for (auto c : counts) n += c;
            INFO(variant << " " << r.name << " depth " << r.depth
                         << (r.duplicates == Duplicates::kKeep ? " keep" : " drop"));
            CHECK(n == r.nodes);
        });
    }
}

}  // namespace

TEST_CASE("Russian start position perft to depth 9, both conventions", "[perft]") {
    // Depth 9 is 4.57 million leaves: the published rows up to it.
    check_rows("russian", 0, 5'000'000, 1);
}

TEST_CASE("Russian perft to depth 12 with two threads", "[perft][slow]") {
    check_rows("russian", 5'000'000, 600'000'000, 2);
}

TEST_CASE("Every variant's published rows up to 5 million leaves", "[perft]") {
    for (const char* v : {"czech", "brazilian", "pool", "english", "international"})
        check_rows(v, 0, 5'000'000, 1);
}

TEST_CASE("Every variant's published rows up to 600 million leaves, two threads",
          "[perft][slow]") {
    // 8x8 start positions to depth 12; International to depth 10 from the start, and the
    // other International positions as far as that many leaves.
    for (const char* v : {"czech", "brazilian", "pool", "english", "international"})
        check_rows(v, 5'000'000, 600'000'000, 2);
}

TEST_CASE("Perft with a hash table gives the same counts", "[perft]") {
    // Russian start, depth 9, both conventions (published: 4570667 keep, 4570586 drop).
    const auto p = Position<Russian>::start();
    PerftHash hash(16);
    CHECK(perft<Russian>(p, 9, Duplicates::kKeep, &hash) == 4570667);
    CHECK(perft<Russian>(p, 9, Duplicates::kDrop, &hash) == 4570586);
    const auto split = perft_divide<Russian>(p, 9, Duplicates::kKeep, 2, &hash);
    std::uint64_t n = 0;
    for (auto c : split) n += c;
    CHECK(n == 4570667);
}

TEST_CASE("One hash table shared by the 8x8 variants keeps their counts apart", "[perft]") {
    // The 8x8 variants share the start position W:W21-32:B1-12, but not their counts
    // (perft-reference.md, depth 7: Russian 190146, Czech and English 179740, Brazilian 187302,
    // Pool 190146). Filled by one variant, the table must not answer for another.
    PerftHash hash(16);
    CHECK(perft<Russian>(Position<Russian>::start(), 7, Duplicates::kDrop, &hash) == 190146);
    CHECK(perft<Czech>(Position<Czech>::start(), 7, Duplicates::kDrop, &hash) == 179740);
    CHECK(perft<Brazilian>(Position<Brazilian>::start(), 7, Duplicates::kDrop, &hash) == 187302);
    CHECK(perft<English>(Position<English>::start(), 7, Duplicates::kDrop, &hash) == 179740);
    CHECK(perft<Pool>(Position<Pool>::start(), 7, Duplicates::kDrop, &hash) == 190146);
}

TEST_CASE("A perft split resumes from known subtree counts without counting them again", "[perft]") {
    // Russian start, depth 8: 929899 leaves in the drop convention (perft-reference.md). The
    // split cuts at two plies: 7 root moves with 7 replies each, 49 subtrees of depth 6.
    const auto p = Position<Russian>::start();
    const auto split = perft_split(p, 8, Duplicates::kDrop);
    REQUIRE(split.roots == 7);
    REQUIRE(split.pos.size() == 49);
    CHECK(split.sub_depth == 6);
    std::vector<std::int64_t> full;
    perft_run(split, Duplicates::kDrop, 2, nullptr, full);
    std::int64_t total = 0;
    for (auto n : full) total += n;
    CHECK(total == 929899);
    // Resume with the even subtrees known, one of them deliberately wrong by 1000: a resumed run
    // must take the known counts as they are and count only the others.
    std::vector<std::int64_t> part(full.size(), -1);
    for (std::size_t k = 0; k < part.size(); k += 2) part[k] = full[k];
    part[0] += 1000;
    int counted = 0;
    perft_run(split, Duplicates::kDrop, 1, nullptr, part, [&](int k, std::uint64_t) {
        CHECK(k % 2 == 1);
        ++counted;
    });
    CHECK(counted == 24);
    std::int64_t resumed = 0;
    for (auto n : part) resumed += n;
    CHECK(resumed == 929899 + 1000);
}
