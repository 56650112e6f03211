// dambit hub: placeholder until the Hub front end lands.
#include "cli.hpp"
#include "commands.hpp"

namespace dambit {

int hub_command(int, char**) { throw cli::UsageError("not built yet"); }

}  // namespace dambit
