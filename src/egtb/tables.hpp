// A set of endgame tables of one variant: the files of a directory, opened on first use and read
// through a block cache of bounded size, or held whole in memory; probes resolve captures by a
// search, as the files leave capture positions out.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/movegen.hpp"
#include "egtb/file.hpp"
#include "egtb/index.hpp"
#include "egtb/parallel.hpp"
#include "egtb/value.hpp"

namespace dambit::egtb {

// Declared, with what it checks, in egtb/api.hpp; the tables check every file they open with it.
template <class R>
void check_header(const std::string& path, const TableHeader& h, const Material& named) {
    if (!(h.material == named))
        throw TableError(path + ": holds slice " + h.material.code() + ", not what its name says");
    const auto bad = [&](const std::string& what) {
        throw TableError(path + ": inconsistent header (" + what + ")");
    };
    std::uint64_t size = 0;
    try {
        size = SliceIndex<R>(named).size();
    } catch (const std::invalid_argument& e) {
        bad(e.what());
    }
    if (h.positions != size)
        bad(fmt::format("{} positions, the slice has {}", h.positions, size));
    if (h.wins > size || h.draws > size - h.wins || h.losses != size - h.wins - h.draws)
        bad("wins, draws and losses do not add up to the positions");
    if (h.distances && h.longest_win >= 0 && h.longest_example >= size)
        bad(fmt::format("example position {} of {}", h.longest_example, size));
}

template <class R>
class Tables {
    using G = typename R::Geometry;

public:
    // Tables of the files in `dir`, with a block cache of `cache_megabytes`.
    Tables(std::string dir, std::size_t cache_megabytes)
        : dir_(std::move(dir)), fast_(kKeys), cache_limit_(cache_megabytes << 20) {}
    Tables(const Tables&) = delete;
    Tables& operator=(const Tables&) = delete;
    ~Tables() {
        for (void* c : chunks_) std::free(c);
    }

    const std::string& dir() const { return dir_; }

    // The value of p for its side to move (capture positions by a search over the captures).
    // Throws MissingTable for a position whose slice has no table, TableError for a damaged file.
    Value probe(const Position<R>& p) {
        if (!p.us()) return Value::loss(0);  // the side to move has no piece left: it has lost
        // The opponent has none: any move wins at once (no move at all loses).
        if (!p.them()) return has_move(p) ? Value::win(1) : Value::loss(0);
        const Position<R> w = p.side == Color::kWhite ? p : flip(p);
        Slot* exact = fast_[key(material_of(w))].load(std::memory_order_acquire);
        if (exact && exact->exact)  // every value true, capture positions' too
            return decode(exact->resident[exact->index.index(w)], exact->distances);
        if (has_capture(p)) {
            MoveList<G> list;
            generate<R>(p, list);
            Value best = Value::loss(0);
            bool first = true;
            for (const auto& m : list) {
                const Value v = probe(p.play(m)).parent();
                if (first || v.better_than(best)) best = v;
                first = false;
            }
            return best;
        }
        return stored_white(w);
    }

    // The stored value of p, which must not have a capture for its side to move.
    Value stored(const Position<R>& p) {
        return stored_white(p.side == Color::kWhite ? p : flip(p));
    }
    // The same for w, White to move (the tables' side).
    Value stored_white(const Position<R>& w) {
        Slot& s = slot(material_of(w));
        const std::uint64_t i = s.index.index(w);
        return decode(s.resident.empty() ? cached_code(s, i) : s.resident[i], s.distances);
    }

    // Whether the slice has a table here: false when its file is missing; a file that is there
    // but cannot be used (damaged, of another variant or slice) throws TableError naming it.
    bool has(const Material& m) {
        try {
            slot(m);
            return true;
        } catch (const MissingTable&) {
            return false;
        }
    }
    // The largest n such that every slice of 2..n pieces has a table here (0: none). Opens (and
    // so checks, every block) each file up to the first missing slice: a damaged file among them
    // throws TableError naming it, rather than counting as missing and leaving the engine to
    // play on silently without the tables.
    int complete_pieces() {
        int n = 0;
        for (int pieces = 2; pieces <= kMaxTablePieces; ++pieces) {
            for (const Material& m : slices_up_to(pieces))
                if (m.pieces() == pieces && !has(m)) return n;
            n = pieces;
        }
        return n;
    }
    // Whether the slice's table has distances.
    bool distances(const Material& m) { return slot(m).distances; }

