// The dambit subcommands. Each takes the arguments after its name and returns the exit status;
// usage errors are thrown as cli::UsageError, bad positions and moves as ParseError.
#pragma once

namespace dambit {

int moves_command(int argc, char** argv);
int perft_command(int argc, char** argv);
int search_command(int argc, char** argv);
int bench_command(int argc, char** argv);
int solve_command(int argc, char** argv);
int match_command(int argc, char** argv);
int show_command(int argc, char** argv);
int egtb_command(int argc, char** argv);
int hub_command(int argc, char** argv);
int dxp_command(int argc, char** argv);
int selfplay_command(int argc, char** argv);
int tune_command(int argc, char** argv);
int pdn_command(int argc, char** argv);
int book_command(int argc, char** argv);

}  // namespace dambit
