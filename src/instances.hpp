// Explicit instantiation of the core's entry points: each variant's move generator, notation and
// perft are compiled once, in src/instances/<variant>.cpp, instead of in every file that uses them.
#pragma once

#include "rules.hpp"

// X(R) for every rule set.
#define DAMBIT_FOR_EACH_RULES(X) \
    X(::dambit::Russian)         \
    X(::dambit::Czech)           \
    X(::dambit::Brazilian)       \
    X(::dambit::Pool)            \
    X(::dambit::English)         \
    X(::dambit::International)

// Files that define DAMBIT_INSTANTIATING see the templates' bodies and instantiate them; every
// other file sees `extern template` declarations and calls the compiled copies.
#ifdef DAMBIT_INSTANTIATING
#define DAMBIT_EXTERN
#else
#define DAMBIT_EXTERN extern
#endif
