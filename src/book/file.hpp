// Opening book files: the complete book (written to FILE.tmp, renamed FILE) and the journal of a
// build in progress (FILE.part, appended a block at a time), both checked by XXH64.
//
// A book file (little-endian): a 128-byte header ("DAMBITBK", u32 version, u32 record size, the
// variant's name in 16 bytes, u64 zero, the build settings in 88 bytes, zero-padded); the
// records (Record, 40 bytes each) sorted by position; a u32 tag "DONE", u32 zero, u64 records and
// the XXH64 of everything before it. The journal has the same header, then blocks, each a u32
// tag "BOOK", u32 records, the records and the XXH64 of the block from its tag on; a record of a
// later block replaces the one of the same position in earlier blocks. docs/book.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace dambit::file_io {
class ExclusiveLock;
}  // namespace dambit::file_io

namespace dambit::book {

// One position of the book and what is known of it, in the bit layout of its variant's geometry.
struct Record {
    std::uint64_t white = 0, black = 0, kings = 0;
    std::int16_t value = 0;  // the search's score for the side to move (kSearched)
    std::uint8_t side = 0;   // 0: White to move
    std::uint8_t flags = 0;
    std::uint32_t games = 0;    // games of the PDN files that reached it (books from games)
    std::uint32_t points2 = 0;  // twice the points the side to move scored in those games
    std::uint32_t reserved = 0;

    static constexpr std::uint8_t kExpanded = 1;  // every legal move's position is in the book
    static constexpr std::uint8_t kSearched = 2;  // `value` holds a search score
    static constexpr std::uint8_t kRoot = 4;      // a start of the book (start position, ballot)

    bool same_position(const Record& o) const {
        return white == o.white && black == o.black && kings == o.kings && side == o.side;
    }
    friend bool operator==(const Record&, const Record&) = default;
    friend bool operator<(const Record& a, const Record& b) {
        if (a.white != b.white) return a.white < b.white;
        if (a.black != b.black) return a.black < b.black;
        if (a.kings != b.kings) return a.kings < b.kings;
        return a.side < b.side;
    }
};
static_assert(sizeof(Record) == 40);

struct BookHeader {
    std::string variant;
    std::string settings;  // how it was built, as text (at most 88 bytes)
    // Both as one settings text, "variant=russian,nodes=300,...", for settings_change.
    std::string described() const { return "variant=" + variant + "," + settings; }
    // Written by a dambit before 2026-12-07, whose books named the --eval choice (`eval=auto`)
    // rather than the weights' checksum, and no table size: no run of this one can extend it.
    bool before_checksums() const {
        return settings.find("eval=") != std::string::npos &&
               settings.find("hash=") == std::string::npos;
    }
};

// Why the book (or its journal) `path`, with `old`, cannot be extended by a build of `now`: a
// book of an earlier dambit said so, else the settings that differ (settings_change).
std::string other_settings(const std::string& path, const BookHeader& old, const BookHeader& now,
                           const char* advice);

inline constexpr std::uint32_t kBookVersion = 1;

struct BookFile {
    BookHeader header;
    std::vector<Record> records;  // sorted, one per position
    std::uint64_t bytes = 0;      // size of the file
};

// Reads a complete book, checking its checksum; throws std::runtime_error (one line naming the
// file and what is wrong) otherwise.
BookFile read_book(const std::string& path);
// Writes `records` (sorted here) as a complete book: PATH.tmp, flushed to disk, renamed PATH.
void write_book(const std::string& path, const BookHeader& header, std::vector<Record> records);

// The journal of a build, PATH.part.
class Journal {
public:
    // Opens PATH.part: a new one, or an existing one with the same header, whose valid blocks are
    // read into `records` in order (a torn block at its end is cut off, and a damaged block with
    // everything after it: see damage()). Throws
    // std::runtime_error (one line) when it was begun with another header, or when another run
    // is writing it (it is locked while this journal lives).
    Journal(const std::string& path, const BookHeader& header, std::vector<Record>& records);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    bool resumed() const { return resumed_; }
    // When a whole block of the journal failed its check (damage, not a write cut short by a
    // kill): what was dropped, "block N at byte B fails its checksum; its positions (N bytes) and
    // the K bytes after it are dropped" (or "... its positions and all after it, K bytes, are
    // dropped" when the block's length cannot be known). Empty otherwise.
    const std::string& damage() const { return damage_; }
    // Appends one block: handed to the system at once (a killed build keeps it), flushed to disk
    // at most once a second.
    void append(const std::vector<Record>& records);
    // Closes and deletes PATH.part (after the book is written).
    void remove();

private:
    std::string part_;
    std::unique_ptr<file_io::ExclusiveLock> lock_;
    std::FILE* f_ = nullptr;
    bool resumed_ = false;
    std::string damage_;
    std::chrono::steady_clock::time_point synced_{};  // the last sync to disk
};

}  // namespace dambit::book
