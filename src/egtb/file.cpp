// Reading and writing endgame table files (see file.hpp for the layout).
#include "egtb/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "core/threads.hpp"

namespace dambit::egtb {
namespace {

constexpr char kMagic[8] = {'D', 'A', 'M', 'B', 'I', 'T', 'E', 'G'};
constexpr std::size_t kHeaderBytes = 128;
constexpr std::size_t kEntryBytes = 24;
constexpr std::uint32_t kZstd = 1;
constexpr int kZstdLevel = 9;

void put32(unsigned char* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
void put64(unsigned char* p, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
std::uint32_t get32(const unsigned char* p) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | p[i];
    return v;
}
std::uint64_t get64(const unsigned char* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    return v;
}

std::string errno_text() { return std::strerror(errno); }

// Reads exactly n bytes at offset, or throws.
void read_at(int fd, const std::string& path, void* out, std::size_t n, std::uint64_t offset) {
    auto* p = static_cast<unsigned char*>(out);
    while (n > 0) {
        const ssize_t r = ::pread(fd, p, n, off_t(offset));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) throw TableError(path + ": truncated or unreadable table file");
        p += r;
        n -= std::size_t(r);
        offset += std::uint64_t(r);
    }
}

void write_all(int fd, const std::string& path, const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) throw TableError(path + ": cannot write: " + errno_text());
        p += w;
        n -= std::size_t(w);
    }
}

}  // namespace

std::string table_file_name(const std::string& variant, const Material& m) {
    return variant + "-" + m.code() + ".egtb";
}

void write_table(const std::string& path, TableHeader h, const std::vector<std::uint8_t>& codes,
                 int threads) {
    h.positions = codes.size();
    if (h.block_positions == 0) h.block_positions = 1 << 16;
    h.blocks = std::uint32_t((codes.size() + h.block_positions - 1) / h.block_positions);
    std::vector<std::vector<unsigned char>> blocks(h.blocks);
    std::atomic<std::uint32_t> next{0};
    // Each block compressed into one buffer of the thread's, then kept at its size: a block
    // kept in a buffer of zstd's bound would hold a byte a position, which the memory budget of
    // the build (egtb/build.hpp, memory_needed) does not count.
    auto work = [&] {
        ZSTD_CCtx* cx = ZSTD_createCCtx();
        std::vector<unsigned char> buffer(ZSTD_compressBound(h.block_positions));
        for (std::uint32_t k; (k = next.fetch_add(1)) < h.blocks;) {
            const std::size_t begin = std::size_t(k) * h.block_positions;
            const std::size_t n = std::min<std::size_t>(h.block_positions, codes.size() - begin);
            const std::size_t z = ZSTD_compressCCtx(cx, buffer.data(), buffer.size(),
                                                    codes.data() + begin, n, kZstdLevel);
            if (!ZSTD_isError(z))
                blocks[k].assign(buffer.begin(), buffer.begin() + std::ptrdiff_t(z));
        }
        ZSTD_freeCCtx(cx);
    };
    Workers pool(std::max(1, threads) - 1, "table", 1, [&](std::size_t) { work(); });
    work();
    pool.join();

    std::vector<unsigned char> index(std::size_t(h.blocks) * kEntryBytes);
    std::uint64_t offset = 0;
    for (std::uint32_t k = 0; k < h.blocks; ++k) {
        if (blocks[k].empty()) throw TableError(path + ": compression failed");
        unsigned char* e = index.data() + std::size_t(k) * kEntryBytes;
        put64(e, offset);
        put32(e + 8, std::uint32_t(blocks[k].size()));
        put32(e + 12, 0);
        put64(e + 16, XXH64(blocks[k].data(), blocks[k].size(), 0));
        offset += blocks[k].size();
    }
    const std::uint64_t data_offset = kHeaderBytes + index.size();
    h.file_bytes = data_offset + offset;

    unsigned char head[kHeaderBytes] = {};
    std::memcpy(head, kMagic, 8);
    put32(head + 8, kFormatVersion);
    put32(head + 12, std::uint32_t(kHeaderBytes));
    std::memcpy(head + 16, h.variant.data(), std::min<std::size_t>(h.variant.size(), 15));
    head[32] = std::uint8_t(h.material.wm);
    head[33] = std::uint8_t(h.material.wk);
    head[34] = std::uint8_t(h.material.bm);
    head[35] = std::uint8_t(h.material.bk);
    head[36] = h.distances ? 1 : 0;
    head[37] = kIndexScheme;
    head[38] = 0;  // White to move
    head[39] = 1;  // capture positions filled, resolved by a capture search
    put64(head + 40, h.positions);
    put64(head + 48, h.wins);
    put64(head + 56, h.draws);
    put64(head + 64, h.losses);
    put32(head + 72, std::uint32_t(std::int32_t(h.longest_win)));
    put32(head + 76, h.block_positions);
    put64(head + 80, h.longest_example);
    put32(head + 88, h.blocks);
    put32(head + 92, kZstd);
    put64(head + 96, data_offset);
    put64(head + 104, h.file_bytes);
    put64(head + 112, XXH64(index.data(), index.size(), 0));
    put64(head + 120, XXH64(head, 120, 0));

    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) throw TableError(tmp + ": cannot create: " + errno_text());
    try {
        write_all(fd, tmp, head, kHeaderBytes);
        write_all(fd, tmp, index.data(), index.size());
        for (const auto& b : blocks) write_all(fd, tmp, b.data(), b.size());
        if (::fsync(fd) != 0) throw TableError(tmp + ": cannot write: " + errno_text());
    } catch (...) {
        ::close(fd);
        std::remove(tmp.c_str());
        throw;
    }
    ::close(fd);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw TableError(path + ": cannot rename the finished file: " + errno_text());
    }
}

