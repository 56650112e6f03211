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
#include <vector>

namespace dambit::net {
namespace {

using Clock = std::chrono::steady_clock;

std::string errno_text(int e) { return std::strerror(e); }

int remaining_ms(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left < 0 ? 0 : int(left);
}

// One socket address of an endpoint.
struct Address {
    sockaddr_storage storage{};
    socklen_t length = 0;
    int family() const { return storage.ss_family; }
    const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
};

// The addresses of a host name, IPv4 or IPv6 address, in the resolver's order (numeric
// addresses are taken as they are, without a lookup).
std::vector<Address> resolve(const Endpoint& e) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const std::string port = std::to_string(e.port);
    const int rc = getaddrinfo(e.host.c_str(), port.c_str(), &hints, &found);
    if (rc != 0 || !found)
        throw std::runtime_error("cannot resolve host '" + e.host + "': " + gai_strerror(rc));
    std::vector<Address> out;
    for (const addrinfo* a = found; a; a = a->ai_next) {
        if ((a->ai_family != AF_INET && a->ai_family != AF_INET6) ||
            a->ai_addrlen > sizeof(sockaddr_storage))
            continue;
        Address x;
        std::memcpy(&x.storage, a->ai_addr, a->ai_addrlen);
        x.length = a->ai_addrlen;
        out.push_back(x);
    }
    freeaddrinfo(found);
    if (out.empty()) throw std::runtime_error("cannot resolve host '" + e.host + "': no IP address");
    return out;
}

// "HOST:PORT" of a socket address, an IPv6 host in brackets.
std::string address_text(const sockaddr_storage& a) {
    char buf[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
        inet_ntop(AF_INET6, &v6.sin6_addr, buf, sizeof buf);
        return "[" + std::string(buf) + "]:" + std::to_string(ntohs(v6.sin6_port));
    }
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
    inet_ntop(AF_INET, &v4.sin_addr, buf, sizeof buf);
    return std::string(buf) + ":" + std::to_string(ntohs(v4.sin_port));
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

std::string Endpoint::text() const {
    const std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return h + ":" + std::to_string(port);
}

Endpoint parse_endpoint(std::string_view text, bool host_optional, const std::string& default_host) {
    const std::string t(text);
    const std::string want = host_optional ? "[HOST:]PORT" : "HOST:PORT";
    Endpoint e;
    std::string_view port = text;
    if (!text.empty() && text.front() == '[') {
        // An IPv6 address in brackets, as in URLs: [::1]:27531.
        const auto close = text.find(']');
        if (close == std::string_view::npos)
            throw std::invalid_argument("no ']' after the IPv6 address in '" + t + "' (want [ADDRESS]:PORT)");
        e.host = std::string(text.substr(1, close - 1));
        in6_addr v6{};
        if (inet_pton(AF_INET6, e.host.c_str(), &v6) != 1)
            throw std::invalid_argument("bad IPv6 address '" + e.host + "' in '" + t + "'");
        if (close + 1 >= text.size() || text[close + 1] != ':')
            throw std::invalid_argument("no port after '" + std::string(text.substr(0, close + 1)) +
                                        "' in '" + t + "' (want [ADDRESS]:PORT)");
        port = text.substr(close + 2);
    } else if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
        e.host = std::string(text.substr(0, colon));
        port = text.substr(colon + 1);
        if (e.host.empty()) throw std::invalid_argument("no host in address '" + t + "' (want " + want + ")");
        if (e.host.find(':') != std::string::npos)
            throw std::invalid_argument("bad address '" + t + "' (write an IPv6 address in brackets: [" +
                                        e.host + "]:" + std::string(port) + ")");
        for (char c : e.host)
            if (c <= ' ' || c > '~' || c == '/' || c == '[' || c == ']')
                throw std::invalid_argument("bad host in address '" + t + "'");
    } else if (!host_optional) {
        throw std::invalid_argument("bad address '" + t + "' (want HOST:PORT)");
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
    const std::string where = at.text();
    // A name with both kinds of address listens on its IPv4 one (as before IPv6 was known:
    // `localhost` is 127.0.0.1, where other engines look for dambit).
    const std::vector<Address> addresses = resolve(at);
    Address a = addresses.front();
    for (const Address& x : addresses)
        if (x.family() == AF_INET) {
            a = x;
            break;
        }
    socket_ = Socket(::socket(a.family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!socket_.valid()) throw std::runtime_error("socket: " + errno_text(errno));
    const int one = 1;
    setsockopt(socket_.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(socket_.fd(), a.get(), a.length) != 0)
        throw std::runtime_error("cannot listen on " + where + ": " + errno_text(errno));
    if (::listen(socket_.fd(), 4) != 0)
        throw std::runtime_error("cannot listen on " + where + ": " + errno_text(errno));
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    getsockname(socket_.fd(), reinterpret_cast<sockaddr*>(&bound), &len);
    port_ = bound.ss_family == AF_INET6
                ? ntohs(reinterpret_cast<const sockaddr_in6&>(bound).sin6_port)
                : ntohs(reinterpret_cast<const sockaddr_in&>(bound).sin_port);
}

Socket Listener::accept(int timeout_ms, std::string* peer) {
    pollfd p{socket_.fd(), POLLIN, 0};
    const int rc = ::poll(&p, 1, timeout_ms);
    if (rc <= 0) return Socket();
    sockaddr_storage from{};
    socklen_t len = sizeof from;
    Socket s(::accept4(socket_.fd(), reinterpret_cast<sockaddr*>(&from), &len, SOCK_CLOEXEC));
    if (s.valid()) {
        tune(s.fd());
        if (peer) *peer = address_text(from);
    }
    return s;
}

Socket connect(const Endpoint& to, int retry_ms) {
    const std::string where = to.text();
    const std::vector<Address> addresses = resolve(to);
    const auto deadline = Clock::now() + std::chrono::milliseconds(retry_ms);
    for (;;) {
        // Every address of the host in turn (a name may have an IPv6 and an IPv4 one). A refusal
        // (no server yet) is retried until the deadline; the error reported is a refusal's, else
        // the first address's.
        int error = 0;
        bool refused = false;
        for (const Address& a : addresses) {
            // A machine without IPv6 cannot make the socket of an IPv6 address: the next one.
            Socket s(::socket(a.family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
            if (s.valid() && ::connect(s.fd(), a.get(), a.length) == 0) {
                tune(s.fd());
                return s;
            }
            const int e = errno;
            const bool retry = e == ECONNREFUSED || e == EINTR || e == ETIMEDOUT;
            if (!error || (retry && !refused)) error = e;
            refused = refused || retry;
        }
        if (!refused || Clock::now() >= deadline)
            throw std::runtime_error("cannot connect to " + where + ": " + errno_text(error));
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
