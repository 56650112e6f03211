// libFuzzer target: tests/fuzz/entries.hpp, fuzz::fen.
#include "fuzz/entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return dambit::fuzz::fen(data, size);
}
