// The stop handlers of the long jobs: SIGINT (Ctrl-C), SIGTERM (kill) and SIGHUP (the terminal
// closed).
#pragma once

#include <csignal>

namespace dambit {

// Whether `signal` is ignored now (as it was when the program started, unless changed since).
inline bool signal_ignored(int signal) {
    struct sigaction old {};
    return ::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN;
}

// Installs `handler` for SIGINT, SIGTERM and SIGHUP, but for those that are ignored: an ignored
// signal stays ignored, as `nohup` (SIGHUP) and a script's background jobs (SIGINT) need.
inline void handle_stop_signals(void (*handler)(int)) {
    for (const int signal : {SIGINT, SIGTERM, SIGHUP})
        if (!signal_ignored(signal)) std::signal(signal, handler);
}

}  // namespace dambit
