// The stop handlers of the long jobs: SIGINT (Ctrl-C), SIGTERM (kill) and SIGHUP (the terminal
// closed).
#pragma once

#include <atomic>
#include <csignal>

#include <sys/resource.h>

namespace dambit {

// Whether `signal` is ignored now (as it was when the program started, unless changed since).
inline bool signal_ignored(int signal) {
    struct sigaction old {};
    return ::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN;
}

// The process as it started, before dambit changed it for itself (tools/cli.cpp
// prepare_process: the soft limit of open files raised, SIGXFSZ ignored; the engines' SIGPIPE):
// the programs it starts get these back (protocol/process.cpp), so that an engine of another
// program runs as it would from the shell (one using select() with a limit of 2^30 open files).
struct StartState {
    bool files_raised = false;
    struct rlimit files {};  // the limit of open files at the start, when files_raised
    bool pipe_ignored = false, xfsz_ignored = false;
};
inline StartState g_start_state;

// Puts back in a child, between fork and exec (async-signal-safe calls only), what g_start_state
// kept.
inline void restore_start_state() {
    if (g_start_state.files_raised) ::setrlimit(RLIMIT_NOFILE, &g_start_state.files);
    ::signal(SIGPIPE, g_start_state.pipe_ignored ? SIG_IGN : SIG_DFL);
    ::signal(SIGXFSZ, g_start_state.xfsz_ignored ? SIG_IGN : SIG_DFL);
}

// What must be done before a signal ends the program, from a signal handler (so
// async-signal-safe): protocol/process.cpp sets it to kill the engines of other programs it
// started, which would otherwise run on, re-parented to init.
inline std::atomic<void (*)()> g_before_signal_death{nullptr};

// A handler that does g_before_signal_death's work, then ends the program as the signal's default
// action would.
inline void die_of_signal(int signal) {
    if (const auto before = g_before_signal_death.load()) before();
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// Installs `handler` for SIGINT, SIGTERM and SIGHUP, but for those that are ignored: an ignored
// signal stays ignored, as `nohup` (SIGHUP) and a script's background jobs (SIGINT) need. A
// handler that lets the next signal end the program installs die_of_signal for it.
inline void handle_stop_signals(void (*handler)(int)) {
    for (const int signal : {SIGINT, SIGTERM, SIGHUP})
        if (!signal_ignored(signal)) std::signal(signal, handler);
}

}  // namespace dambit
