// Little-endian records in files: packing values into bytes, fixed-width text fields, whole-file
// reads, durable appends and whole-file replacement, shared by the file formats that checksum
// their blocks (selfplay data, opening books) and the files written whole (weights, checkpoints,
// pictures).
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <xxhash.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dambit::file_io {

template <class T>
void put(std::string& out, T v) {
    char b[sizeof v];
    std::memcpy(b, &v, sizeof v);
    out.append(b, sizeof v);
}

template <class T>
T get(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// `s` cut or padded with zero bytes to `n` bytes, and back.
inline std::string padded(const std::string& s, std::size_t n) {
    std::string out = s.substr(0, n);
    out.resize(n, '\0');
    return out;
}
inline std::string unpadded(const char* p, std::size_t n) {
    const std::string s(p, n);
    return s.substr(0, std::min(s.find('\0'), s.size()));
}

// The 128-byte header of these formats: an 8-byte magic, the format version and the record size
// (u32 each), the variant's name (16 bytes), a u64 (the selfplay seed; 0 in books) and the
// settings text (kSettingsBytes).
inline constexpr std::size_t kSettingsBytes = 88;
struct Header {
    std::string variant;
    std::uint64_t number = 0;
    std::string settings;
    std::uint32_t version = 0;  // as read (header_bytes takes its own)
};
inline constexpr std::size_t kHeaderBytes = 128;

// Throws std::runtime_error("the settings 'S' do not fit the file's header (88 bytes)") for
// settings that would be cut (two runs would then pass for one).
inline std::string header_bytes(const char (&magic)[8], std::uint32_t version,
                                 std::uint32_t record_size, const Header& h) {
    if (h.settings.size() > kSettingsBytes)
        throw std::runtime_error("the settings '" + h.settings + "' do not fit the file's header (" +
                                 std::to_string(kSettingsBytes) + " bytes)");
    std::string out(magic, sizeof magic);
    put(out, version);
    put(out, record_size);
    out += padded(h.variant, 16);
    put(out, h.number);
    out += padded(h.settings, kSettingsBytes);
    return out;
}

// Parses the header of `bytes`, of a version from `oldest` (0: `version` alone) to `version`;
// throws std::runtime_error("PATH: not a dambit KIND file"), ("PATH: KIND file version V (this
// dambit reads W)", or "reads O to W") or ("PATH: KIND file of N-byte records (...)").
inline Header parse_header(const std::string& bytes, const std::string& path,
                           const char (&magic)[8], std::uint32_t version,
                           std::uint32_t record_size, const char* kind,
                           std::uint32_t oldest = 0) {
    if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), magic, sizeof magic) != 0)
        throw std::runtime_error(path + ": not a dambit " + kind + " file");
    if (oldest == 0) oldest = version;
    const auto v = get<std::uint32_t>(bytes.data() + 8);
    if (v < oldest || v > version)
        throw std::runtime_error(
            path + ": " + kind + " file version " + std::to_string(v) + " (this dambit reads " +
            (oldest < version ? std::to_string(oldest) + " to " : std::string()) +
            std::to_string(version) + ")");
    if (const auto size = get<std::uint32_t>(bytes.data() + 12); size != record_size)
        throw std::runtime_error(path + ": " + kind + " file of " + std::to_string(size) +
                                 "-byte records (this dambit reads " +
                                 std::to_string(record_size) + ")");
    return {unpadded(bytes.data() + 16, 16), get<std::uint64_t>(bytes.data() + 32),
            unpadded(bytes.data() + 40, kSettingsBytes), v};
}

// Throws std::runtime_error("cannot read 'PATH': REASON") unless PATH names something that can be
// opened and read as a file: a missing path, a directory (which opens, and then fails at its
// first read) or one without read permission is refused here, by name, before anything is read.
// With a `kind`, the message is "cannot read KIND 'PATH': REASON".
inline void check_readable(const std::string& path, std::string_view kind = {}) {
    struct stat st {};
    int error = 0;
    if (::stat(path.c_str(), &st) != 0)
        error = errno;
    else if (S_ISDIR(st.st_mode))
        error = EISDIR;
    else if (::access(path.c_str(), R_OK) != 0)
        error = errno;
    if (error)
        throw std::runtime_error("cannot read " + (kind.empty() ? "" : std::string(kind) + " ") +
                                 "'" + path + "': " + std::strerror(error));
}

