// The endgame table builder: retrograde analysis, slice by slice in dependency order.
//
// A unit (a slice and its colour flip, egtb/material.hpp) is built in memory, one byte of value
// and one of move count per position:
//  1. Initialisation: every position's moves are generated. A capture or a promotion leads to a
//     finished slice (fewer pieces, or fewer men), whose value is probed; the other moves stay in
//     the unit and are counted. A position with no move is lost (level 0); one whose moves all
//     leave the unit gets its value at once; one with a move onto a lost position outside is won,
//     provisionally, at that distance.
//  2. Levels L = 0, 1, 2, ...: the positions whose value is decided at distance L are found by a
//     scan, and their predecessors (the positions one quiet move of the other side earlier, found
//     by un-making the move) are told: after a loss in L plies, a predecessor is won in L + 1
//     (unless it wins faster); after a win, its count of undecided moves drops, and at zero it is
//     lost in 1 + the longest of its successors' wins (or drawn, if a move out of the unit draws).
//     Taking the levels in order makes every distance exact: the shortest win, the longest loss.
//  3. Whatever is left undecided is a draw. The values go to one file per slice (egtb/file.hpp).
// Outside values without a distance (win/draw/loss tables) count as a win in 1 and a loss in 0,
// which keeps the win/draw/loss values exact; only then are the levels not distances.
//
// Long units keep a checkpoint (the two arrays and how far the build got), so an interrupted build
// goes on where it stopped; the finished files do not depend on it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <xxhash.h>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "egtb/api.hpp"
#include "egtb/file.hpp"
#include "egtb/index.hpp"
#include "egtb/material.hpp"
#include "egtb/parallel.hpp"
#include "egtb/tables.hpp"
#include "egtb/value.hpp"

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer's dynamic annotations (libtsan): reads between the two calls are not checked.
extern "C" void AnnotateIgnoreReadsBegin(const char* file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char* file, int line);
#endif

namespace dambit::egtb {

template <class R>
class Builder {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using Clock = std::chrono::steady_clock;
    static constexpr std::uint8_t kUnknown = 0, kDraw = 1;  // else 2 + distance
    static constexpr int kMaxLevel = 253;

public:
    Builder(BuildOptions o, std::function<void(const BuildProgress&)> report = {})
        : opt_(std::move(o)),
          report_(std::move(report)),
          tables_(opt_.dir, 256) {}

    // Builds every slice of 2..max_pieces pieces that has no valid file yet.
    void run() {
        std::size_t n = 0;
        const std::size_t units = build_units(opt_).size();
        run([&](std::uint64_t) -> std::optional<std::size_t> {
            if (n == units) return std::nullopt;
            return n++;
        });
    }
    // Builds the units of build_units() that `next` names, one at a time (see build_as_told).
    void run(const std::function<std::optional<std::size_t>(std::uint64_t)>& next) {
        start_ = Clock::now();
        const auto units = build_units(opt_);
        check_memory(units);
        std::uint64_t total = 0;
        for (const Unit& u : units) total += unit_size(u);
        std::uint64_t done = 0, built = 0, kept = 0;
        for (std::optional<std::size_t> k; (k = next(built));) {
            const std::size_t n = *k;
            const Unit& u = units.at(n);
            progress_ = {};
            progress_.unit = u.name();
            progress_.slices = u.slices();
            progress_.unit_number = int(n) + 1;
            progress_.units = int(units.size());
            progress_.total = unit_size(u);
            progress_.build_done = done;
            progress_.build_total = total;
            progress_.build_kept = kept;
            build_unit(u);
            built = progress_.phase == "kept" ? 0 : unit_size(u);
            done += unit_size(u);
            if (progress_.phase == "kept") kept += unit_size(u);
            progress_.build_done = done;
            progress_.build_kept = kept;
            progress_.unit_finished = true;
            tell(progress_.phase);
        }
    }

