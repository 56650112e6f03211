// libFuzzer target: tests/fuzz/entries.hpp, fuzz::pdn.
#include "fuzz/entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return dambit::fuzz::pdn(data, size);
}
