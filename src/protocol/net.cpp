// POSIX TCP helpers (net.hpp).
#include "protocol/net.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace dambit::net {
namespace {

using Clock = std::chrono::steady_clock;

std::string errno_text(int e) { return std::strerror(e); }

int remaining_ms(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left < 0 ? 0 : int(left);
}

// The IPv4 address of a host name or dotted quad.
sockaddr_in resolve(const Endpoint& e) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(e.port));
    if (inet_pton(AF_INET, e.host.c_str(), &a.sin_addr) == 1) return a;
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = getaddrinfo(e.host.c_str(), nullptr, &hints, &found);
    if (rc != 0 || !found)
        throw std::runtime_error("cannot resolve host '" + e.host + "': " + gai_strerror(rc));
    a.sin_addr = reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr;
    freeaddrinfo(found);
    return a;
}

// A connected socket: no Nagle delay (messages are small and answered at once), and a send that
// blocks for more than ten seconds (a peer that stopped reading) fails instead of hanging.
void tune(int fd) {
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    timeval tv{};
    tv.tv_sec = 10;
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

}  // namespace

Endpoint parse_endpoint(std::string_view text, bool host_optional, const std::string& default_host) {
    const std::string t(text);
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos && !host_optional)
        throw std::invalid_argument("bad address '" + t + "' (want HOST:PORT)");
    Endpoint e;
    std::string_view port = text;
    if (colon != std::string_view::npos) {
        e.host = std::string(text.substr(0, colon));
        port = text.substr(colon + 1);
        if (e.host.empty()) throw std::invalid_argument("no host in address '" + t + "' (want HOST:PORT)");
        for (char c : e.host)
            if (c <= ' ' || c > '~' || c == ':' || c == '/')
                throw std::invalid_argument("bad host in address '" + t + "'");
    } else {
        e.host = default_host;
    }
    bool digits = !port.empty() && port.size() <= 5;
    for (char c : port) digits = digits && c >= '0' && c <= '9';
    const int n = digits ? std::stoi(std::string(port)) : 0;
    if (!digits || n < 1 || n > 65535)
        throw std::invalid_argument("bad port '" + std::string(port) + "' in address '" + t +
                                    "' (want 1..65535)");
    e.port = n;
    return e;
}

Socket::~Socket() { close(); }

Socket& Socket::operator=(Socket&& o) noexcept {
    if (this != &o) {
        close();
        fd_ = o.release();
    }
    return *this;
}

void Socket::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

Listener::Listener(const Endpoint& at) {
    const std::string where = at.host + ":" + std::to_string(at.port);
    const sockaddr_in a = resolve(at);
    socket_ = Socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!socket_.valid()) throw std::runtime_error("socket: " + errno_text(errno));
    const int one = 1;
    setsockopt(socket_.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(socket_.fd(), reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
        throw std::runtime_error("cannot listen on " + where + ": " + errno_text(errno));
    if (::listen(socket_.fd(), 4) != 0)
        throw std::runtime_error("cannot listen on " + where + ": " + errno_text(errno));
    sockaddr_in bound{};
    socklen_t len = sizeof bound;
    getsockname(socket_.fd(), reinterpret_cast<sockaddr*>(&bound), &len);
    port_ = ntohs(bound.sin_port);
}

Socket Listener::accept(int timeout_ms, std::string* peer) {
    pollfd p{socket_.fd(), POLLIN, 0};
    const int rc = ::poll(&p, 1, timeout_ms);
    if (rc <= 0) return Socket();
    sockaddr_in from{};
    socklen_t len = sizeof from;
    Socket s(::accept4(socket_.fd(), reinterpret_cast<sockaddr*>(&from), &len, SOCK_CLOEXEC));
    if (s.valid()) {
        tune(s.fd());
        if (peer) {
            char buf[INET_ADDRSTRLEN] = {};
            inet_ntop(AF_INET, &from.sin_addr, buf, sizeof buf);
            *peer = std::string(buf) + ":" + std::to_string(ntohs(from.sin_port));
        }
    }
    return s;
}

Socket connect(const Endpoint& to, int retry_ms) {
    const std::string where = to.host + ":" + std::to_string(to.port);
    const sockaddr_in a = resolve(to);
    const auto deadline = Clock::now() + std::chrono::milliseconds(retry_ms);
    for (;;) {
        Socket s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (!s.valid()) throw std::runtime_error("socket: " + errno_text(errno));
        if (::connect(s.fd(), reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0) {
            tune(s.fd());
            return s;
        }
        const int e = errno;
        if ((e != ECONNREFUSED && e != EINTR && e != ETIMEDOUT) || Clock::now() >= deadline)
            throw std::runtime_error("cannot connect to " + where + ": " + errno_text(e));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

bool Connection::has_message() const { return buffer_.find('\0') != std::string::npos; }

Connection::Read Connection::read(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
    for (;;) {
        if (const auto nul = buffer_.find('\0'); nul != std::string::npos) {
            if (nul > max_) return {Status::kTooLong, buffer_.substr(0, 64)};
            Read r{Status::kMessage, buffer_.substr(0, nul)};
            buffer_.erase(0, nul + 1);
            return r;
        }
        if (buffer_.size() > max_) return {Status::kTooLong, buffer_.substr(0, 64)};
        if (eof_ || !socket_.valid()) return {Status::kClosed, buffer_};
        pollfd p{socket_.fd(), POLLIN, 0};
        const int rc = ::poll(&p, 1, timeout_ms < 0 ? -1 : remaining_ms(deadline));
        if (rc < 0) {
            if (errno == EINTR) continue;
            return {Status::kError, "poll: " + errno_text(errno)};
        }
        if (rc == 0) return {Status::kTimeout, {}};
        char chunk[512];
        const ssize_t n = ::recv(socket_.fd(), chunk, sizeof chunk, 0);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            if (errno == ECONNRESET) {
                eof_ = true;
                continue;
            }
            return {Status::kError, "recv: " + errno_text(errno)};
        }
        if (n == 0) {
            eof_ = true;
            continue;
        }
        buffer_.append(chunk, std::size_t(n));
    }
}

bool Connection::write(std::string_view message) {
    if (!socket_.valid()) return false;
    std::string data(message);
    data += '\0';
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(socket_.fd(), data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        sent += std::size_t(n);
    }
    return true;
}

bool Connection::peer_closed() const {
    if (eof_) return true;
    if (!socket_.valid()) return true;
    pollfd p{socket_.fd(), POLLRDHUP, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

}  // namespace dambit::net
