// The scalar fallback of Lanes (no vector extensions) gives the published perft counts.
//
// Built as its own program with DAMBIT_SCALAR_LANES, so that no vector-lane copy of the core is
// linked beside it. Catch2's main is test_main.cpp, compiled apart: in this file, beside the whole
// instantiated core, GCC 12 at -O3 inlined it into a false -Wrestrict error.
#define DAMBIT_INSTANTIATE_CORE 1
#define DAMBIT_INSTANTIATE_PERFT 1
#include <catch2/catch.hpp>

#include "perft/perft.hpp"

using namespace dambit;

static_assert(!DAMBIT_VECTOR_LANES, "this test must be built with DAMBIT_SCALAR_LANES");

// Published start-position counts, ../shared/perft-reference.md (source: dctl, see perft/*.txt).
TEST_CASE("Scalar lanes: start-position perft of every variant", "[perft][scalar]") {
    const auto start8 = Position<Russian>::start();
    CHECK(perft<Russian, Duplicates::kKeep>(start8, 9) == 4570667);
    CHECK(perft<Russian, Duplicates::kDrop>(start8, 9) == 4570586);
    CHECK(perft<Czech, Duplicates::kDrop>(Position<Czech>::start(), 8) == 845931);
    CHECK(perft<Brazilian, Duplicates::kKeep>(Position<Brazilian>::start(), 8) == 907836);
    CHECK(perft<Brazilian, Duplicates::kDrop>(Position<Brazilian>::start(), 8) == 907830);
    CHECK(perft<Pool, Duplicates::kKeep>(Position<Pool>::start(), 8) == 929902);
    CHECK(perft<English, Duplicates::kDrop>(Position<English>::start(), 8) == 845931);
    CHECK(perft<International, Duplicates::kKeep>(Position<International>::start(), 7) == 1049442);
    CHECK(perft<International, Duplicates::kDrop>(Position<International>::start(), 8) == 6483961);
}
