// The compiled copy of the core for Russian draughts (see instances.hpp).
#define DAMBIT_INSTANTIATING 1
#include "notation.hpp"
#include "perft.hpp"

namespace dambit {
DAMBIT_MOVEGEN_TEMPLATES(Russian)
DAMBIT_NOTATION_TEMPLATES(Russian)
DAMBIT_PERFT_TEMPLATES(Russian)
}  // namespace dambit
