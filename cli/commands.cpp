// vramcalc CLI: subcommand table. Each subcommand lives in its own file and is listed here.
#include "commands.hpp"

#include <cstring>

namespace vc::cli {

int batch_command(int argc, char** argv);     // cli/batch_command.cpp
int solve_command(int argc, char** argv);     // cli/solve_command.cpp
int suggest_command(int argc, char** argv);   // cli/suggest_command.cpp
int fit_models_command(int argc, char** argv);  // cli/fit_models_command.cpp
int validate_command(int argc, char** argv);  // cli/validate_command.cpp
int plan_command(int argc, char** argv);      // cli/plan_command.cpp
int fields_command(int argc, char** argv);    // cli/fields_command.cpp

struct Command {
    const char* name;
    int (*run)(int argc, char** argv);  // argv[0] is the subcommand's name
};

static const Command kCommands[] = {
    {"batch", batch_command},
    {"solve", solve_command},
    {"suggest", suggest_command},
    {"fit-models", fit_models_command},
    {"validate", validate_command},
    {"plan", plan_command},
    {"fields", fields_command},
};

bool run_command(int argc, char** argv, int& rc) {
    for (const auto& c : kCommands) {
        if (c.name && std::strcmp(argv[1], c.name) == 0) {
            rc = c.run(argc - 1, argv + 1);
            return true;
        }
    }
    return false;
}

}  // namespace vc::cli
