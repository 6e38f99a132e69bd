// vramcalc CLI: command-line flags -> the JSON config document (flags override --config).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/status.hpp"

namespace vc::cli {

struct Options {
    nlohmann::json doc = nlohmann::json::object();  // the config document, flags merged in
    std::string format = "table";                  // "table" or "json"
    bool print_config = false;
    std::vector<std::string> typed;  // the field paths the flags and --set gave, sorted (unread_field_notes)
};

// Parses argv[first..argc). Returns -1 to go on, or an exit code to return at once (after
// --help, --version, a listing, or a usage error, which it has already printed).
int parse_flags(int argc, char** argv, int first, Options& opt);

// Converts the document into a Config; on failure prints the error (as JSON too when the format
// is json) and returns false.
bool load_config(const Options& opt, Config& out);

// Prints an Error in the chosen format.
void print_error(const Options& opt, const Error& err);

// `vramcalc --help`: the hand-written commands and special flags, then one entry per field flag
// generated from the field table (core/fields.cpp).
std::string usage();

}  // namespace vc::cli
