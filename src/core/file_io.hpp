// Little-endian records in files: packing values into bytes, fixed-width text fields, whole-file
// reads and durable appends, shared by the file formats that checksum their blocks (selfplay data,
// opening books).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

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

// The whole file; throws std::runtime_error("cannot read 'PATH'").
inline std::string read_all(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot read '" + path + "'");
    std::string out;
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
    return out;
}

// Writes `bytes` and hands them to the system (they survive the process being killed), and with
// `sync` flushes them to disk (they survive a power cut too); throws
// std::runtime_error("cannot write 'PATH'").
inline void write_or_throw(std::FILE* f, const std::string& bytes, const std::string& path,
                           bool sync = true) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fflush(f) != 0 ||
        (sync && fdatasync(fileno(f)) != 0))
        throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace dambit::file_io
