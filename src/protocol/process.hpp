// A child process driven through its standard input and output: the engines of other programs
// that the match harness plays against (Hub engines).
//
// The child runs `/bin/sh -c COMMAND` in a process group of its own, so that killing the group
// ends whatever the command started. Lines are read with a timeout (poll) and a bounded length;
// writes never raise SIGPIPE (it is ignored in this process once a child is started, and restored
// to the default in the child). On SIGINT or SIGTERM the groups of the live children are killed
// before this process ends.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace dambit::proc {

class ProcessError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class ChildProcess {
public:
    // Starts the command; throws ProcessError when the pipes or the fork fail (a command that
    // does not exist starts, and its shell exits with status 127: the first read sees the end).
    explicit ChildProcess(const std::string& command, std::size_t max_line = 1 << 16);
    ~ChildProcess();  // kill()
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Writes `line` and a newline, waiting up to timeout_ms for room in the pipe. Throws
    // ProcessError when the child has closed its input (or exited) or does not read.
    void write_line(const std::string& line, int timeout_ms = 5000);

    enum class Read { kLine, kTimeout, kEnd };
    // Reads one line (without the newline, a '\r' before it dropped) within timeout_ms (negative:
    // no limit). kEnd: the child closed its output (exited or crashed). Throws ProcessError for a
    // line longer than max_line.
    Read read_line(std::string& line, int timeout_ms);

    // Closes the child's input, waits up to wait_ms for it to exit, then kills its group.
    void finish(int wait_ms);
    // Kills the process group (SIGKILL) and reaps the child. Idempotent.
    void kill();

    // How the child ended, once it has ("exited with status 1", "killed by signal 11"); waits up
    // to wait_ms for it. "still running" if it has not.
    std::string exit_text(int wait_ms);

    pid_t pid() const { return pid_; }

private:
    bool reap(int wait_ms);  // true once the child has been reaped

    pid_t pid_ = -1;
    int in_ = -1;   // our end of the child's standard input
    int out_ = -1;  // our end of the child's standard output
    bool reaped_ = false;
    int status_ = 0;
    std::size_t max_line_;
    std::string buffer_;
};

}  // namespace dambit::proc