    Tables<R>& tables() { return tables_; }

private:
    struct Slice {
        Material m;
        std::unique_ptr<SliceIndex<R>> index;
        std::vector<std::uint8_t> val, cnt;
        std::vector<std::uint64_t> captures;  // positions whose side to move must capture
        int other = 0;  // the unit slice that holds this one's positions with Black to move
    };

    static std::uint64_t unit_size(const Unit& u) {
        std::uint64_t n = SliceIndex<R>(u.first).size();
        if (!u.symmetric()) n += SliceIndex<R>(u.second).size();
        return n;
    }
    bool wants_distances(const Material& m) const { return m.pieces() <= opt_.dtw_pieces; }
    std::string path_of(const Material& m) const {
        return opt_.dir + "/" + table_file_name(std::string(R::kName), m);
    }
    std::string checkpoint_path(const Unit& u) const {
        return opt_.dir + "/" + std::string(R::kName) + "-" + u.first.code() + ".checkpoint";
    }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    void tell(const std::string& phase) {
        progress_.phase = phase;
        progress_.seconds = elapsed();
        if (report_) report_(progress_);
    }
    bool stopping() const { return opt_.stop && opt_.stop->load(); }

    // A finished file of the right kind for slice m, or none: a damaged file (any block failing
    // its checksum) is not finished, and is built again. A file with distances where only
    // win/draw/loss is asked holds more and is kept (a later run with a smaller --dtw does not
    // throw distances away). Without `blocks`, only the header and the block index are checked.
    bool finished(const Material& m, bool blocks = true) {
        try {
            TableFile f(path_of(m), std::string(R::kName));
            if (!(f.header().material == m &&
                  (f.header().distances || !wants_distances(m)) &&
                  f.header().positions == SliceIndex<R>(m).size()))
                return false;
            if (blocks) f.check_blocks();
            return true;
        } catch (const TableError&) {
            return false;
        }
    }

    // The memory a unit's build holds at least: a byte of value and one of move count for each
    // of its positions, and the slices its moves reach (dependencies(), egtb/material.hpp), a
    // byte a position.
    static std::uint64_t memory_needed(const Unit& u) {
        std::uint64_t needed = 2 * unit_size(u);
        for (const Material& d : dependencies(u)) needed += SliceIndex<R>(d).size();
        return needed;
    }
    std::string memory_error(const Unit& u, std::uint64_t needed) const {
        return "slice " + u.first.code() + " needs " + std::to_string((needed >> 20) + 1) +
               " MB, more than --memory " + std::to_string(opt_.memory_bytes >> 20) + " MB allows";
    }
    // Before anything is built: the first unit to build that needs more memory than the options
    // allow is the build's error, rather than an error after the units before it (hours, on a
    // large set). A unit whose two files are there is kept and needs none; their blocks are
    // checked when the unit's turn comes (one read of every file), and a unit found damaged then
    // is checked again in build_unit.
    // The unit named is the one that needs the most (with how many do not fit), so that one
    // more try with that much is enough.
    void check_memory(const std::vector<Unit>& units) {
        const Unit* largest = nullptr;
        std::uint64_t most = 0;
        int over = 0;
        for (const Unit& u : units) {
            const std::uint64_t needed = memory_needed(u);
            if (needed <= opt_.memory_bytes) continue;
            if (finished(u.first, false) && finished(u.second, false)) continue;
            ++over;
            if (needed > most) largest = &u, most = needed;
        }
        if (largest)
            throw std::runtime_error(
                memory_error(*largest, most) +
                (over > 1 ? " (the largest of " + std::to_string(over) + " units that need more)"
                          : ""));
    }

    // The distance an outside value counts with (see the file comment).
    static int distance_of(const Value& v) {
        if (v.known_distance()) return v.plies;
        return v.outcome == Outcome::kWin ? 1 : 0;
    }
    static std::uint8_t code_of(const Value& v) {
        return v.outcome == Outcome::kDraw ? kDraw : std::uint8_t(2 + distance_of(v));
    }

