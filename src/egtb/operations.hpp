// The bodies of the endgame table operations that egtb/api.hpp declares; included by the
// instance files, which compile them per variant.
#pragma once

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "egtb/api.hpp"
#include "egtb/build.hpp"
#include "egtb/file.hpp"
#include "egtb/index.hpp"
#include "egtb/parallel.hpp"
#include "egtb/tables.hpp"

namespace dambit::egtb {

template <class R>
void build_tables(const BuildOptions& options,
                  const std::function<void(const BuildProgress&)>& report) {
    Builder<R>(options, report).run();
}

template <class R>
void build_as_told(const BuildOptions& options,
                   const std::function<void(const BuildProgress&)>& report,
                   const std::function<std::optional<std::size_t>(std::uint64_t)>& next) {
    Builder<R>(options, report).run(next);
}

template <class R>
ProbeResult<typename R::Geometry> probe_with_moves(const std::string& dir,
                                                   std::size_t cache_megabytes,
                                                   const Position<R>& p) {
    using G = typename R::Geometry;
    // Here, not only where a slot is looked up: a capture position is probed through its
    // successors, which have fewer pieces than the position the user asked about.
    check_table_pieces(material_of(p));
    Tables<R> tables(dir, cache_megabytes);
    ProbeResult<G> r;
    r.value = tables.probe(p);
    FixedList<PathMove<G>, kMaxMoves> list;
    generate_paths<R>(p, list);
    for (const auto& pm : list) r.moves.push_back({pm, tables.probe(p.play(pm.move)).parent()});
    return r;
}

namespace detail {

// The value of p by one ply of search over the tables: the best of its successors' values.
template <class R>
Value one_ply(Tables<R>& tables, const Position<R>& p) {
    MoveList<typename R::Geometry> list;
    generate<R>(p, list);
    if (list.empty()) return Value::loss(0);
    Value best;
    bool first = true;
    for (const auto& m : list) {
        const Value v = tables.probe(p.play(m)).parent();
        if (first || v.better_than(best)) best = v;
        first = false;
    }
    return best;
}

// Whether a stored value agrees with the one-ply value (distances compared where both have one).
inline bool agrees(const Value& stored, const Value& searched) {
    if (stored.outcome != searched.outcome) return false;
    if (stored.known_distance() && searched.known_distance()) return stored.plies == searched.plies;
    return true;
}

// Whether the options ask to stop.
inline bool stopping(const VerifyOptions& o) { return o.stop && o.stop(); }

template <class R>
void verify_values(Tables<R>& tables, const Material& m, const std::vector<std::uint8_t>& codes,
                   bool distances, const VerifyOptions& options, VerifyReport& rep) {
    const SliceIndex<R> index(m);
    std::atomic<std::uint64_t> next{0}, checked{0}, errors{0};
    std::atomic<bool> stopped{false};
    const std::thread::id caller = std::this_thread::get_id();
    std::mutex lock;
    auto fail = [&](const std::string& what) {
        ++errors;
        std::lock_guard<std::mutex> g(lock);
        if (rep.first_error.empty()) rep.first_error = what;
    };
    constexpr std::uint64_t kChunk = 1 << 14;
    auto work = [&] {
        std::uint64_t mine = 0;
        for (std::uint64_t b; (b = next.fetch_add(kChunk)) < index.size();) {
            if (stopping(options)) {
                stopped = true;
                next = index.size();
                break;
            }
            if (options.progress && std::this_thread::get_id() == caller)
                options.progress({m, "values", b, index.size()});
            index.for_each_in(b, std::min(index.size(), b + kChunk), [&](std::uint64_t i, const Position<R>& p) {
                if (index.index(p) != i || !(index.position(i) == p)) {
                    fail("index round trip fails at index " + std::to_string(i));
                    return;
                }
                if (has_capture(p)) return;  // stored as filler: resolved by a capture search
                ++mine;
                const Value stored = decode(codes[i], distances);
                const Value searched = one_ply(tables, p);
                if (!agrees(stored, searched))
                    fail(to_fen<R>(p) + " is stored as " + stored.text() +
                         (stored.known_distance() ? " " + std::to_string(stored.plies) : "") +
                         " but its moves give " + searched.text() +
                         (searched.known_distance() ? " " + std::to_string(searched.plies) : ""));
                const Position<R> q = flip(p);  // the same position, Black to move
                const Value turned = one_ply(tables, q);
                if (!agrees(stored, turned))
                    fail(to_fen<R>(q) + " (the colour flip of " + to_fen<R>(p) + ") gives " +
                         turned.text() + " but the table says " + stored.text());
            });
        }
        checked += mine;
    };
    run_parallel(options.threads, work, [&] { next = index.size(); });
    if (stopped) throw Interrupted("interrupted");
    rep.checked = checked;
    rep.errors = errors;
}

}  // namespace detail

template <class R>
void verify_tables(const std::string& dir, std::vector<Material> slices,
                   const VerifyOptions& options,
                   const std::function<void(const Material&, const VerifyReport&)>& report) {
    const int threads = options.threads;
    auto tell = [&](const Material& m, const char* phase) {
        if (options.progress) options.progress({m, phase, 0, 0});
        if (detail::stopping(options)) throw Interrupted("interrupted");
    };
    // In build order, so that a slice's dependencies are checked before it.
    const auto order = slices_up_to(8);
    auto rank = [&](const Material& m) {
        return std::find(order.begin(), order.end(), m) - order.begin();
    };
    std::sort(slices.begin(), slices.end(),
              [&](const Material& a, const Material& b) { return rank(a) < rank(b); });
    Tables<R> tables(dir, 256);
    for (const Material& m : slices) {
        VerifyReport rep;
        tell(m, "checksums");
        try {
            const std::string path = dir + "/" + table_file_name(std::string(R::kName), m);
            std::vector<std::uint8_t> codes;
            bool distances = false;
            {
                TableFile file(path, std::string(R::kName));
                codes = file.read_all(threads);  // every block's checksum
                distances = file.header().distances;
                check_header<R>(path, file.header(), m);
            }
            rep.positions = codes.size();
            if (options.full) try {
                tell(m, "loading");
                // Hold the slice, its flip, what they depend on, and the smaller slices as the
                // memory allows, so that the one-ply searches read memory, not files.
                const Unit u = unit_of(m);
                std::vector<Material> resident = dependencies(u);
                resident.push_back(u.first);
                resident.push_back(u.second);
                std::uint64_t bytes = 0;
                for (const Material& d : resident) bytes += SliceIndex<R>(d).size();
                for (const Material& s : slices_up_to(m.pieces() - 1)) {
                    if (std::find(resident.begin(), resident.end(), s) != resident.end()) continue;
                    if (bytes + SliceIndex<R>(s).size() > options.memory_bytes) break;
                    if (!tables.has(s)) continue;
                    bytes += SliceIndex<R>(s).size();
                    resident.push_back(s);
                }
                tables.release_except(resident);
                for (const Material& d : resident)
                    if (!(d == m)) {
                        tables.make_resident(d, threads);
                        if (detail::stopping(options)) throw Interrupted("interrupted");
                    }
                tables.forget(m);
                tables.make_resident(m, threads);
                detail::verify_values<R>(tables, m, codes, distances, options, rep);
            } catch (const TableError& e) {
                rep.checked = rep.errors = 0;
                rep.first_error.clear();
                rep.dependency_failure = e.what();
            }
        } catch (const TableError& e) {
            rep.failure = e.what();
        }
        report(m, rep);
    }
}

template <class R>
Position<R> slice_position(const Material& m, std::uint64_t i) {
    return SliceIndex<R>(m).position(i);
}

}  // namespace dambit::egtb
