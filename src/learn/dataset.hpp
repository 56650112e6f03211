// Training data of the learned evaluation: labelled positions from self-play (dambit selfplay),
// in a file written a block of games at a time, so that an interrupted run resumes where it
// stopped and a reader never takes a half-written file for a whole one.
//
// The file (little-endian): a 128-byte header ("DAMBITSP", u32 version, u32 record size, the
// variant's name in 16 bytes, u64 seed, the settings text in 88 bytes, zero-padded); blocks,
// each a u32 tag "GAME", u32 first game, u32 games, u32 records, the records (Sample, 32 bytes
// each) and the XXH64 of the block from its tag to its last record; and at the end a u32 tag
// "DONE", u32 zero, u64 games, u64 records and the XXH64 of the header and those 24 bytes
// (version 2; version 1, still read and resumed, left the header out). A file without the DONE
// block is still being written (FILE.part) or was interrupted.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace dambit::file_io {
class ExclusiveLock;
}  // namespace dambit::file_io

namespace dambit::learn {

// One labelled position, in the bit layout of its variant's geometry.
struct Sample {
    std::uint64_t white = 0, black = 0, kings = 0;
    std::uint8_t side = 0;     // 0: White to move
    std::int8_t result = 0;    // the game's result for White: 1 won, 0 drawn, -1 lost
    std::int16_t score = 0;    // the search's score for the side to move, in hundredths of a man
    std::uint32_t game = 0;    // the game it comes from
};
static_assert(sizeof(Sample) == 32);

// selfplay's default table size (MB), which the settings text of a header leaves out (the first
// data files were written without it): SelfplaySettings::text.
inline constexpr std::size_t kDefaultSelfplayHash = 16;

struct DataHeader {
    std::string variant;
    std::uint64_t seed = 0;
    std::string settings;  // the generator's settings, as text (at most 88 bytes)
};

inline constexpr std::uint32_t kDataVersion = 2;
inline constexpr std::uint32_t kOldestDataVersion = 1;
// The longest game selfplay plays (--max-plies): a block holds at most this many positions plus
// one a game, which tells a damaged record count from a block cut short.
inline constexpr int kMaxGamePlies = 100000;

// Appends blocks to FILE.part; finish() writes the DONE block and renames FILE.part to FILE.
class DataWriter {
public:
    // Opens FILE.part: a new one, or an existing one with the same header, whose valid blocks are
    // kept (a torn block at its end is cut off). `existing` receives the records kept, and
    // next_game() tells the first game still to play. Throws std::runtime_error (one line) when
    // FILE exists complete, FILE.part was made with other settings, or another run is writing
    // FILE.part (it is locked while this writer lives).
    DataWriter(const std::string& path, const DataHeader& header, std::vector<Sample>& existing);
    ~DataWriter();
    DataWriter(const DataWriter&) = delete;
    DataWriter& operator=(const DataWriter&) = delete;

    std::uint32_t next_game() const { return next_game_; }
    std::uint64_t records() const { return records_; }
    // Empty, or what was dropped from a resumed FILE.part because it failed its check (damage,
    // not a run cut short, whose torn last block is cut off without a word).
    const std::string& damage() const { return damage_; }
    // Appends the records of games [next_game(), next_game() + games) and flushes them to disk.
    void append(std::uint32_t games, const std::vector<Sample>& records);
    void finish();

private:
    std::string path_;
    std::unique_ptr<file_io::ExclusiveLock> lock_;  // on FILE.part
    std::string head_;  // the header's bytes, in the version written
    std::FILE* f_ = nullptr;
    std::uint32_t next_game_ = 0;
    std::uint64_t records_ = 0;
    std::string damage_;
};

struct DataFile {
    DataHeader header;
    std::uint32_t version = 0;
    std::uint64_t games = 0;
    std::vector<Sample> samples;
};

// Reads a complete file, checking every checksum; throws std::runtime_error (one line naming the
// file and what is wrong) otherwise.
DataFile read_data(const std::string& path);

}  // namespace dambit::learn