    void build_unit(const Unit& u) {
        if (finished(u.first) && finished(u.second)) {
            tell("kept");
            return;
        }
        // The slices this unit's moves reach must be finished and held in memory.
        const auto deps = dependencies(u);  // egtb/material.hpp
        std::uint64_t needed = memory_needed(u);
        if (needed > opt_.memory_bytes) throw std::runtime_error(memory_error(u, needed));
        // A probe of a capture position searches on into smaller slices still: hold every
        // slice with fewer pieces too when the memory allows (else they are read through the
        // block cache). Under mpirun a slice this unit does not reach may not be built yet.
        std::vector<Material> resident = deps;
        for (const Material& m : slices_up_to(u.first.pieces() - 1)) {
            if (std::find(resident.begin(), resident.end(), m) != resident.end()) continue;
            if (!tables_.has(m)) continue;
            if (needed + SliceIndex<R>(m).size() > opt_.memory_bytes) break;
            needed += SliceIndex<R>(m).size();
            resident.push_back(m);
        }
        tables_.release_except(resident);
        for (const Material& d : resident) tables_.make_resident(d, opt_.threads);
        // Slices read from their files (kept from an earlier run) hold filler for their capture
        // positions: resolve those once, fewer pieces first, rather than search the captures at
        // every read of the initialisation.
        std::sort(resident.begin(), resident.end(),
                  [](const Material& a, const Material& b) { return a.pieces() < b.pieces(); });
        for (const Material& d : resident) tables_.make_exact(d, opt_.threads);

        std::vector<Slice> slices(std::size_t(u.slices()));
        slices[0].m = u.first;
        if (!u.symmetric()) {
            slices[1].m = u.second;
            slices[0].other = 1;
            slices[1].other = 0;
        }
        for (Slice& s : slices) {
            s.index = std::make_unique<SliceIndex<R>>(s.m);
            s.val.assign(s.index->size(), kUnknown);
            s.cnt.assign(s.index->size(), 0);
            s.captures.assign((s.index->size() + 63) / 64, 0);
        }
        distances_ = wants_distances(u.first);
        max_level_.store(0);
        std::uint64_t chunks_done = 0;
        int level = 0;
        load_checkpoint(u, slices, chunks_done, level);
        last_checkpoint_ = Clock::now();
        init(u, slices, chunks_done);
        levels(u, slices, level);
        finish(slices);
        std::remove(checkpoint_path(u).c_str());
        // A checkpoint's FILE.tmp left by a run killed while it wrote one (it can be as large
        // as the unit): the finished unit needs neither.
        std::remove((checkpoint_path(u) + ".tmp").c_str());
    }

    // The unit's positions in chunks of kChunk indices, slice by slice: the pieces of parallel
    // work (a chunk never straddles two slices).
    static constexpr std::uint64_t kChunk = 1 << 12;
    static std::vector<std::pair<int, std::uint64_t>> chunks_of(const std::vector<Slice>& slices) {
        std::vector<std::pair<int, std::uint64_t>> chunks;
        for (std::size_t si = 0; si < slices.size(); ++si)
            for (std::uint64_t b = 0; b < slices[si].index->size(); b += kChunk)
                chunks.emplace_back(int(si), b);
        return chunks;
    }

    // Step 1. `done` counts the chunks already initialised (from a checkpoint).
    void init(const Unit& u, std::vector<Slice>& slices, std::uint64_t done) {
        const auto chunks = chunks_of(slices);
        // Batches of chunks, between which a checkpoint may be taken.
        const std::uint64_t batch =
            std::max<std::uint64_t>(std::uint64_t(8 * opt_.threads), chunks.size() / 64);
        while (done < chunks.size()) {
            const std::uint64_t end = std::min<std::uint64_t>(chunks.size(), done + batch);
            std::atomic<std::uint64_t> next{done};
            parallel([&] {
                for (std::uint64_t k; (k = next.fetch_add(1)) < end;) {
                    Slice& s = slices[std::size_t(chunks[k].first)];
                    const std::uint64_t b = chunks[k].second;
                    s.index->for_each_in(b, std::min(s.index->size(), b + kChunk),
                                         [&](std::uint64_t i, const Position<R>& p) {
                                             init_position(s, i, p);
                                         });
                }
            });
            done = end;
            progress_.done =
                std::uint64_t(double(done) / double(chunks.size()) * double(progress_.total));
            tell("init");
            maybe_checkpoint(u, slices, done, 0);
        }
    }

