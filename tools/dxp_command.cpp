// dambit dxp: placeholder until the DXP front end lands.
#include "cli.hpp"
#include "commands.hpp"

namespace dambit {

int dxp_command(int, char**) { throw cli::UsageError("not built yet"); }

}  // namespace dambit
