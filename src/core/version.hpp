// The program's version, as `dambit --version` and the Hub protocol's `id` line give it.
#pragma once

namespace dambit {

inline constexpr const char* kVersion = "0.9";

}  // namespace dambit
