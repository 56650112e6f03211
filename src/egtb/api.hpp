// The endgame tables as the front ends see them: build, probe, verify, and the position of an
// index. Declarations only: the bodies (egtb/operations.hpp) are compiled once per variant in
// src/instances/.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/instances.hpp"
#include "core/position.hpp"
#include "egtb/file.hpp"
#include "egtb/material.hpp"
#include "egtb/value.hpp"

namespace dambit::egtb {

// Thrown when a build or a verification stops because it was asked to (Ctrl-C); a build's
// checkpoint is saved.
class Interrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct BuildOptions {
    std::string dir = "egtb";
    int max_pieces = 4;
    int dtw_pieces = 0;  // slices of up to this many pieces get distance tables
    int threads = 1;
    std::uint64_t memory_bytes = std::uint64_t(4) << 30;
    double checkpoint_seconds = 120;          // a unit keeps a checkpoint this often
    const std::atomic<bool>* stop = nullptr;  // set (by a signal handler) to interrupt the build
    std::optional<Material> only;  // build just this slice and what it depends on
};

// What the builder reports as it goes.
struct BuildProgress {
    std::string unit;     // "1211+1112": a slice and its colour flip
    int slices = 1;       // of the unit: 2, or 1 for a slice that is its own flip ("0202")
    int unit_number = 0;  // 1-based, of `units`
    int units = 0;
    std::string phase;  // "init", "level 12", "write", "kept", "resumed", "warning"
    std::uint64_t done = 0;   // positions of the unit initialised (all of them in the levels)
    std::uint64_t decided = 0;  // positions the levels have decided so far
    std::uint64_t total = 0;  // positions of the unit
    std::uint64_t build_done = 0, build_total = 0;  // positions of the whole build
    std::uint64_t build_kept = 0;  // of build_done, the positions of units found finished on disk
    double seconds = 0;                             // since the build started
    bool unit_finished = false;
    // With phase "warning": a line to show the user (a checkpoint thrown away, and why).
    std::string warning;
};

// Builds every slice of 2..max_pieces pieces of R that has no finished file in the directory.
template <class R>
void build_tables(const BuildOptions& options,
                  const std::function<void(const BuildProgress&)>& report);

// The units a build makes, in build order: every unit of 2..max_pieces pieces, or those `only`
// needs. A unit depends only on units before it (the units of its dependencies()).
inline std::vector<Unit> build_units(const BuildOptions& options) {
    auto units = units_up_to(options.max_pieces);
    if (options.only) units = units_needed_for(*options.only, units);
    return units;
}

// Builds the units of build_units(options) that `next` names, one at a time, in one builder (the
// slices it has built stay in memory as the options allow); next(positions) is told the positions
// of the unit just built (0 when its files were there already, and at the first call) and returns
// the next unit's index, or nullopt to stop. The units a unit depends on must be finished first
// (by this builder or another writing to the same directory).
template <class R>
void build_as_told(const BuildOptions& options,
                   const std::function<void(const BuildProgress&)>& report,
                   const std::function<std::optional<std::size_t>(std::uint64_t)>& next);

template <class G>
struct MoveValue {
    PathMove<G> move;
    Value value;  // for the side to move before the move
};
template <class G>
struct ProbeResult {
    Value value;
    std::vector<MoveValue<G>> moves;
};

// The value of p and of each of its legal moves, from the tables in `dir`. Throws MissingTable
// (egtb/file.hpp) naming the slice that has no table, TableError for a damaged file.
template <class R>
ProbeResult<typename R::Geometry> probe_with_moves(const std::string& dir,
                                                   std::size_t cache_megabytes,
                                                   const Position<R>& p);

// What verify found in one file.
struct VerifyReport {
    std::uint64_t positions = 0, checked = 0;  // checked: positions whose value was re-derived
    std::uint64_t errors = 0;
    std::string first_error;  // the first inconsistency, with its position
    std::string failure;      // the file cannot be used, and why
    // With `full`: the file's checksums passed, but a file its values are derived from (a
    // dependency) cannot be used, and why; no value was re-derived.
    std::string dependency_failure;
};

// How far verify_tables has got in the file it checks.
struct VerifyProgress {
    Material slice;     // the file's
    std::string phase;  // "checksums", then with `full` "loading" (the files its values derive
                        // from) and "values"
    std::uint64_t done = 0, total = 0;  // "values": positions of the file checked, of all
};

struct VerifyOptions {
    bool full = false;  // re-derive every value, not only the checksums
    int threads = 1;
    std::uint64_t memory_bytes = std::uint64_t(1) << 30;  // bounds the slices held in memory
    // Told when a file's check begins and each phase, and often in "values" (always by the
    // calling thread); may be empty.
    std::function<void(const VerifyProgress&)> progress;
    // Polled between files and pieces of work (by every thread): true stops the check at once,
    // with Interrupted. May be empty.
    std::function<bool()> stop;
};

// Checks the tables of `slices` in `dir`, reporting each: every block's checksum; with `full`,
// for every position the index round trip, the value against one ply of search over its
// successors (distances included), and the same with the colours flipped (Black to move in the
// flipped slice).
template <class R>
void verify_tables(const std::string& dir, std::vector<Material> slices,
                   const VerifyOptions& options,
                   const std::function<void(const Material&, const VerifyReport&)>& report);

// The position of index i of slice m (White to move).
template <class R>
Position<R> slice_position(const Material& m, std::uint64_t i);

// Checks what a table file's header says against the slice its name gives (`named`), before any
// of its numbers is used: the material, the number of positions the index gives that material on
// R's board, the counts of wins, draws and losses, the example position's index. A TableError
// naming `path` otherwise (a damaged or hand-made header passes its checksum).
template <class R>
void check_header(const std::string& path, const TableHeader& h, const Material& named);

#define DAMBIT_EGTB_TEMPLATES(R)                                                                  \
    DAMBIT_EXTERN template void build_tables<R>(const BuildOptions&,                              \
                                                const std::function<void(const BuildProgress&)>&); \
    DAMBIT_EXTERN template void build_as_told<R>(                                                 \
        const BuildOptions&, const std::function<void(const BuildProgress&)>&,                    \
        const std::function<std::optional<std::size_t>(std::uint64_t)>&);                         \
    DAMBIT_EXTERN template ProbeResult<R::Geometry> probe_with_moves<R>(                          \
        const std::string&, std::size_t, const Position<R>&);                                     \
    DAMBIT_EXTERN template void verify_tables<R>(                                                 \
        const std::string&, std::vector<Material>, const VerifyOptions&,                          \
        const std::function<void(const Material&, const VerifyReport&)>&);                        \
    DAMBIT_EXTERN template Position<R> slice_position<R>(const Material&, std::uint64_t);      \
    DAMBIT_EXTERN template void check_header<R>(const std::string&, const TableHeader&,         \
                                                const Material&);
#ifndef DAMBIT_INSTANTIATE_EGTB
DAMBIT_FOR_EACH_RULES(DAMBIT_EGTB_TEMPLATES)
#endif

}  // namespace dambit::egtb