// check_readable, and PATH must be a regular file: a FIFO would block the open (and a read
// waits for a writer that may never come), a device such as /dev/zero never ends. Throws
// std::runtime_error("cannot read [KIND ]'PATH': not a regular file").
inline void check_regular(const std::string& path, std::string_view kind = {}) {
    check_readable(path, kind);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw std::runtime_error("cannot read " + (kind.empty() ? "" : std::string(kind) + " ") +
                                 "'" + path + "': not a regular file");
}

// The XXH64 of a regular file's bytes, read a megabyte at a time; throws as read_all.
inline std::uint64_t file_xxh64(const std::string& path, std::string_view kind = {}) {
    check_regular(path, kind);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
    XXH64_state_t* state = XXH64_createState();
    XXH64_reset(state, 0);
    std::vector<char> buf(1 << 20);
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) XXH64_update(state, buf.data(), n);
    const bool failed = std::ferror(f);
    std::fclose(f);
    const std::uint64_t digest = XXH64_digest(state);
    XXH64_freeState(state);
    if (failed) throw std::runtime_error("cannot read '" + path + "'");
    return digest;
}

// The whole of a regular file; throws std::runtime_error("cannot read [KIND ]'PATH': REASON").
inline std::string read_all(const std::string& path, std::string_view kind = {}) {
    check_regular(path, kind);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
    std::string out;
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    const bool failed = std::ferror(f);
    std::fclose(f);
    if (failed) throw std::runtime_error("cannot read '" + path + "'");
    return out;
}

// Writes `bytes` and hands them to the system (they survive the process being killed), and with
// `sync` flushes them to disk (they survive a power cut too); throws
// std::runtime_error("cannot write 'PATH': REASON").
inline void write_or_throw(std::FILE* f, const std::string& bytes, const std::string& path,
                           bool sync = true) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fflush(f) != 0 ||
        (sync && fdatasync(fileno(f)) != 0))
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

// A new journal PATH (a FILE.part appended to block by block): created with its header `head`,
// flushed to disk, and open for appending; throws std::runtime_error("cannot write 'PATH':
// REASON"). A header that cannot be written whole (a full disk) is removed with its file, which
// would otherwise stop the next run that tries to resume it.
inline std::FILE* create_journal(const std::string& path, const std::string& head) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    try {
        write_or_throw(f, head, path);
    } catch (...) {
        std::fclose(f);
        std::remove(path.c_str());
        throw;
    }
    return f;
}

// The file a write to `path` goes to: `path` itself, or, where it is a symbolic link, the file it
// points to (so that replacing the file keeps the link), whether that file exists yet or not (a
// dangling link's target is created). The links are followed one by one, at most 40 (the
// system's own limit); a loop longer than that writes over the link itself.
inline std::string output_path(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_symlink(path, ec)) return path;
    fs::path p = path;
    for (int links = 0; links < 40 && fs::is_symlink(p, ec); ++links) {
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) return path;
        // A relative target is read from the link's folder as the system reads it: that folder
        // resolved first (through its own links), then the target's `..` taken from there.
        if (target.is_absolute()) {
            p = target;
        } else {
            const fs::path parent = p.parent_path().empty() ? fs::path(".") : p.parent_path();
            const fs::path folder = fs::weakly_canonical(parent, ec);
            if (ec) return path;
            p = folder / target;
        }
    }
    if (fs::is_symlink(p, ec)) return path;
    const fs::path resolved = fs::weakly_canonical(p, ec);
    return ec ? path : resolved.string();
}

// Writes `bytes` to PATH.tmp, flushes them to disk and renames PATH.tmp to PATH (PATH being
// output_path(link)), so that PATH is always either the old file or the whole new one. On a
// failure PATH.tmp is removed and std::runtime_error("cannot write 'PATH.tmp': REASON") (or
// "cannot rename 'PATH.tmp' to 'PATH': REASON") is thrown.
inline void replace_file(const std::string& link, std::string_view bytes) {
    const std::string path = output_path(link);
    const std::string tmp = path + ".tmp";
    const auto fail = [&](const std::string& what) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error(what + ": " + reason);
    };
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) fail("cannot write '" + tmp + "'");
    if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fflush(f) != 0 ||
        fdatasync(fileno(f)) != 0) {
        const int error = errno;
        std::fclose(f);
        errno = error;
        fail("cannot write '" + tmp + "'");
    }
    if (std::fclose(f) != 0) fail("cannot write '" + tmp + "'");
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        fail("cannot rename '" + tmp + "' to '" + path + "'");
}

