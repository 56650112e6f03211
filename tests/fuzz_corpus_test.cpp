// Replays the saved fuzz inputs (tests/fuzz/corpus/<target>/, grown by scripts/fuzz) through the
// fuzz targets' bodies, so that every test run checks what the fuzzer once found or covered.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/entries.hpp"

namespace {

using Entry = int (*)(const std::uint8_t*, std::size_t);

int replay(const std::string& target, Entry entry) {
    const std::filesystem::path dir =
        std::filesystem::path(DAMBIT_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / target;
    int n = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(f.path(), std::ios::binary);
        const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        entry(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
        ++n;
    }
    return n;
}

}  // namespace

TEST_CASE("fuzz corpus: FEN", "[fuzz]") { CHECK(replay("fen", dambit::fuzz::fen) > 10); }
TEST_CASE("fuzz corpus: moves", "[fuzz]") { CHECK(replay("move", dambit::fuzz::move) > 10); }
TEST_CASE("fuzz corpus: Hub lines", "[fuzz]") { CHECK(replay("hub_line", dambit::fuzz::hub_line) > 10); }
TEST_CASE("fuzz corpus: DXP messages", "[fuzz]") { CHECK(replay("dxp", dambit::fuzz::dxp) > 10); }
TEST_CASE("fuzz corpus: Hub sessions", "[fuzz]") {
    CHECK(replay("hub_session", dambit::fuzz::hub_session) > 10);
}
TEST_CASE("fuzz corpus: PDN", "[fuzz]") { CHECK(replay("pdn", dambit::fuzz::pdn) > 10); }
