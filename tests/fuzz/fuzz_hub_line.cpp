// libFuzzer target: tests/fuzz/entries.hpp, fuzz::hub_line.
#include "fuzz/entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return dambit::fuzz::hub_line(data, size);
}