    // Holds the slice's codes in memory: read from its file, or given (by the builder, which
    // has just written them).
    void make_resident(const Material& m, int threads = 1) {
        Slot& s = slot(m);
        std::lock_guard<std::mutex> g(lock_);
        if (s.resident.empty()) s.resident = s.file->read_all(threads);
    }
    // Gives a resident slice's capture positions their true values (a search over the captures
    // into smaller slices, each once) in place of the file's filler, so that later probes of
    // them read one byte. The slices it reaches should be exact already (fewer pieces first).
    void make_exact(const Material& m, int threads = 1) {
        Slot& s = slot(m);
        if (s.exact || s.resident.empty()) return;
        const std::uint64_t n = s.resident.size();
        constexpr std::uint64_t kChunk = 1 << 14;
        std::atomic<std::uint64_t> next{0};
        run_parallel(threads, [&] {
            for (std::uint64_t begin; (begin = next.fetch_add(kChunk)) < n;)
                s.index.for_each_in(begin, std::min(n, begin + kChunk),
                                    [&](std::uint64_t i, const Position<R>& p) {
                                        if (has_capture(p))
                                            s.resident[i] = encode(probe(p), s.distances);
                                    });
        });
        s.exact = true;
    }
    // `exact`: the codes of capture positions are their true values, not the files' filler.
    void add_resident(const Material& m, std::vector<std::uint8_t> codes, bool distances,
                      bool exact = false) {
        std::lock_guard<std::mutex> g(lock_);
        auto p = std::make_unique<Slot>(m, nullptr, distances);
        p->resident = std::move(codes);
        p->exact = exact;
        fast_[key(m)].store(p.get());
        slots_[key(m)] = std::move(p);
    }
    // Drops the memory of every slice but those of `keep`.
    void release_except(const std::vector<Material>& keep) {
        std::lock_guard<std::mutex> g(lock_);
        for (auto& [k, s] : slots_) {
            if (!s || s->resident.empty()) continue;
            bool kept = false;
            for (const auto& m : keep) kept = kept || key(m) == k;
            if (!kept) {
                if (!s->file) {  // given by the builder: reopen from its file when asked again
                    fast_[k].store(nullptr);
                    s.reset();
                    continue;
                }
                std::vector<std::uint8_t>().swap(s->resident);
                s->exact = false;
            }
        }
    }
    std::uint64_t resident_bytes() {
        std::lock_guard<std::mutex> g(lock_);
        std::uint64_t n = 0;
        for (auto& [k, s] : slots_)
            if (s) n += s->resident.size();
        return n;
    }
    // Forgets a slice (its file is about to be replaced).
    void forget(const Material& m) {
        std::lock_guard<std::mutex> g(lock_);
        fast_[key(m)].store(nullptr);
        const auto it = slots_.find(key(m));
        if (it == slots_.end()) return;
        {
            std::lock_guard<std::mutex> c(cache_lock_);
            std::erase_if(cached_, [&](Cached& b) {
                if (b.owner != it->second.get()) return false;
                drop(b);
                return true;
            });
        }
        slots_.erase(it);
    }

private:
    struct Slot {
        Slot(const Material& m, std::unique_ptr<TableFile> f, bool d)
            : index(m), file(std::move(f)), distances(d) {}
        SliceIndex<R> index;
        std::unique_ptr<TableFile> file;
        bool distances;
        std::vector<std::uint8_t> resident;  // every code, when held in memory
        bool exact = false;                  // resident codes true for capture positions too
        // Its cached blocks, by number: the frame's address with a 16-bit tag in its low bits
        // (frames are 64 KiB aligned), or 0; read without a lock (see cached_code).
        std::unique_ptr<std::atomic<std::uintptr_t>[]> blocks;
        std::unique_ptr<std::atomic<std::uint8_t>[]> referenced;  // read since the hand passed
    };
    static constexpr std::uint32_t kKeys = 1 << 16;
    // Throws MissingTable for more than kMaxTablePieces pieces: the key holds counts up to 15,
    // and a larger one would alias a small slice (probe's exact-slot lookup comes before slot()).
    static std::uint32_t key(const Material& m) {
        check_table_pieces(m);
        return std::uint32_t(((m.wm * 16 + m.wk) * 16 + m.bm) * 16 + m.bk) & (kKeys - 1);
    }

