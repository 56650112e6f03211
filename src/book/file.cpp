#include "book/file.hpp"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <xxhash.h>

#include "core/file_io.hpp"
#include "core/text.hpp"
#include "search/score.hpp"

namespace dambit::book {

namespace {

using file_io::get;
using file_io::put;

constexpr char kMagic[8] = {'D', 'A', 'M', 'B', 'I', 'T', 'B', 'K'};
using file_io::kHeaderBytes;
constexpr std::uint32_t kBlockTag = 0x4b4f4f42;  // "BOOK"
constexpr std::uint32_t kDoneTag = 0x454e4f44;   // "DONE"

std::string header_bytes(const BookHeader& h) {
    return file_io::header_bytes(kMagic, kBookVersion, sizeof(Record), {h.variant, 0, h.settings});
}

BookHeader parse_header(const std::string& bytes, const std::string& path) {
    const auto h = file_io::parse_header(bytes, path, kMagic, kBookVersion, sizeof(Record), "book");
    return {h.variant, h.settings};
}

void append_records(std::string& out, const std::vector<Record>& records) {
    out.append(reinterpret_cast<const char*>(records.data()), records.size() * sizeof(Record));
}

std::vector<Record> records_at(const char* p, std::size_t n) {
    std::vector<Record> out(n);
    // An empty vector's data() may be null, which memcpy must not get.
    if (n) std::memcpy(static_cast<void*>(out.data()), p, n * sizeof(Record));
    return out;
}

// What is wrong with a record no build writes (a file edited, its checksum computed again), or
// empty: a value beyond a proven win, a side to move other than 0 or 1, a square of both sides,
// a king on an empty square, more points than its games give.
std::string record_problem(const Record& r) {
    if (r.value > search::kWin || r.value < -search::kWin)
        return fmt::format("value {} beyond a win ({})", r.value, search::kWin);
    if (r.side > 1) return fmt::format("side to move {}", r.side);
    if (r.white & r.black) return "a square held by both sides";
    if (r.kings & ~(r.white | r.black)) return "a king on an empty square";
    if (r.points2 > 2 * std::uint64_t(r.games))
        return fmt::format("{} half-points in {} games", r.points2, r.games);
    return {};
}

}  // namespace

BookFile read_book(const std::string& path) {
    const std::string bytes = file_io::read_all(path);
    BookFile b;
    b.header = parse_header(bytes, path);
    b.bytes = bytes.size();
    const std::size_t body = bytes.size() - kHeaderBytes;
    // Not a whole book: a build's journal (FILE.part: the same header, then blocks or nothing
    // yet) is named as such. A book cut to its header (no blocks, not a .part) is a truncated
    // book: the build command would only refuse it again.
    const bool part = path.size() >= 5 && path.compare(path.size() - 5, 5, ".part") == 0;
    const auto fail = [&](const char* what) {
        if ((body == 0 && part) ||
            (body >= 4 && get<std::uint32_t>(bytes.data() + kHeaderBytes) == kBlockTag))
            return std::runtime_error(fmt::format(
                "{}: the journal of an unfinished build, not a book (the same book build command "
                "finishes it)",
                path));
        return std::runtime_error(fmt::format("{}: {}", path, what));
    };
    if (body < 24 || (body - 24) % sizeof(Record) != 0) throw fail("truncated or corrupt book file");
    const char* end = bytes.data() + bytes.size() - 24;
    const auto n = get<std::uint64_t>(end + 8);
    if (get<std::uint32_t>(end) != kDoneTag || n != (body - 24) / sizeof(Record) ||
        get<std::uint64_t>(end + 16) != XXH64(bytes.data(), bytes.size() - 8, 0))
        throw fail("corrupt book file (checksum)");
    b.records = records_at(bytes.data() + kHeaderBytes, std::size_t(n));
    for (std::size_t i = 0; i < b.records.size(); ++i)
        if (const auto problem = record_problem(b.records[i]); !problem.empty())
            throw std::runtime_error(
                fmt::format("{}: corrupt book file (position {}: {})", path, i + 1, problem));
    return b;
}

void write_book(const std::string& path, const BookHeader& header, std::vector<Record> records) {
    std::sort(records.begin(), records.end());
    std::string bytes = header_bytes(header);
    append_records(bytes, records);
    put(bytes, kDoneTag);
    put(bytes, std::uint32_t(0));
    put(bytes, std::uint64_t(records.size()));
    put(bytes, std::uint64_t(XXH64(bytes.data(), bytes.size(), 0)));
    file_io::replace_file(path, bytes);
}

std::string other_settings(const std::string& path, const BookHeader& old, const BookHeader& now,
                           const char* advice) {
    if (old.before_checksums())
        return fmt::format("'{}' was written by a dambit before 2026-12-07 (its header names the "
                           "--eval choice, {}, not the weights' checksum, and no table size): "
                           "this one cannot extend it; {}",
                           path, old.settings, advice);
    return fmt::format("'{}' was built with other settings ({}); {}", path,
                       settings_change(old.described(), now.described()), advice);
}

Journal::Journal(const std::string& path, const BookHeader& header, std::vector<Record>& records)
    : part_(path + ".part") {
    const std::string head = header_bytes(header);
    records.clear();
    std::error_code ec;
    // Locked before it is read: the file (created empty if missing) is this run's alone.
    lock_ = std::make_unique<file_io::ExclusiveLock>(part_);
    if (std::filesystem::file_size(part_, ec) > 0 && !ec) {
        const std::string bytes = file_io::read_all(part_);
        const BookHeader old = parse_header(bytes, part_);
        if (bytes.compare(0, kHeaderBytes, head) != 0)
            throw std::runtime_error(
                old.before_checksums()
                    ? other_settings(part_, old, header, "remove it to start again")
                    : part_header_mismatch(part_, old.described(), header.described()));
        // Whether a whole block that passes its check starts at byte q.
        auto whole_block_at = [&](std::size_t q) {
            if (bytes.size() - q < 16 || get<std::uint32_t>(bytes.data() + q) != kBlockTag)
                return false;
            const std::size_t size =
                8 + std::size_t(get<std::uint32_t>(bytes.data() + q + 4)) * sizeof(Record);
            return bytes.size() - q >= size + 8 &&
                   get<std::uint64_t>(bytes.data() + q + size) ==
                       XXH64(bytes.data() + q, size, 0);
        };
        std::size_t at = kHeaderBytes;
        for (int number = 1; bytes.size() - at >= 8; ++number) {
            const char* p = bytes.data() + at;
            const auto n = get<std::uint32_t>(p + 4);
            const std::size_t size = 8 + std::size_t(n) * sizeof(Record);
            // A block cut short at the end is a write a kill interrupted; a whole block that
            // fails its check is damage, said so. So is a block whose count runs past the end
            // with a whole block after it (the end of some count of records): a kill cuts the
            // last write only.
            const bool tagged = get<std::uint32_t>(p) == kBlockTag;
            if (tagged && bytes.size() - at < size + 8) {
                bool later = false;
                for (std::size_t q = at + 16; !later && q + 16 <= bytes.size(); q += sizeof(Record))
                    later = whole_block_at(q);
                if (later)
                    damage_ = fmt::format(
                        "block {} at byte {} has a damaged count of positions; its positions and "
                        "all after it, {} bytes, are dropped",
                        number, at, bytes.size() - at);
                break;
            }
            // A block whose tag holds has its length from its count; without the tag, the
            // length is unknown and everything from it is dropped.
            if (!tagged)
                damage_ = fmt::format(
                    "block {} at byte {} fails its tag; its positions and all after it, {} bytes, "
                    "are dropped",
                    number, at, bytes.size() - at);
            else if (get<std::uint64_t>(p + size) != XXH64(p, size, 0))
                damage_ = fmt::format(
                    "block {} at byte {} fails its checksum; its positions ({} bytes by its count) and the {} "
                    "bytes after it are dropped",
                    number, at, size + 8, bytes.size() - at - size - 8);
            if (!damage_.empty()) break;
            const auto block = records_at(p + 8, n);
            records.insert(records.end(), block.begin(), block.end());
            at += size + 8;
        }
        std::filesystem::resize_file(part_, at);
        resumed_ = true;
        f_ = std::fopen(part_.c_str(), "ab");
    } else {
        f_ = file_io::create_journal(part_, head);
    }
    if (!f_)
        throw std::runtime_error(fmt::format("cannot write '{}': {}", part_, std::strerror(errno)));
}

Journal::~Journal() {
    if (f_) std::fclose(f_);
}

void Journal::append(const std::vector<Record>& records) {
    std::string block;
    put(block, kBlockTag);
    put(block, std::uint32_t(records.size()));
    append_records(block, records);
    put(block, std::uint64_t(XXH64(block.data(), block.size(), 0)));
    // To disk at most once a second: a block handed to the system survives a kill, and a power
    // cut loses at most the last second of a build (a step of a small build takes far less than
    // a sync).
    const auto now = std::chrono::steady_clock::now();
    const bool sync = now - synced_ >= std::chrono::seconds(1);
    file_io::write_or_throw(f_, block, part_, sync);
    if (sync) synced_ = now;
}

void Journal::remove() {
    if (f_) std::fclose(f_);
    f_ = nullptr;
    std::error_code ec;
    std::filesystem::remove(part_, ec);
}

}  // namespace dambit::book
