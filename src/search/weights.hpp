// Weights files of the learned evaluation (search/learned_eval.hpp): reading, checking, writing,
// and the files compiled into the program (src/search/weights/VARIANT.dbw).
//
// The format (version 3, little-endian): the 8 bytes "DAMBITEV"; u32 version; the variant's name
// in 16 bytes, zero-padded; 40 i32: man, king, advance_opening[10], advance_ending[10], centre,
// flank_imbalance, back_rank, back_rank_max, runaway[10], king_mobility, long_diagonal,
// draw_scale, tempo; 3 i32 (not in version 1, which is still read, these 0): king_opening,
// sole_king_opening, sole_king_ending; u32 windows; u32 indices per window (6561); u32 strips and
// u32 indices per strip (19683; not in versions 1 and 2: no strips); u32 length and the bytes of
// the description; windows * indices * 2 i16 pattern weights ([window][index][opening, ending]);
// strips * indices * 2 i16 strip weights, in the same order; and the XXH64 (seed 0) of every
// byte before it. docs/learning.md describes how files are made.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/variant.hpp"
#include "search/learned_eval.hpp"

namespace dambit::search {

inline constexpr std::uint32_t kWeightsVersion = 3;
// The first eight bytes of every weights file.
inline constexpr std::string_view kWeightsMagic = "DAMBITEV";

// Reads weights from the bytes of a file; `source` names it in errors. Throws std::runtime_error
// with one line naming what is wrong (not a weights file, another version, a bad checksum, a
// truncated file, sizes that do not fit).
LearnedWeights parse_weights(std::string_view bytes, const std::string& source);
LearnedWeights read_weights_file(const std::string& path);
std::string weights_bytes(const LearnedWeights& w);
// Writes atomically: a temporary file renamed over `path`.
void write_weights_file(const std::string& path, const LearnedWeights& w);

// The weights compiled into the program for `variant`, or nullptr when it has none.
const LearnedWeights* builtin_weights(std::string_view variant);

// The evaluation a choice names for `variant`: "hand" (nullptr: the hand-made evaluation),
// "learned" (the compiled-in weights), "auto" (those if the variant has them, else the hand-made
// one) or the path of a weights file, checked for the variant.
// Throws std::runtime_error with one line saying what is wrong.
std::shared_ptr<const LearnedWeights> weights_for(const std::string& choice,
                                                  std::string_view variant);

namespace builtin_detail {
// The compiled-in files: weights_data.cpp, which CMake makes from src/search/weights/*.dbw.
struct BuiltinWeightsFile {
    const char* variant;
    const unsigned char* begin;
    const unsigned char* end;
};
extern const BuiltinWeightsFile kBuiltinWeights[];
extern const int kBuiltinWeightsCount;
}  // namespace builtin_detail

// Checks that `w` fits rule set R (its variant and its number of windows: none, or one of the
// two layouts); throws std::runtime_error naming `source` otherwise.
template <class R>
void check_weights(const LearnedWeights& w, const std::string& source) {
    using G = typename R::Geometry;
    if (w.variant != R::kName)
        throw std::runtime_error(source + ": weights for " + w.variant + ", not " +
                                 std::string(R::kName));
    if (w.windows != 0 && pattern_step<G>(w.windows) == 0)
        throw std::runtime_error(source + ": " + std::to_string(w.windows) + " pattern windows, " +
                                 std::string(R::kName) + " has " +
                                 std::to_string(PatternLayout<G, 2>::kWindows) + " or " +
                                 std::to_string(PatternLayout<G, 1>::kWindows));
    if (w.strips != 0 && w.strips != StripLayout<G>::kCount)
        throw std::runtime_error(source + ": " + std::to_string(w.strips) + " edge strips, " +
                                 std::string(R::kName) + " has " +
                                 std::to_string(StripLayout<G>::kCount));
}

}  // namespace dambit::search
