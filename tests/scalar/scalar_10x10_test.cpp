// The scalar fallback of Lanes (no vector extensions) gives the published perft counts: the 10x10
// board, International in both conventions (see scalar_8x8_test.cpp for how this program is built).
#define DAMBIT_INSTANTIATE_CORE 1
#define DAMBIT_INSTANTIATE_PERFT 1
#include <catch2/catch.hpp>

#include "perft/perft.hpp"

using namespace dambit;

static_assert(!DAMBIT_VECTOR_LANES, "this test must be built with DAMBIT_SCALAR_LANES");

// Published start-position counts, ../shared/perft-reference.md (source: dctl, see perft/*.txt).
TEST_CASE("Scalar lanes: start-position perft of International", "[perft][scalar]") {
    const auto start = Position<International>::start();
    CHECK(perft<International, Duplicates::kKeep>(start, 7) == 1049442);
    CHECK(perft<International, Duplicates::kDrop>(start, 8) == 6483961);
}
