// The compiled copy of the core for Brazilian draughts (see instances.hpp).
#define DAMBIT_INSTANTIATING 1
#include "notation.hpp"
#include "perft.hpp"

namespace dambit {
DAMBIT_MOVEGEN_TEMPLATES(Brazilian)
DAMBIT_NOTATION_TEMPLATES(Brazilian)
DAMBIT_PERFT_TEMPLATES(Brazilian)
}  // namespace dambit
