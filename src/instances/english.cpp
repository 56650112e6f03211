// The compiled copy of the core for English draughts (see instances.hpp).
#define DAMBIT_INSTANTIATING 1
#include "notation.hpp"
#include "perft.hpp"

namespace dambit {
DAMBIT_MOVEGEN_TEMPLATES(English)
DAMBIT_NOTATION_TEMPLATES(English)
DAMBIT_PERFT_TEMPLATES(English)
}  // namespace dambit
