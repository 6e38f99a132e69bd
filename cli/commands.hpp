// vramcalc CLI: subcommands (the first argument is a word, not a flag), e.g. `vramcalc validate F.csv`.
#pragma once

namespace vc::cli {

// If argv[1] names a subcommand, runs it, sets `rc` and returns true; otherwise returns false.
bool run_command(int argc, char** argv, int& rc);

}  // namespace vc::cli
