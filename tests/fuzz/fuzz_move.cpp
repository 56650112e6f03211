// libFuzzer target: tests/fuzz/entries.hpp, fuzz::move.
#include "fuzz/entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return dambit::fuzz::move(data, size);
}
