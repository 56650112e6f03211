// The compiled copy of every subsystem for Russian draughts: the move generator and notation, perft,
// the searcher and the solver, the endgame tables (see core/instances.hpp). One file per
// variant, so that the headers are parsed once for all of them.
#define DAMBIT_INSTANTIATE_CORE 1
#define DAMBIT_INSTANTIATE_PERFT 1
#define DAMBIT_INSTANTIATE_SEARCH 1
#define DAMBIT_INSTANTIATE_EGTB 1
#include "core/notation.hpp"
#include "egtb/operations.hpp"
#include "perft/perft.hpp"
#include "search/engine_impl.hpp"
#include "search/solve_impl.hpp"

#undef DAMBIT_EXTERN
#define DAMBIT_EXTERN
namespace dambit {
DAMBIT_MOVEGEN_TEMPLATES(Russian)
DAMBIT_NOTATION_TEMPLATES(Russian)
DAMBIT_PERFT_TEMPLATES(Russian)
}  // namespace dambit
namespace dambit::search {
DAMBIT_ENGINE_TEMPLATES(Russian)
DAMBIT_SOLVER_TEMPLATES(Russian)
}  // namespace dambit::search
namespace dambit::egtb {
DAMBIT_EGTB_TEMPLATES(Russian)
}  // namespace dambit::egtb
