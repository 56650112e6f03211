// libFuzzer target: tests/fuzz/entries.hpp, fuzz::dxp.
#include "fuzz/entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return dambit::fuzz::dxp(data, size);
}
