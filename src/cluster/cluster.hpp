// Jobs spread over the ranks of an MPI run (mpirun): start and end, and a work queue that rank 0
// serves. Only cluster.cpp includes <mpi.h>; without MPI, or started without a launcher, there is
// one rank and nothing here talks to anyone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dambit::cluster {

// Called first thing in main: joins the MPI job when an MPI launcher started this process (its
// environment says so), so that a plain run never pays for MPI. Ranks other than 0 write nothing
// to standard output: rank 0 prints the results.
void start(int& argc, char**& argv);
// Called last: leaves the job normally on status 0; on any other status ends every rank of it
// (MPI_Abort), so that no rank waits for one that has stopped. Returns status.
int finish(int status);
// Ends the whole job now with `status` (every rank); does not return.
[[noreturn]] void abort(int status);
// A rank other than 0 that fails tells rank 0 why (one line), so that rank 0 can save its work,
// say so and end the job (see Job::on_stop); finish() then ends this rank.
void report_failure(const std::string& why);

// Every rank calls it once with what it runs (its subcommand): the first rank whose `text` is not
// rank 0's, with that text, or nothing. A collective call (every rank of the job must make it);
// nothing without MPI.
std::optional<std::pair<int, std::string>> differing_rank(const std::string& text);
int rank();  // 0 without MPI
int size();  // 1 without MPI
inline bool distributed() { return size() > 1; }
std::string host(int rank);  // the processor name of a rank
bool built_with_mpi();

// What one rank did in a job served by serve(): items done, seconds spent on them, and seconds
// without an item (waiting for one, or for the job's last items elsewhere).
struct RankTime {
    std::size_t items = 0;
    double busy = 0, idle = 0;
};

// Rank 0: hands the items of a job out on demand until every one has been done, to the other
// ranks (each asks for one when it has finished the last) and to `local`, run on a thread of
// rank 0 when given.
struct Job {
    std::string text;  // what the other ranks need to know to work on its items
    std::size_t items = 0;
    // An item that may be handed out now (nullopt: none now; all done, or waiting for some).
    std::function<std::optional<std::size_t>()> next;
    std::function<std::uint64_t(std::size_t item)> local;  // rank 0's own work; may be empty
    // Called on rank 0's main thread as each item is done, with its value, rank and seconds.
    std::function<void(std::size_t item, std::uint64_t value, int rank, double seconds)> done;
    // Called when the job stops early, before every rank is ended: on a signal (SIGINT,
    // SIGTERM: the launcher ending the job; status 130) or when a rank reports a failure (status
    // 1). `why` says which, in a few words. Save what was done and say so.
    std::function<void(const std::string& why)> on_stop;
};
// Returns each rank's times, added to `times` (resized to size()).
void serve(const Job& job, std::vector<RankTime>& times);
// Rank 0, when no job follows: the other ranks return from next_item() with nullopt.
void release_workers();
// One line per rank on standard error: "rank 1 (host): 12 subtrees, 3.1 s counting, 0.2 s idle"
// (`items` is the singular: "subtree"; an s is added to any count but 1).
// `rank0_works`: rank 0 takes items too (perft); otherwise it only hands them out (egtb build).
void print_times(const std::vector<RankTime>& times, const char* items, const char* busy,
                 bool rank0_works);

// Other ranks: the next item to work on, after sending rank 0 the value of the last one (none at
// the first call); nullopt once rank 0 releases the workers. job() is the text of the item's job.
class Worker {
public:
    std::optional<std::size_t> next_item(std::uint64_t last_value = 0);
    const std::string& job() const { return job_; }

private:
    std::string job_;
    std::optional<std::size_t> item_;
    double started_ = 0;
    int jobs_ = 0;
    std::size_t items_in_job_ = 0;
};

}  // namespace dambit::cluster