// Throws std::runtime_error unless replace_file(path, ...) can be expected to succeed: "empty file
// name", "'PATH' is a directory", "'PATH' is not a regular file" (a device, a FIFO: a rename would
// put a file in its place), or replace_file's own "cannot write 'PATH.tmp': REASON" (PATH.tmp is
// created and removed again; an existing PATH.tmp, which may be another run's output in the
// making, is only checked for writing, never emptied or removed). For a job that writes its
// result at the end, to fail before the work. Returns output_path(path). A job that writes a
// journal PATH.part instead gives `suffix` ".part".
inline std::string check_replaceable(const std::string& link, std::string_view suffix = ".tmp") {
    if (link.empty()) throw std::runtime_error("empty file name");
    struct stat st {};
    if (::stat(link.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw std::runtime_error("'" + link + "' is " +
                                 (S_ISDIR(st.st_mode) ? "a directory" : "not a regular file"));
    const std::string path = output_path(link);
    const std::string tmp = path + std::string(suffix);
    if (::stat(tmp.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            throw std::runtime_error("cannot write '" + tmp + "': " +
                                     (S_ISDIR(st.st_mode) ? "Is a directory" : "not a regular file"));
        if (::access(tmp.c_str(), W_OK) != 0)
            throw std::runtime_error("cannot write '" + tmp + "': " + std::strerror(errno));
        return path;
    }
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write '" + tmp + "': " + std::strerror(errno));
    std::fclose(f);
    std::remove(tmp.c_str());
    return path;
}

// An advisory lock (flock) held by a long job on what it writes: a journal FILE.part that it
// appends to (created empty if missing), or the directory of its files. A second run given the
// same output would otherwise resume the journal under the first, both appending to it, or both
// write the same files: it fails instead, at once, with std::runtime_error("'PATH' is being
// written by another run; ..."). The lock goes with the object (and with the process, however it
// ends).
class ExclusiveLock {
public:
    explicit ExclusiveLock(const std::string& path) {
        std::error_code ec;
        const bool dir = std::filesystem::is_directory(path, ec);
        fd_ = dir ? ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                  : ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0)
            throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            ::close(fd_);
            fd_ = -1;
            // A file system without locks (some network ones) runs the job unguarded.
            if (error != EWOULDBLOCK) return;
            throw std::runtime_error("'" + path +
                                     "' is being written by another run; wait for it to end or "
                                     "stop it, then run this again to go on");
        }
    }
    ~ExclusiveLock() {
        if (fd_ >= 0) ::close(fd_);
    }
    ExclusiveLock(const ExclusiveLock&) = delete;
    ExclusiveLock& operator=(const ExclusiveLock&) = delete;

    // Whether the lock is held on the file now at `path` (not on one removed or replaced since it
    // was opened); true where the file system has no locks.
    bool holds(const std::string& path) const {
        struct stat mine {}, now {};
        return fd_ < 0 || (::fstat(fd_, &mine) == 0 && ::stat(path.c_str(), &now) == 0 &&
                           mine.st_dev == now.st_dev && mine.st_ino == now.st_ino);
    }

private:
    int fd_ = -1;
};

// The lock of a file that its job replaces whole, again and again (FILE.tmp renamed over FILE, as
// perft's checkpoint is), so that no file of the job keeps one inode to lock: the lock file PATH
// (FILE.lock), created, locked as ExclusiveLock locks (another run holding it: the same
// std::runtime_error, naming PATH), and removed when the object goes. A run killed leaves PATH
// behind, unlocked: the next run takes it. A run that locked PATH just as the run before removed
// it opens the new one instead.
class LockFile {
public:
    explicit LockFile(std::string path) : path_(std::move(path)) {
        for (int attempt = 0;; ++attempt) {
            lock_ = std::make_unique<ExclusiveLock>(path_);
            if (lock_->holds(path_) || attempt == 100) return;
        }
    }
    ~LockFile() {
        if (lock_->holds(path_)) ::unlink(path_.c_str());  // before the lock goes
    }
    LockFile(const LockFile&) = delete;
    LockFile& operator=(const LockFile&) = delete;

private:
    std::string path_;
    std::unique_ptr<ExclusiveLock> lock_;
};

}  // namespace dambit::file_io
