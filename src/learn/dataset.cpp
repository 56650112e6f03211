#include "learn/dataset.hpp"

#include "core/file_io.hpp"
#include "core/text.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>

namespace dambit::learn {

namespace {

constexpr char kMagic[8] = {'D', 'A', 'M', 'B', 'I', 'T', 'S', 'P'};
using file_io::kHeaderBytes;
constexpr std::uint32_t kGameTag = 0x454d4147;  // "GAME"
constexpr std::uint32_t kDoneTag = 0x454e4f44;  // "DONE"

using file_io::create_journal;
using file_io::get;
using file_io::put;
using file_io::read_all;
using file_io::write_or_throw;

std::string header_bytes(const DataHeader& h, std::uint32_t version) {
    return file_io::header_bytes(kMagic, version, sizeof(Sample),
                                 {h.variant, h.seed, h.settings});
}

DataHeader parse_header(const std::string& bytes, const std::string& path,
                        std::uint32_t* version = nullptr) {
    const auto h = file_io::parse_header(bytes, path, kMagic, kDataVersion, sizeof(Sample),
                                         "selfplay data", kOldestDataVersion);
    DataHeader d;
    d.variant = h.variant;
    d.seed = h.number;
    d.settings = h.settings;
    if (version) *version = h.version;
    return d;
}

// The checksum of the end block's first 24 bytes `done`, given the file's header `head`: version
// 1 left the header out, so a damaged seed or settings text went unseen.
std::uint64_t done_checksum(std::string_view head, const char* done) {
    if (file_io::get<std::uint32_t>(head.data() + 8) == 1) return XXH64(done, 24, 0);
    std::string both(head.substr(0, kHeaderBytes));
    both.append(done, 24);
    return XXH64(both.data(), both.size(), 0);
}

// The valid blocks of `bytes` after the header: their records, the games they hold, and where
// the valid part ends; `done` tells whether a valid DONE block ends it.
struct Scan {
    std::vector<Sample> samples;
    std::uint32_t games = 0;
    std::size_t end = kHeaderBytes;
    bool done = false;
    bool damaged = false;  // a block is whole but its checksum or its counts are wrong
    bool end_damaged = false;  // ... and that block is the end block
    // A damaged block's length when its counts can be trusted to give it (it is whole and only
    // its checksum or first game fails), else 0.
    std::size_t damaged_size = 0;
};

// Whether the file's last 32 bytes, after `from`, are an end block whose checksum holds.
bool ends_in_done(const std::string& bytes, std::size_t from) {
    if (bytes.size() < from + 32) return false;
    const char* p = bytes.data() + bytes.size() - 32;
    return get<std::uint32_t>(p) == kDoneTag &&
           get<std::uint64_t>(p + 24) == done_checksum(bytes, p);
}

Scan scan_blocks(const std::string& bytes) {
    Scan s;
    std::size_t at = kHeaderBytes;
    while (bytes.size() - at >= 16) {
        const char* p = bytes.data() + at;
        const auto tag = get<std::uint32_t>(p);
        if (tag == kDoneTag) {
            if (bytes.size() - at < 32) break;
            const auto games = get<std::uint64_t>(p + 8), records = get<std::uint64_t>(p + 16);
            if (get<std::uint64_t>(p + 24) != done_checksum(bytes, p) || games != s.games ||
                records != s.samples.size()) {
                s.damaged = s.end_damaged = true;
                break;
            }
            s.done = true;
            s.end = at + 32;
            break;
        }
        if (tag != kGameTag) {
            s.damaged = true;
            break;
        }
        const auto first = get<std::uint32_t>(p + 4), games = get<std::uint32_t>(p + 8);
        const auto records = get<std::uint32_t>(p + 12);
        const std::size_t size = 16 + std::size_t(records) * sizeof(Sample);
        if (bytes.size() - at < size + 8) {
            // Cut short: a run stopped while writing this block, the file's last. Unless its
            // counts cannot be a block's (a game writes at most kMaxGamePlies + 1 positions) or
            // a valid end block follows somewhere after it: then a damaged count (a flipped bit)
            // made the block look longer than the file, and it is damage.
            s.damaged = std::size_t(records) > std::size_t(games) * (kMaxGamePlies + 1) ||
                        ends_in_done(bytes, at + 16);
            break;
        }
        if (first != s.games || get<std::uint64_t>(p + size) != XXH64(p, size, 0)) {
            s.damaged = true;
            s.damaged_size = size + 8;
            break;
        }
        const std::size_t old = s.samples.size();
        s.samples.resize(old + records);
        if (records)  // an empty vector's data() may be null, which memcpy must not get
            std::memcpy(static_cast<void*>(s.samples.data() + old), p + 16,
                        records * sizeof(Sample));
        s.games += games;
        at += size + 8;
        s.end = at;
    }
    return s;
}

}  // namespace

DataWriter::DataWriter(const std::string& path, const DataHeader& header,
                       std::vector<Sample>& existing)
    : path_(path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::runtime_error(fmt::format("'{}' is a directory", path));
    if (std::filesystem::exists(path, ec))
        throw std::runtime_error(fmt::format(
            "'{}' exists already (remove it, or give another --out: it is never replaced)", path));
    const std::string part = path + ".part";
    head_ = header_bytes(header, kDataVersion);
    existing.clear();
    // Locked before it is read: the file (created empty if missing) is this run's alone.
    lock_ = std::make_unique<file_io::ExclusiveLock>(part);
    if (std::filesystem::file_size(part, ec) > 0 && !ec) {
        const std::string bytes = read_all(part);
        std::uint32_t version = 0;
        const DataHeader old = parse_header(bytes, part, &version);
        head_ = header_bytes(header, version);  // an older version's part file ends as it began
        // The default table size, left out of the header (SelfplaySettings::text), named in the
        // message all the same: "hash=8, now hash=16", not "now none".
        const auto named = [](const DataHeader& h) {
            return fmt::format("variant={} seed={} {}{}", h.variant, h.seed, h.settings,
                               h.settings.find("hash=") == std::string::npos
                                   ? fmt::format(" hash={}", kDefaultSelfplayHash)
                                   : std::string());
        };
        if (bytes.compare(0, kHeaderBytes, head_) != 0)
            throw std::runtime_error(part_header_mismatch(part, named(old), named(header)));
        Scan s = scan_blocks(bytes);
        if (s.end_damaged)
            damage_ = fmt::format("the end block at byte {} fails its check; it is written again "
                                  "(no game is lost)",
                                  s.end);
        else if (s.damaged && s.damaged_size > 0)
            damage_ = fmt::format("the block at byte {} fails its check; it ({} bytes by its count) and the {} "
                                  "bytes after it are dropped, and their games played again",
                                  s.end, s.damaged_size, bytes.size() - s.end - s.damaged_size);
        else if (s.damaged)  // its length unknown: a count in it is damaged
            damage_ = fmt::format("the block at byte {} fails its check; it and all after it, {} "
                                  "bytes, are dropped, and their games played again",
                                  s.end, bytes.size() - s.end);
        if (s.done) s.end -= 32;  // finished but not renamed: the end block is written again
        std::filesystem::resize_file(part, s.end);
        existing = std::move(s.samples);
        next_game_ = s.games;
        records_ = existing.size();
        f_ = std::fopen(part.c_str(), "ab");
    } else {
        f_ = create_journal(part, head_);
    }
    if (!f_)
        throw std::runtime_error(fmt::format("cannot write '{}': {}", part, std::strerror(errno)));
}

DataWriter::~DataWriter() {
    if (f_) std::fclose(f_);
}

void DataWriter::append(std::uint32_t games, const std::vector<Sample>& records) {
    std::string block;
    put(block, kGameTag);
    put(block, next_game_);
    put(block, games);
    put(block, std::uint32_t(records.size()));
    block.append(reinterpret_cast<const char*>(records.data()), records.size() * sizeof(Sample));
    put(block, std::uint64_t(XXH64(block.data(), block.size(), 0)));
    write_or_throw(f_, block, path_ + ".part");
    next_game_ += games;
    records_ += records.size();
}

void DataWriter::finish() {
    std::string done;
    put(done, kDoneTag);
    put(done, std::uint32_t(0));
    put(done, std::uint64_t(next_game_));
    put(done, records_);
    put(done, done_checksum(head_, done.data()));
    write_or_throw(f_, done, path_ + ".part");
    std::fclose(f_);
    f_ = nullptr;
    std::error_code ec;
    std::filesystem::rename(path_ + ".part", path_, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot rename '{}.part': {}", path_, ec.message()));
}

DataFile read_data(const std::string& path) {
    const std::string bytes = read_all(path);
    DataFile d;
    d.header = parse_header(bytes, path, &d.version);
    Scan s = scan_blocks(bytes);
    if (s.end_damaged)
        throw std::runtime_error(fmt::format(
            "{}: damaged data file (the end block's checksum{} or counts fail at byte {}, after "
            "{} game{})",
            path, d.version == 1 ? "" : ", which covers the header,", s.end, s.games,
            s.games == 1 ? "" : "s"));
    if (!s.done && s.damaged)
        throw std::runtime_error(fmt::format(
            "{}: damaged data file (a block's checksum fails at byte {}, after {} games)", path,
            s.end, s.games));
    if (!s.done)
        throw std::runtime_error(fmt::format(
            "{}: incomplete data file (no valid end block after {} games)", path, s.games));
    if (s.end != bytes.size())
        throw std::runtime_error(fmt::format("{}: bytes after the end block", path));
    d.games = s.games;
    d.samples = std::move(s.samples);
    return d;
}

}  // namespace dambit::learn