    void init_position(Slice& s, std::uint64_t i, const Position<R>& p) {
        MoveList<G> list;
        generate<R>(p, list);
        if (list.empty()) {
            s.val[i] = 2;  // lost: no legal move
            return;
        }
        // Chunks are multiples of 64 positions, so no other thread writes this word.
        if (list[0].is_capture()) s.captures[i / 64] |= std::uint64_t(1) << (i % 64);
        int inside = 0;
        bool any_out = false;
        Value best;
        for (const auto& mv : list) {
            const Position<R> c = p.play(mv);
            if (!mv.is_capture() && !mv.promotes()) {
                ++inside;
                continue;
            }
            const Value v = tables_.probe(c).parent();
            if (!any_out || v.better_than(best)) best = v;
            any_out = true;
        }
        if (inside == 0) {
            set_level(s.val[i], code_of(best));
        } else if (any_out && best.outcome == Outcome::kWin) {
            set_level(s.val[i], code_of(best));  // won at most this late
            s.cnt[i] = std::uint8_t(inside);
        } else {
            s.cnt[i] = std::uint8_t(inside);
        }
    }

    void set_level(std::uint8_t& cell, std::uint8_t code) {
        if (code > kDraw && code - 2 > kMaxLevel)
            throw std::runtime_error("a distance beyond " + std::to_string(kMaxLevel) +
                                     " plies: not supported");
        cell = code;
        if (code > kDraw) {
            int seen = max_level_.load();
            while (code - 2 > seen && !max_level_.compare_exchange_weak(seen, code - 2)) {
            }
        }
    }

    // Step 2.
    void levels(const Unit& u, std::vector<Slice>& slices, int level) {
        for (; level <= max_level_.load(); ++level) {
            const std::uint8_t code = std::uint8_t(2 + level);
            const auto chunks = chunks_of(slices);
            std::atomic<std::size_t> next{0};
            std::atomic<std::uint64_t> decided{0};
            parallel([&] {
                std::uint64_t mine = 0;
                for (std::size_t k; (k = next.fetch_add(1)) < chunks.size();) {
                    Slice& s = slices[std::size_t(chunks[k].first)];
                    const std::uint64_t begin = chunks[k].second;
                    const std::uint64_t end = std::min<std::uint64_t>(s.val.size(), begin + kChunk);
                    const std::uint8_t* v = s.val.data();
                    for (std::uint64_t i = begin; i < end; ++i) {
                        const void* hit = find_code(v + i, code, end - i);
                        if (!hit) break;
                        i = std::uint64_t(static_cast<const std::uint8_t*>(hit) - v);
                        ++mine;
                        propagate(slices, s, i, level);
                    }
                }
                decided += mine;
            });
            progress_.done = progress_.total;
            progress_.decided += decided.load();
            tell("level " + std::to_string(level));
            maybe_checkpoint(u, slices, ~std::uint64_t(0), level + 1);
        }
    }

    // The first of n value bytes at v equal to `code`, or null. Other threads store values of
    // later levels into undecided bytes of the same arrays meanwhile (atomic byte stores in
    // propagate and decide_lost): no store makes or unmakes a byte equal to the level's code, so
    // the scan finds the same positions whatever it reads of the bytes being written, and it
    // reads them with memchr, many times faster than one atomic load a byte. A race by design:
    // ThreadSanitizer is told to ignore these reads (scripts/test tsan).
    static const void* find_code(const std::uint8_t* v, std::uint8_t code, std::size_t n) {
#if defined(__SANITIZE_THREAD__)
        AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
        const void* hit = std::memchr(v, code, n);
        AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
        return hit;
#else
        return std::memchr(v, code, n);
#endif
    }