    // Files up to this size are read whole and every block checked when they are opened.
    static constexpr std::uint64_t kWholeCheckBytes = std::uint64_t(64) << 20;
    // The slice's slot, opened on first use, when every block of a file of up to
    // kWholeCheckBytes is checked (one read of the file: see docs/egtb.md for its cost), so that
    // a damaged file is reported, naming it, before any of its values is used. Probes find an
    // open slot without a lock; slots are replaced or dropped only between searches (forget,
    // release_except, add_resident).
    Slot& slot(const Material& m) {
        const std::uint32_t k = key(m);
        if (Slot* s = fast_[k].load(std::memory_order_acquire)) return *s;
        std::lock_guard<std::mutex> g(lock_);
        auto it = slots_.find(k);
        if (it != slots_.end() && it->second) return *it->second;
        if (!m.both_sides())
            throw MissingTable("no table holds a position where one side has no piece", m);
        const std::string name = table_file_name(std::string(R::kName), m);
        const std::string path = dir_ + "/" + name;
        if (::access(path.c_str(), F_OK) != 0)
            throw MissingTable("no table of slice " + m.code() + " (" + m.description() +
                                   "): " + path + " is missing",
                               m);
        auto file = std::make_unique<TableFile>(path, std::string(R::kName));
        check_header<R>(path, file->header(), m);
        // A large file is not read whole at every open (a set of 8-piece tables holds many GB):
        // its blocks are checked as they are read, each probe of a damaged one naming the file.
        if (file->header().file_bytes <= kWholeCheckBytes) file->check_blocks();
        const bool d = file->header().distances;
        auto& p = slots_[k];
        p = std::make_unique<Slot>(m, std::move(file), d);
        p->blocks = std::make_unique<std::atomic<std::uintptr_t>[]>(p->file->header().blocks);
        p->referenced = std::make_unique<std::atomic<std::uint8_t>[]>(p->file->header().blocks);
        fast_[k].store(p.get(), std::memory_order_release);
        return *p;
    }

    // A block held in the cache, in a frame of the cache's arena. The clock hand passes over
    // them (second chance: a block read since the hand last passed is kept one more round).
    struct Cached {
        std::uint8_t* codes;
        Slot* owner;
        std::uint32_t block;
    };

    // A probe that hits the cache takes no lock: it reads the slot's entry for the block (a
    // small, hot array), the byte, and the entry again, like a sequence lock: a block is taken
    // out by clearing its entry before its frame is written again, so a byte read from a frame
    // being reused is seen to be stale and the probe takes the locked path. Without a lock, the
    // misses of successive probes overlap. The frames are 64 KiB in 32 MiB chunks on huge pages
    // where the system gives them, so random probes over gigabytes of cached blocks miss the
    // processor's data cache but rarely its address translation cache.
    static constexpr std::size_t kFrameBytes = std::size_t(1) << 16;
    static_assert(kFrameBytes >= kMaxBlockPositions && kFrameBytes % 8 == 0);
    static constexpr std::size_t kChunkBytes = std::size_t(32) << 20;
    static constexpr std::size_t kHugePage = std::size_t(2) << 20;

    std::uint8_t* new_frame() {
        if (free_frames_.empty()) {
            void* chunk = std::aligned_alloc(kHugePage, kChunkBytes);
            if (!chunk) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
            madvise(chunk, kChunkBytes, MADV_HUGEPAGE);
#endif
            chunks_.push_back(chunk);
            for (std::size_t k = kChunkBytes / kFrameBytes; k-- > 0;)
                free_frames_.push_back(static_cast<std::uint8_t*>(chunk) + k * kFrameBytes);
        }
        std::uint8_t* frame = free_frames_.back();
        free_frames_.pop_back();
        return frame;
    }
    // Takes a block out of the cache (cache_lock_ held). The frame is written again only after
    // the release fence of new_frame's caller.
    void drop(Cached& c) {
        cache_bytes_ -= kFrameBytes;
        c.owner->blocks[c.block].store(0, std::memory_order_relaxed);
        free_frames_.push_back(c.codes);
    }

