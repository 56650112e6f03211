// Explicit instantiation: each variant's templates are compiled once, in the variant's instance
// file (CMake makes one per variant from src/instances/instance.cpp.in), instead of in every file
// that uses them.
//
// Every other file sees `extern template` declarations (DAMBIT_EXTERN is `extern`) and calls the
// compiled copies. An instance file defines DAMBIT_INSTANTIATE_<SUBSYSTEM> before its includes, so
// that those subsystems' headers declare nothing extern there, then redefines DAMBIT_EXTERN empty
// and expands each subsystem's DAMBIT_<...>_TEMPLATES(R) macro for its variant.
#pragma once

#include "core/rules.hpp"

// X(R) for every rule set.
#define DAMBIT_FOR_EACH_RULES(X) \
    X(::dambit::Russian)         \
    X(::dambit::Czech)           \
    X(::dambit::Brazilian)       \
    X(::dambit::Pool)            \
    X(::dambit::English)         \
    X(::dambit::International)

#ifndef DAMBIT_EXTERN
#define DAMBIT_EXTERN extern
#endif
