// Endgame table files: one per slice, White to move, values compressed in blocks.
//
// Layout (little-endian):
//   header, 128 bytes: "DAMBITEG", format version, variant, material, value kind (win/draw/loss
//     or distance), index scheme, side to move, how capture positions are stored, the counts of
//     positions, wins, draws and losses, the longest win and the index of a position that has it,
//     the block size and count, the compression, where the blocks start, the file size, and the
//     xxHash (XXH64) of the block index and of the header itself;
//   block index: per block its offset (from the start of the blocks), compressed size and XXH64;
//   blocks: zstd frames of one byte per position (egtb/value.hpp), `block_positions` a block.
// Positions where the side to move must capture hold the value of the position before them in
// index order (their true value is found by a capture search when probed), which lengthens the
// runs the compressor sees. A file is written to NAME.tmp and renamed when complete; one whose
// header, index or any block fails its checksum is never used and is reported with its name (the
// blocks are all checked when Tables opens the file: TableFile::check_blocks).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "egtb/material.hpp"

namespace dambit::egtb {

// A table file that cannot be used (missing, damaged, of another variant); the message names it.
class TableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A position outside the tables: its slice has no file (or no table can hold it).
class MissingTable : public TableError {
public:
    MissingTable(const std::string& message, const Material& m)
        : TableError(message), material(m) {}
    Material material;
};

// Throws MissingTable for a position of more pieces than any table holds, named by its number of
// pieces: a slice's code has one digit a count (twelve men would spell '<'), and the tables' slot
// keys four bits a count (16 men would alias a small slice).
inline void check_table_pieces(const Material& m) {
    if (m.pieces() > kMaxTablePieces)
        throw MissingTable(fmt::format("no table holds a position of {} pieces (they go up to {})",
                                       m.pieces(), kMaxTablePieces),
                           m);
}

inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::uint8_t kIndexScheme = 1;  // egtb/index.hpp

struct TableHeader {
    std::string variant;
    Material material;
    bool distances = false;  // distance-to-win values (else win/draw/loss)
    std::uint64_t positions = 0;
    std::uint64_t wins = 0, draws = 0, losses = 0;  // White to move, every position
    int longest_win = -1;                            // plies; -1 without distances
    std::uint64_t longest_example = 0;               // index of the first position with it
    std::uint32_t block_positions = 0;
    std::uint32_t blocks = 0;
    std::uint64_t file_bytes = 0;
};

// The most positions a block holds: the tables' block cache (egtb/tables.hpp) keeps a block in a
// frame of this many bytes. dambit writes blocks of 65,536; TableFile refuses a header with more.
inline constexpr std::uint32_t kMaxBlockPositions = std::uint32_t(1) << 16;

// The file name of a slice: <variant>-<wm><wk><bm><bk>.egtb
std::string table_file_name(const std::string& variant, const Material& m);

// Writes `codes` (one byte per position, capture positions already filled) as a table file at
// `path`, through path.tmp; compresses the blocks on `threads` threads.
void write_table(const std::string& path, TableHeader header, const std::vector<std::uint8_t>& codes,
                 int threads);

// An open table file: the header and block index are read and checked when it is opened; each
// block is checked when it is read.
class TableFile {
public:
    // Throws TableError naming `path` when the file is missing, damaged or not a table of
    // `variant` (empty: any).
    TableFile(const std::string& path, const std::string& variant);
    ~TableFile();
    TableFile(const TableFile&) = delete;
    TableFile& operator=(const TableFile&) = delete;

    const TableHeader& header() const { return header_; }
    const std::string& path() const { return path_; }
    // Block k's codes (block_positions of them, fewer in the last block).
    std::vector<std::uint8_t> read_block(std::uint32_t k) const;
    // Every code of the file.
    std::vector<std::uint8_t> read_all(int threads = 1) const;
    // Reads every block and checks its checksum, without decompressing it; throws TableError
    // naming the file and the first damaged block. Tables (egtb/tables.hpp) calls it when it
    // opens a file, so that a damaged file is refused before any value of it is used.
    void check_blocks() const;

private:
    struct Entry {
        std::uint64_t offset;
        std::uint32_t size;
        std::uint64_t checksum;
    };
    // Throws TableError naming the file unless `bytes` (block k as stored) match its checksum.
    void check_block(std::uint32_t k, const unsigned char* bytes) const;
    std::string path_;
    int fd_ = -1;
    TableHeader header_;
    std::uint64_t data_offset_ = 0;
    std::vector<Entry> index_;
};

}  // namespace dambit::egtb