TableFile::TableFile(const std::string& path, const std::string& variant) : path_(path) {
    // Non-blocking, so that a FIFO (or a device) named like a table is refused here rather than
    // waiting for a writer in open() with the signals unanswered; a table is a regular file.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) throw TableError(path + ": cannot open: " + errno_text());
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd_);
        fd_ = -1;
        throw TableError(path + ": not a regular file");
    }
    try {
        unsigned char head[kHeaderBytes];
        read_at(fd_, path, head, kHeaderBytes, 0);
        if (std::memcmp(head, kMagic, 8) != 0) throw TableError(path + ": not a dambit table file");
        if (get64(head + 120) != XXH64(head, 120, 0))
            throw TableError(path + ": header checksum mismatch (damaged file)");
        if (get32(head + 8) != kFormatVersion)
            throw TableError(path + ": table format version " + std::to_string(get32(head + 8)) +
                             ", this program reads version " + std::to_string(kFormatVersion));
        char name[16] = {};
        std::memcpy(name, head + 16, 15);
        header_.variant = name;
        if (!variant.empty() && header_.variant != variant)
            throw TableError(path + ": a table of " + header_.variant + ", not of " + variant);
        header_.material = {head[32], head[33], head[34], head[35]};
        header_.distances = head[36] == 1;
        if (head[37] != kIndexScheme || head[38] != 0 || head[39] != 1 || get32(head + 92) != kZstd)
            throw TableError(path + ": unknown table layout");
        header_.positions = get64(head + 40);
        header_.wins = get64(head + 48);
        header_.draws = get64(head + 56);
        header_.losses = get64(head + 64);
        header_.longest_win = std::int32_t(get32(head + 72));
        header_.block_positions = get32(head + 76);
        header_.longest_example = get64(head + 80);
        header_.blocks = get32(head + 88);
        data_offset_ = get64(head + 96);
        header_.file_bytes = get64(head + 104);
        const off_t end = ::lseek(fd_, 0, SEEK_END);
        if (end < 0 || std::uint64_t(end) != header_.file_bytes)
            throw TableError(path + ": truncated or overlong table file (" + std::to_string(end) +
                             " bytes, the header says " + std::to_string(header_.file_bytes) + ")");
        if (header_.block_positions > kMaxBlockPositions)
            throw TableError(path + ": blocks of " + std::to_string(header_.block_positions) +
                             " positions (at most " + std::to_string(kMaxBlockPositions) + ")");
        if (header_.block_positions == 0 ||
            std::uint64_t(header_.blocks) !=
                (header_.positions + header_.block_positions - 1) / header_.block_positions ||
            data_offset_ != kHeaderBytes + std::uint64_t(header_.blocks) * kEntryBytes ||
            data_offset_ > header_.file_bytes)  // before the index is read: its size is bounded
            throw TableError(path + ": inconsistent header");
        std::vector<unsigned char> index(std::size_t(header_.blocks) * kEntryBytes);
        read_at(fd_, path, index.data(), index.size(), kHeaderBytes);
        if (get64(head + 112) != XXH64(index.data(), index.size(), 0))
            throw TableError(path + ": block index checksum mismatch (damaged file)");
        index_.resize(header_.blocks);
        for (std::uint32_t k = 0; k < header_.blocks; ++k) {
            const unsigned char* e = index.data() + std::size_t(k) * kEntryBytes;
            index_[k] = {get64(e), get32(e + 8), get64(e + 16)};
            // Inside the file, and no larger than zstd makes a block (a read allocates it).
            if (data_offset_ + index_[k].offset + index_[k].size > header_.file_bytes ||
                index_[k].size > ZSTD_compressBound(header_.block_positions))
                throw TableError(path + ": inconsistent block index");
        }
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

TableFile::~TableFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::vector<std::uint8_t> TableFile::read_block(std::uint32_t k) const {
    const Entry& e = index_.at(k);
    std::vector<unsigned char> z(e.size);
    read_at(fd_, path_, z.data(), z.size(), data_offset_ + e.offset);
    check_block(k, z.data());
    const std::uint64_t begin = std::uint64_t(k) * header_.block_positions;
    const std::size_t n =
        std::size_t(std::min<std::uint64_t>(header_.block_positions, header_.positions - begin));
    std::vector<std::uint8_t> out(n);
    const std::size_t r = ZSTD_decompress(out.data(), n, z.data(), z.size());
    if (ZSTD_isError(r) || r != n)
        throw TableError(path_ + ": block " + std::to_string(k) + " does not decompress");
    return out;
}

void TableFile::check_blocks() const {
    // The blocks follow each other in the file: read them some 100 KB at a time (one read per
    // block would be tens of thousands of system calls for a large file), into one buffer left
    // uninitialised and small enough to come from the heap, not from a fresh mapping whose page
    // faults and clearing would cost more than the reads (measured: docs/egtb.md).
    constexpr std::uint64_t kChunk = std::uint64_t(96) << 10;
    std::uint64_t capacity = 0;
    for (const Entry& e : index_) capacity = std::max<std::uint64_t>(capacity, e.size);
    capacity = std::max(capacity, std::min(kChunk, header_.file_bytes - data_offset_));
    const std::unique_ptr<unsigned char[]> buffer(new unsigned char[std::size_t(capacity)]);
    std::uint64_t begin = 0, end = 0;  // the file's bytes the buffer holds
    for (std::uint32_t k = 0; k < header_.blocks; ++k) {
        const Entry& e = index_[k];
        const std::uint64_t at = data_offset_ + e.offset;
        if (at < begin || at + e.size > end) {
            // The constructor checked that every block lies inside the file.
            const std::uint64_t n = std::max<std::uint64_t>(
                e.size, std::min(capacity, header_.file_bytes - at));
            read_at(fd_, path_, buffer.get(), std::size_t(n), at);
            begin = at;
            end = at + n;
        }
        check_block(k, buffer.get() + (at - begin));
    }
}

void TableFile::check_block(std::uint32_t k, const unsigned char* bytes) const {
    const Entry& e = index_[k];
    if (XXH64(bytes, e.size, 0) != e.checksum)
        throw TableError(path_ + ": block " + std::to_string(k) + " checksum mismatch (damaged file)");
}

std::vector<std::uint8_t> TableFile::read_all(int threads) const {
    std::vector<std::uint8_t> all(header_.positions);
    std::atomic<std::uint32_t> next{0};
    std::atomic<bool> failed{false};
    std::string error;
    std::mutex lock;
    auto work = [&] {
        for (std::uint32_t k; !failed && (k = next.fetch_add(1)) < header_.blocks;) {
            try {
                const auto b = read_block(k);
                std::copy(b.begin(), b.end(), all.begin() + std::ptrdiff_t(k) * header_.block_positions);
            } catch (const TableError& e) {
                std::lock_guard<std::mutex> g(lock);
                if (!failed.exchange(true)) error = e.what();
            }
        }
    };
    Workers pool(std::max(1, threads) - 1, "table", 1, [&](std::size_t) { work(); });
    work();
    pool.join();
    if (failed) throw TableError(error);
    return all;
}

}  // namespace dambit::egtb
