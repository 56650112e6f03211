// ChildProcess (process.hpp): fork and exec of /bin/sh -c, pipes, poll.
#include "protocol/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/signals.hpp"

namespace dambit::proc {
namespace {

// The process groups of the live children, for the signal handler: a fixed table of atomics
// (a handler may touch nothing else). 0 = free slot.
constexpr int kSlots = 64;
std::atomic<pid_t> g_groups[kSlots];

void kill_children() {
    for (auto& g : g_groups) {
        const pid_t pg = g.load();
        if (pg > 0) ::kill(-pg, SIGKILL);
    }
}

// Whatever signal ends dambit, the engines go with it: by die_of_signal where the signal had its
// default action, and through the stop handlers' second signal (core/signals.hpp), which calls
// the same g_before_signal_death.
void install_handlers_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        ::signal(SIGPIPE, SIG_IGN);
        g_before_signal_death.store(kill_children);
        for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
            struct sigaction old {};
            ::sigaction(sig, nullptr, &old);
            if (old.sa_handler != SIG_DFL) continue;  // someone else handles it (or ignores it)
            struct sigaction sa {};
            sa.sa_handler = die_of_signal;
            sigemptyset(&sa.sa_mask);
            ::sigaction(sig, &sa, nullptr);
        }
    });
}

void remember(pid_t pg) {
    for (auto& g : g_groups) {
        pid_t expected = 0;
        if (g.compare_exchange_strong(expected, pg)) return;
    }
}

void forget(pid_t pg) {
    for (auto& g : g_groups) {
        pid_t expected = pg;
        if (g.compare_exchange_strong(expected, 0)) return;
    }
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

ChildProcess::ChildProcess(const std::string& command, std::size_t max_line)
    : max_line_(max_line) {
    install_handlers_once();
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0)
        throw ProcessError(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
    if (::pipe2(from_child, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(to_child[0]), ::close(to_child[1]);
        throw ProcessError(fmt::format("cannot make a pipe: {}", std::strerror(e)));
    }
    const char* shell = "/bin/sh";
    // A plain command line ("./engine --flag", no shell syntax, no variable set before it) runs
    // as `exec COMMAND`: the engine replaces the shell, so that its end closes the pipes and a
    // signal reaches it, not a shell waiting for it.
    const std::string first = command.substr(0, command.find(' '));
    const bool plain = command.find_first_of(";&|<>()$`\\\n*?[]{}~#") == std::string::npos &&
                       first.find('=') == std::string::npos && first != "exec" &&
                       first.find_first_not_of(" \t") != std::string::npos;
    const std::string line = plain ? "exec " + command : command;
    const char* text = line.c_str();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) ::close(fd);
        throw ProcessError(fmt::format("cannot start '{}': {}", command, std::strerror(e)));
    }
    if (pid == 0) {
        // The child: only async-signal-safe calls until exec.
        ::setpgid(0, 0);
        ::dup2(to_child[0], 0);
        ::dup2(from_child[1], 1);
        // SIGPIPE, SIGXFSZ and the limit of open files are dambit's own choices: the engine gets
        // them as dambit found them (restore_start_state). SIGINT, SIGTERM and SIGHUP are caught
        // here or were ignored when dambit started (nohup): exec makes the caught ones default,
        // and the ignored ones stay ignored for the engine too.
        restore_start_state();
        ::execl(shell, "sh", "-c", text, static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::setpgid(pid, pid);  // also here, so that the group exists whichever runs first
    remember(pid);
    pid_ = pid;
    ::close(to_child[0]);
    ::close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
    ::fcntl(in_, F_SETFL, ::fcntl(in_, F_GETFL) | O_NONBLOCK);
}

ChildProcess::~ChildProcess() { kill(); }

void ChildProcess::write_line(const std::string& line, int timeout_ms) {
    if (in_ < 0) throw ProcessError("the engine's input is closed");
    const std::string data = line + '\n';
    std::size_t done = 0;
    const std::int64_t deadline = now_ms() + timeout_ms;
    while (done < data.size()) {
        const ssize_t n = ::write(in_, data.data() + done, data.size() - done);
        if (n > 0) {
            done += std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) {
            const std::int64_t left = deadline - now_ms();
            if (left <= 0) throw ProcessError("the engine does not read its input");
            pollfd p{in_, POLLOUT, 0};
            ::poll(&p, 1, int(left));
            continue;
        }
        throw ProcessError(n < 0 && errno == EPIPE ? std::string("the engine closed its input")
                                                   : fmt::format("cannot write to the engine: {}",
                                                                 std::strerror(errno)));
    }
}

ChildProcess::Read ChildProcess::read_line(std::string& line, int timeout_ms) {
    const std::int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            line.assign(buffer_, 0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.size() > max_line_)
                throw ProcessError(fmt::format("a line of {} characters (over {})", line.size(), max_line_));
            return Read::kLine;
        }
        if (buffer_.size() > max_line_)
            throw ProcessError(fmt::format("a line longer than {} characters", max_line_));
        if (out_ < 0) return Read::kEnd;
        int wait = -1;
        if (deadline >= 0) {
            const std::int64_t left = deadline - now_ms();
            if (left <= 0) return Read::kTimeout;
            wait = int(std::min<std::int64_t>(left, 1 << 30));
        }
        pollfd p{out_, POLLIN, 0};
        const int r = ::poll(&p, 1, wait);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) return Read::kTimeout;
        char chunk[4096];
        const ssize_t n = ::read(out_, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) {
            ::close(out_);
            out_ = -1;
            if (!buffer_.empty()) {  // a last line without its newline
                line.swap(buffer_);
                buffer_.clear();
                return Read::kLine;
            }
            return Read::kEnd;
        }
        buffer_.append(chunk, std::size_t(n));
    }
}

bool ChildProcess::reap(int wait_ms) {
    if (reaped_ || pid_ < 0) return true;
    const std::int64_t deadline = now_ms() + wait_ms;
    for (;;) {
        const pid_t r = ::waitpid(pid_, &status_, WNOHANG);
        if (r == pid_ || (r < 0 && errno == ECHILD)) {
            reaped_ = true;
            return true;
        }
        if (now_ms() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string ChildProcess::exit_text(int wait_ms) {
    if (!reap(wait_ms)) return "still running";
    if (WIFEXITED(status_)) return fmt::format("exited with status {}", WEXITSTATUS(status_));
    if (WIFSIGNALED(status_)) return fmt::format("killed by signal {}", WTERMSIG(status_));
    return "ended";
}

void ChildProcess::finish(int wait_ms) {
    if (in_ >= 0) {
        ::close(in_);
        in_ = -1;
    }
    reap(wait_ms);
    kill();
}

void ChildProcess::kill() {
    if (pid_ < 0) return;
    ::kill(-pid_, SIGKILL);  // the group: whatever the shell started
    if (!reaped_) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
        }
        reaped_ = true;
    }
    forget(pid_);
    if (in_ >= 0) ::close(in_);
    if (out_ >= 0) ::close(out_);
    in_ = out_ = -1;
    pid_ = -1;
}

}  // namespace dambit::proc
