// The compiled copy of the core for Czech draughts (see instances.hpp).
#define DAMBIT_INSTANTIATING 1
#include "notation.hpp"
#include "perft.hpp"

namespace dambit {
DAMBIT_MOVEGEN_TEMPLATES(Czech)
DAMBIT_NOTATION_TEMPLATES(Czech)
DAMBIT_PERFT_TEMPLATES(Czech)
}  // namespace dambit
