// The compiled copy of the core for International draughts (see instances.hpp).
#define DAMBIT_INSTANTIATING 1
#include "notation.hpp"
#include "perft.hpp"

namespace dambit {
DAMBIT_MOVEGEN_TEMPLATES(International)
DAMBIT_NOTATION_TEMPLATES(International)
DAMBIT_PERFT_TEMPLATES(International)
}  // namespace dambit