    std::uint8_t cached_code(Slot& s, std::uint64_t i) {
        const std::uint32_t bp = s.file->header().block_positions;
        const auto block = std::uint32_t(i / bp);
        const std::size_t offset = std::size_t(i % bp);
        if (const std::uintptr_t e = s.blocks[block].load(std::memory_order_acquire)) {
            const std::uint8_t code = frame_byte(frame_of(e), offset);
            std::atomic_thread_fence(std::memory_order_acquire);
            if (s.blocks[block].load(std::memory_order_relaxed) == e) {
                s.referenced[block].store(1, std::memory_order_relaxed);
                return code;
            }
        }
        // A miss: read and decompress the block without holding the lock, then file it.
        auto codes = s.file->read_block(block);
        const std::uint8_t code = codes[offset];
        std::lock_guard<std::mutex> g(cache_lock_);
        if (s.blocks[block].load(std::memory_order_relaxed)) return code;  // filed meanwhile
        // Make room first, so that the frames of the blocks taken out can be used at once.
        while (cache_bytes_ + kFrameBytes > cache_limit_ && !cached_.empty()) {
            hand_ %= cached_.size();
            Cached& victim = cached_[hand_];
            if (victim.owner->referenced[victim.block].exchange(0, std::memory_order_relaxed)) {
                ++hand_;
                continue;
            }
            drop(victim);
            if (&victim != &cached_.back()) victim = cached_.back();
            cached_.pop_back();
        }
        std::uint8_t* frame = new_frame();
        // The entries cleared above are visible before the frame is written (sequence lock).
        std::atomic_thread_fence(std::memory_order_release);
        write_frame(frame, codes);
        cache_bytes_ += kFrameBytes;
        cached_.push_back(Cached{frame, &s, block});
        s.referenced[block].store(1, std::memory_order_relaxed);
        s.blocks[block].store(reinterpret_cast<std::uintptr_t>(frame) | (++tag_ & 0xffff),
                              std::memory_order_release);
        return code;
    }
    // A frame is read and written in aligned 8-byte words, each access atomic (relaxed): a reader
    // holding a frame's old entry may be loading from it while a miss writes it again, and the
    // fences of the sequence lock order only atomic accesses (a plain copy would be a data race).
    // Words rather than bytes: one atomic store a byte made a miss 40% slower.
    static std::uint8_t frame_byte(std::uint8_t* frame, std::size_t offset) {
        const std::uint64_t w =
            std::atomic_ref<std::uint64_t>(reinterpret_cast<std::uint64_t*>(frame)[offset / 8])
                .load(std::memory_order_relaxed);
        std::uint8_t bytes[8];
        std::memcpy(bytes, &w, 8);
        return bytes[offset % 8];
    }
    static void write_frame(std::uint8_t* frame, const std::vector<std::uint8_t>& codes) {
        auto* words = reinterpret_cast<std::uint64_t*>(frame);
        const std::size_t whole = codes.size() / 8;
        for (std::size_t k = 0; k < whole; ++k) {
            std::uint64_t w;
            std::memcpy(&w, codes.data() + k * 8, 8);
            std::atomic_ref<std::uint64_t>(words[k]).store(w, std::memory_order_relaxed);
        }
        if (const std::size_t rest = codes.size() % 8) {
            std::uint64_t w = 0;
            std::memcpy(&w, codes.data() + whole * 8, rest);
            std::atomic_ref<std::uint64_t>(words[whole]).store(w, std::memory_order_relaxed);
        }
    }
    static std::uint8_t* frame_of(std::uintptr_t entry) {
        return reinterpret_cast<std::uint8_t*>(entry & ~std::uintptr_t(kFrameBytes - 1));
    }

    std::string dir_;
    std::mutex lock_;
    std::unordered_map<std::uint32_t, std::unique_ptr<Slot>> slots_;
    std::vector<std::atomic<Slot*>> fast_;
    std::mutex cache_lock_;
    std::size_t cache_limit_, cache_bytes_ = 0;
    std::vector<Cached> cached_;
    std::size_t hand_ = 0;
    std::vector<void*> chunks_;               // the arena of frames
    std::vector<std::uint8_t*> free_frames_;  // frames not holding a block
    std::uintptr_t tag_ = 0;                  // told apart successive uses of a frame
};

}  // namespace dambit::egtb