    // The predecessors of position i of s (White to move, decided at `level`): Black's quiet
    // moves un-made, each giving a position with Black to move, stored flipped in the other slice.
    void propagate(std::vector<Slice>& slices, Slice& s, std::uint64_t i, int level) {
        const Position<R> x = s.index->position(i);
        Slice& t = slices[std::size_t(s.other)];
        const bool lost = level % 2 == 0;
        const B empty = x.empty();
        const B black = x.pieces[1];
        auto visit = [&](B from, B to, bool king) {
            Position<R> y = x;
            y.pieces[1] ^= from | to;
            if (king) y.kings ^= from | to;
            y.side = Color::kBlack;
            const Position<R> w = flip(y);
            const std::uint64_t j = t.index->index(w);
            if ((t.captures[j / 64] >> (j % 64)) & 1) return;  // Black would have had to capture
            std::atomic_ref<std::uint8_t> cell(t.val[j]);
            if (lost) {
                // Black moves onto a position White has lost: Black wins in level + 1.
                const std::uint8_t win = std::uint8_t(2 + level + 1);
                std::uint8_t cur = cell.load(std::memory_order_relaxed);
                while (cur == kUnknown || (cur > win && (cur - 2) % 2 == 1)) {
                    if (cell.compare_exchange_weak(cur, win, std::memory_order_relaxed)) {
                        note_level(level + 1);
                        break;
                    }
                }
            } else if (cell.load(std::memory_order_relaxed) == kUnknown) {
                std::atomic_ref<std::uint8_t> count(t.cnt[j]);
                if (count.fetch_sub(1, std::memory_order_relaxed) == 1)
                    decide_lost(t, j, w, level);
            }
        };
        // Black's kings came from any square their diagonals reach; its men from one square
        // behind them (Black's men move down the board, so from above).
        for (B kings = B(black & x.kings); kings; kings &= kings - 1) {
            const B to = kings & -kings;
            for (int d = 0; d < 4; ++d) {
                B from = to;
                for (;;) {
                    from = G::step(from, d);
                    if (!(from & empty)) break;
                    visit(from, to, true);
                    if constexpr (R::kKing == KingRange::kShort) break;
                }
            }
        }
        for (B men = B(black & ~x.kings); men; men &= men - 1) {
            const B to = men & -men;
            for (const int d : {int(kNE), int(kNW)}) {
                const B from = G::step(to, d);
                if (from & empty) visit(from, to, false);
            }
        }
    }

    // Position j of t (White to move, `w`) has no undecided move left and none that wins: it is
    // lost in 1 + its successors' longest win, or drawn if a move out of the unit draws.
    void decide_lost(Slice& t, std::uint64_t j, const Position<R>& w, int level) {
        MoveList<G> list;
        generate<R>(w, list);
        int longest = level;
        for (const auto& mv : list) {
            if (!mv.is_capture() && !mv.promotes()) continue;
            const Value v = tables_.probe(w.play(mv)).parent();
            if (v.outcome == Outcome::kDraw) {
                std::atomic_ref<std::uint8_t>(t.val[j]).store(kDraw, std::memory_order_relaxed);
                return;
            }
            // v is a loss for White here (a win would have decided the position at init).
            longest = std::max(longest, distance_of(v) - 1);
        }
        const int d = longest + 1;
        if (d > kMaxLevel)
            throw std::runtime_error("a distance beyond " + std::to_string(kMaxLevel) +
                                     " plies: not supported");
        std::atomic_ref<std::uint8_t>(t.val[j]).store(std::uint8_t(2 + d), std::memory_order_relaxed);
        note_level(d);
    }

