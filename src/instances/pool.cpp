// The compiled copy of the core for Pool draughts (see instances.hpp).
#define DAMBIT_INSTANTIATING 1
#include "notation.hpp"
#include "perft.hpp"

namespace dambit {
DAMBIT_MOVEGEN_TEMPLATES(Pool)
DAMBIT_NOTATION_TEMPLATES(Pool)
DAMBIT_PERFT_TEMPLATES(Pool)
}  // namespace dambit
