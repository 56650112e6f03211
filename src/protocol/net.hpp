// Small POSIX TCP helpers for the protocols: addresses, listening, connecting, and a reader of
// NUL-terminated messages with a timeout and a length limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace dambit::net {

struct Endpoint {
    std::string host;  // a name, an IPv4 or an IPv6 address (without brackets)
    int port = 0;
    std::string text() const;  // "HOST:PORT", an IPv6 host in brackets
};

// "HOST:PORT" (host_optional: also "PORT" alone, host `default_host`). The port is 1..65535 in
// decimal, the host a name or IPv4 address without spaces, or an IPv6 address in brackets
// ("[::1]:27531"). Throws std::invalid_argument with a one-line message naming the text.
Endpoint parse_endpoint(std::string_view text, bool host_optional,
                        const std::string& default_host = "127.0.0.1");

// An owned file descriptor.
class Socket {
public:
    Socket() = default;
    explicit Socket(int fd) : fd_(fd) {}
    ~Socket();
    Socket(Socket&& o) noexcept : fd_(o.release()) {}
    Socket& operator=(Socket&& o) noexcept;
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    int fd() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    int release() {
        const int f = fd_;
        fd_ = -1;
        return f;
    }
    void close();

private:
    int fd_ = -1;
};

// A listening socket (SO_REUSEADDR). Throws std::runtime_error naming the address.
class Listener {
public:
    explicit Listener(const Endpoint& at);
    // The next connection, or an invalid socket after timeout_ms (negative: wait forever).
    Socket accept(int timeout_ms, std::string* peer = nullptr);
    int port() const { return port_; }  // the bound port (useful with port 0)

private:
    Socket socket_;
    int port_ = 0;
};

// Connects, retrying refused connections for up to retry_ms. Throws std::runtime_error.
Socket connect(const Endpoint& to, int retry_ms);

// One connection carrying NUL-terminated messages.
class Connection {
public:
    explicit Connection(Socket s, std::size_t max_message = 1024) : socket_(std::move(s)), max_(max_message) {}

    enum class Status {
        kMessage,  // `text` holds the message, without its NUL
        kTimeout,  // nothing complete within the time
        kClosed,   // the peer closed the connection (`text`: any partial message it left)
        kTooLong,  // a message longer than the limit: the stream is out of step
        kError,    // a socket error (`text` says which)
    };
    struct Read {
        Status status = Status::kTimeout;
        std::string text;
    };
    // The next message, waiting up to timeout_ms (negative: forever).
    Read read(int timeout_ms);
    // Whether a complete message is already buffered.
    bool has_message() const;
    // Sends the message and a NUL; false when the peer is gone (no SIGPIPE).
    bool write(std::string_view message);
    // Whether the peer has hung up (checked without reading; buffered input is kept).
    bool peer_closed() const;
    void close() { socket_.close(); }
    bool open() const { return socket_.valid(); }

private:
    Socket socket_;
    std::size_t max_;
    std::string buffer_;
    bool eof_ = false;
};

}  // namespace dambit::net
