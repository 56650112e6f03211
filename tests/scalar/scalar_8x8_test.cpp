// The scalar fallback of Lanes (no vector extensions) gives the published perft counts: the 8x8
// board (scalar_10x10_test.cpp has the 10x10 one).
//
// Built as its own program with DAMBIT_SCALAR_LANES, so that no vector-lane copy of the core is
// linked beside it. Catch2's main is test_main.cpp, compiled apart: in this file, beside the whole
// instantiated core, GCC 12 at -O3 inlined it into a false -Wrestrict error. The two boards are
// two files so that they compile in parallel.
//
// The lane code is the same for every variant of a board; the variants differ in rules, which the
// vector build's tests pin. So the sanitizer build (whose compile of every variant's instance here
// took two minutes) checks the scalar lanes with Russian only, in both conventions; the other
// builds define DAMBIT_SCALAR_EVERY_VARIANT and check all five 8x8 variants.
#define DAMBIT_INSTANTIATE_CORE 1
#define DAMBIT_INSTANTIATE_PERFT 1
#include <catch2/catch.hpp>

#include "perft/perft.hpp"

using namespace dambit;

static_assert(!DAMBIT_VECTOR_LANES, "this test must be built with DAMBIT_SCALAR_LANES");

// Published start-position counts, ../shared/perft-reference.md (source: dctl, see perft/*.txt).
TEST_CASE("Scalar lanes: start-position perft of the 8x8 variants", "[perft][scalar]") {
    const auto start8 = Position<Russian>::start();
    CHECK(perft<Russian, Duplicates::kKeep>(start8, 9) == 4570667);
    CHECK(perft<Russian, Duplicates::kDrop>(start8, 9) == 4570586);
#if DAMBIT_SCALAR_EVERY_VARIANT
    CHECK(perft<Czech, Duplicates::kDrop>(Position<Czech>::start(), 8) == 845931);
    CHECK(perft<Brazilian, Duplicates::kKeep>(Position<Brazilian>::start(), 8) == 907836);
    CHECK(perft<Brazilian, Duplicates::kDrop>(Position<Brazilian>::start(), 8) == 907830);
    CHECK(perft<Pool, Duplicates::kKeep>(Position<Pool>::start(), 8) == 929902);
    CHECK(perft<English, Duplicates::kDrop>(Position<English>::start(), 8) == 845931);
#endif
}