    void note_level(int level) {
        int seen = max_level_.load(std::memory_order_relaxed);
        while (level > seen && !max_level_.compare_exchange_weak(seen, level)) {
        }
    }

    // Step 3: the files, then the slices stay in memory for the units that depend on them.
    void finish(std::vector<Slice>& slices) {
        tell("write");
        for (Slice& s : slices) {
            TableHeader h;
            h.variant = std::string(R::kName);
            h.material = s.m;
            h.distances = distances_;
            h.block_positions = 1 << 16;
            const std::uint64_t n = s.val.size();
            const std::vector<std::uint64_t>& captures = s.captures;
            // In place, within the memory the build counted (memory_needed): the codes over the
            // values (each read before it is written) and the exact values over the move counts,
            // which the levels no longer need. Two new arrays took two bytes a position more.
            std::vector<std::uint8_t> codes = std::move(s.val), exact = std::move(s.cnt);
            std::uint8_t previous = 0;
            for (std::uint64_t i = 0; i < n; ++i) {
                const std::uint8_t v = codes[i];
                std::uint8_t c = 0;  // undecided or drawn
                if (v >= 2) {
                    const int d = v - 2;
                    if (d % 2) {
                        ++h.wins;
                        if (distances_ && d > h.longest_win) {
                            h.longest_win = d;
                            h.longest_example = i;
                        }
                    } else {
                        ++h.losses;
                    }
                    c = distances_ ? std::uint8_t(1 + d) : std::uint8_t(d % 2 ? 2 : 1);
                } else {
                    ++h.draws;
                }
                exact[i] = c;
                if ((captures[i / 64] >> (i % 64)) & 1) c = previous;
                codes[i] = previous = c;
            }
            std::vector<std::uint64_t>().swap(s.captures);
            tables_.forget(s.m);
            write_table(path_of(s.m), h, codes, opt_.threads);
            std::vector<std::uint8_t>().swap(codes);
            // Held with the true values of capture positions, so that the units built on this
            // one read them rather than search the captures (the same values).
            tables_.add_resident(s.m, std::move(exact), distances_, true);
        }
    }

    // Checkpoints: the arrays and how far the unit got (`done` chunks initialised, all of them
    // when ~0; `level` the next level), written through a .tmp file with an XXH64 of it all.
    void maybe_checkpoint(const Unit& u, const std::vector<Slice>& slices, std::uint64_t done,
                          int level) {
        const bool stop = stopping();
        if (!stop && std::chrono::duration<double>(Clock::now() - last_checkpoint_).count() <
                         opt_.checkpoint_seconds)
            return;
        save_checkpoint(u, slices, done, level);
        last_checkpoint_ = Clock::now();
        if (stop)
            throw Interrupted("interrupted in slice " + progress_.unit +
                              "; the same command goes on from here");
    }

    std::string checkpoint_name(const Unit& u) const {
        return std::string("dambit-egtb-checkpoint 3 ") + std::string(R::kName) + " " +
               u.first.code() + " " + u.second.code() + (distances_ ? " dtw" : " wld");
    }

