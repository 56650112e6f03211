// Perft of every published row (perft/*.txt, sources cited there): shallow rows fast, deep rows slow.
#include <catch2/catch.hpp>

#include <xxhash.h>

#include <cstdio>
#include <string>

#include "core/notation.hpp"
#include "perft/checkpoint.hpp"
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

namespace {

constexpr const char* kRun = "russian drop W:W21-32:B1-12";

// A checkpoint in the middle of a depth: every kind of record.
PerftCheckpoint sample_checkpoint() {
    PerftCheckpoint c;
    c.run = kRun;
    c.depths = {{1, 7}, {2, 49}, {3, 302}};
    c.split_depth = 4;
    c.subtrees = 49;
    c.split_key = 0x0123456789abcdefULL;
    c.done = {{0, 30}, {5, 31}, {48, 29}};
    return c;
}

// `body` (the records after the first line) with the first line and a correct checksum line: a
// file as a careful editor could make it, to test the records' own checks.
std::string with_checksum(const std::string& body) {
    const std::string t = "dambit-perft-checkpoint 2\n" + body;
    char sum[17];
    std::snprintf(sum, sizeof sum, "%016llx",
                  static_cast<unsigned long long>(XXH64(t.data(), t.size(), 0)));
    return t + "xxh64 " + sum + "\n";
}

std::string parse_error(const std::string& text, const std::string& run = kRun) {
    try {
        parse_checkpoint(text, "ck", run);
    } catch (const CheckpointError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("A perft checkpoint reads back what was written", "[perft]") {
    const PerftCheckpoint c = sample_checkpoint();
    const PerftCheckpoint r = parse_checkpoint(checkpoint_text(c), "ck", kRun);
    CHECK(r.run == c.run);
    CHECK(r.depths == c.depths);
    CHECK(r.split_depth == c.split_depth);
    CHECK(r.subtrees == c.subtrees);
    CHECK(r.split_key == c.split_key);
    CHECK(r.done == c.done);
    PerftCheckpoint fresh;  // the run alone, as written before the first depth
    fresh.run = kRun;
    const PerftCheckpoint f = parse_checkpoint(checkpoint_text(fresh), "ck", kRun);
    CHECK(f.depths.empty());
    CHECK(f.split_depth == 0);
    CHECK(f.done.empty());
    // The largest counts a u64 holds are read back whole.
    fresh.depths = {{30, 18446744073709551615ULL}};
    CHECK(parse_checkpoint(checkpoint_text(fresh), "ck", kRun).depths.at(30) ==
          18446744073709551615ULL);
}

TEST_CASE("A torn or edited perft checkpoint is refused, naming the file", "[perft]") {
    const std::string text = checkpoint_text(sample_checkpoint());
    // Torn: every shorter prefix of the file (a write cut off anywhere).
    for (std::size_t n = 0; n < text.size(); ++n) {
        INFO("the first " << n << " bytes");
        CHECK_THROWS_WITH(parse_checkpoint(text.substr(0, n), "ck", kRun),
                          Catch::StartsWith("checkpoint 'ck'"));
    }
    // Edited: a finished depth's count changed (depth 3: 302 -> 303), and each byte in turn
    // changed to another character.
    std::string edited = text;
    edited.replace(edited.find("depth 3 302"), 11, "depth 3 303");
    CHECK_THAT(parse_error(edited), Catch::Contains("checksum does not match"));
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::string t = text;
        t[i] = t[i] == '1' ? '2' : '1';
        INFO("byte " << i);
        CHECK_THAT(parse_error(t), Catch::StartsWith("checkpoint 'ck'"));
    }
    // Lines added at the end, or after the checksum line.
    CHECK_THAT(parse_error(text + "depth 4 1469\n"), Catch::Contains("damaged"));
}

TEST_CASE("A perft checkpoint's numbers and records are read strictly", "[perft]") {
    const std::string run = std::string("run ") + kRun + "\n";
    // A correct file of these records is read (so the refusals below are the records' own).
    CHECK(parse_error(with_checksum(run + "depth 1 7\nsplit 2 7 1f\nsubtree 6 7\n")).empty());
    for (const char* record :
         {"depth 1 -5", "depth 1 +5", "depth 1 5x", "depth 1 0x5", "depth 1 5 6", "depth 1",
          "depth 1  5", "depth 1 18446744073709551616", "depth 0 7", "depth 31 7", "depth -1 7",
          "split 2 0 1f", "split 2 7 -1f", "split 2 7 1g", "split 2 7 12345678901234567",
          "split 2 7", "split 0 7 1f"}) {
        INFO(record);
        CHECK_THAT(parse_error(with_checksum(run + record + "\n")),
                   Catch::StartsWith("checkpoint 'ck' line 3: bad record"));
    }
    CHECK_THAT(parse_error(with_checksum(run + "split 2 7 1f\nsubtree 7 5\n")),
               Catch::Contains("line 4: bad record 'subtree 7 5'"));
    CHECK_THAT(parse_error(with_checksum(run + "split 2 7 1f\nsubtree 1 -5\n")),
               Catch::Contains("line 4: bad record"));
    CHECK_THAT(parse_error(with_checksum(run + "subtree 1 5\n")),
               Catch::Contains("'subtree' before the split record"));
    CHECK_THAT(parse_error(with_checksum(run + "depth 1 7\ndepth 1 8\n")),
               Catch::Contains("depth 1 twice"));
    CHECK_THAT(parse_error(with_checksum(run + "split 2 7 1f\nsubtree 1 5\nsubtree 1 5\n")),
               Catch::Contains("subtree 1 twice"));
    CHECK_THAT(parse_error(with_checksum(run + "split 2 7 1f\nsplit 2 7 1f\n")),
               Catch::Contains("a second split record"));
    CHECK_THAT(parse_error(with_checksum(run + "nodes 5\n")),
               Catch::Contains("unknown record 'nodes'"));
    CHECK_THAT(parse_error(with_checksum("depth 1 7\n" + run)),
               Catch::Contains("line 2: 'depth' before the run record"));
    CHECK_THAT(parse_error(with_checksum("")), Catch::Contains("no run record"));
    CHECK_THAT(parse_error(with_checksum(run), "russian keep W:W21-32:B1-12"),
               Catch::Contains("belongs to another run"));
}

TEST_CASE("A perft checkpoint of another format is refused, saying so", "[perft]") {
    // As dambit wrote them before the checksum: format 1.
    CHECK_THAT(parse_error(std::string("dambit-perft-checkpoint 1\nrun ") + kRun +
                           "\ndepth 1 7\n"),
               Catch::StartsWith("checkpoint 'ck': written by an older dambit (format 1"));
    CHECK_THAT(parse_error("dambit-perft-checkpoint 3\n"),
               Catch::Contains("format '3', not 2"));
    CHECK_THAT(parse_error("garbage\n"), Catch::Contains("not a dambit perft checkpoint"));
    CHECK_THAT(parse_error(""), Catch::Contains("not a dambit perft checkpoint"));
}