    void save_checkpoint(const Unit& u, const std::vector<Slice>& slices, std::uint64_t done,
                         int level) {
        const std::string path = checkpoint_path(u), tmp = path + ".tmp";
        std::FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f) throw TableError(tmp + ": cannot write the checkpoint: " + std::strerror(errno));
        XXH64_state_t* h = XXH64_createState();
        XXH64_reset(h, 0);
        bool ok = true;
        auto put = [&](const void* p, std::size_t n) {
            ok = ok && std::fwrite(p, 1, n, f) == n;
            XXH64_update(h, p, n);
        };
        const std::string name = checkpoint_name(u);
        const std::uint64_t name_size = name.size();
        put(&name_size, 8);
        put(name.data(), name.size());
        put(&done, 8);
        const std::int64_t lv = level, max_level = max_level_.load();
        put(&lv, 8);
        put(&max_level, 8);
        for (const Slice& s : slices) {
            put(s.val.data(), s.val.size());
            put(s.cnt.data(), s.cnt.size());
            put(s.captures.data(), s.captures.size() * 8);
        }
        const std::uint64_t sum = XXH64_digest(h);
        XXH64_freeState(h);
        ok = ok && std::fwrite(&sum, 1, 8, f) == 8;
        ok = std::fclose(f) == 0 && ok;
        if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
            const std::string reason = std::strerror(errno);
            std::remove(tmp.c_str());
            throw TableError(path + ": cannot write the checkpoint: " + reason);
        }
    }

    // Reads the unit's checkpoint if there is a whole one of this build; returns whether it did.
    // One that is damaged (truncated, or failing its checksum) or of another build (another
    // --dtw) is removed, and said in a warning: the unit starts again.
    bool load_checkpoint(const Unit& u, std::vector<Slice>& slices, std::uint64_t& done,
                         int& level) {
        const std::string path = checkpoint_path(u);
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f) return false;
        XXH64_state_t* h = XXH64_createState();
        XXH64_reset(h, 0);
        bool whole = true;  // every read had its bytes
        auto get = [&](void* p, std::size_t n) {
            whole = whole && std::fread(p, 1, n, f) == n;
            if (whole) XXH64_update(h, p, n);
        };
        std::uint64_t name_size = 0;
        get(&name_size, 8);
        // A name is some 50 bytes: a larger size is damage (and not to be allocated).
        constexpr std::uint64_t kLongestName = 1024;
        const bool sane = name_size <= kLongestName;
        std::string name(whole && sane ? std::size_t(name_size) : 0, '\0');
        get(name.data(), name.size());
        std::int64_t lv = 0, max_level = 0;
        std::uint64_t md = 0, sum = 0;
        bool summed = false;
        if (sane) {
            get(&md, 8);
            get(&lv, 8);
            get(&max_level, 8);
            for (Slice& s : slices) {
                get(s.val.data(), s.val.size());
                get(s.cnt.data(), s.cnt.size());
                get(s.captures.data(), s.captures.size() * 8);
            }
            const std::uint64_t digest = XXH64_digest(h);
            whole = whole && std::fread(&sum, 1, 8, f) == 8;
            summed = whole && sum == digest;
        }
        const bool overlong = whole && std::fgetc(f) != EOF;
        XXH64_freeState(h);
        std::fclose(f);
        const std::string want = checkpoint_name(u);
        std::string damage;
        if (!sane || (whole && !summed)) damage = "checksum mismatch";
        else if (!whole) damage = "truncated";
        else if (overlong) damage = "longer than its contents";
        if (!damage.empty() || name != want) {
            warn(path + (damage.empty() ? " was written by another build ('" + printable(name) +
                                              "', this one is '" + want + "')"
                                        : " is damaged (" + damage + ")") +
                 "; the unit starts again");
            for (Slice& s : slices) {
                std::fill(s.val.begin(), s.val.end(), kUnknown);
                std::fill(s.cnt.begin(), s.cnt.end(), 0);
                std::fill(s.captures.begin(), s.captures.end(), 0);
            }
            std::remove(path.c_str());
            return false;
        }
        done = md;
        level = int(lv);
        max_level_.store(int(max_level));
        tell("resumed");
        return true;
    }

    // A line for the user, through the report (BuildProgress::warning).
    void warn(const std::string& line) {
        progress_.warning = line;
        tell("warning");
        progress_.warning.clear();
    }

    template <class F>
    void parallel(F&& work) {
        run_parallel(opt_.threads, std::forward<F>(work));
    }

    BuildOptions opt_;
    std::function<void(const BuildProgress&)> report_;
    Tables<R> tables_;
    BuildProgress progress_;
    Clock::time_point start_, last_checkpoint_;
    std::atomic<int> max_level_{0};
    bool distances_ = false;
};

}  // namespace dambit::egtb
