// vramcalc io: text generated from the field tables (core/fields.hpp): docs/config.md's and
// docs/planner.md's field tables and the TypeScript config and plan request types of
// web/lib/vramcalc.d.ts. A generated block sits
// between a begin line holding "generated: vramcalc fields FORMAT ARG" and an end line holding
// "end generated"; `vramcalc fields --update FILE...` rewrites the blocks and `--check` fails
// when one differs (ctest fields_generated).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"

namespace vc::io {

// The Markdown table of the fields directly inside `section` ("" for the top level; "plan" and
// its subsections are the request table's).
std::string fields_markdown(const std::string& section);
// TypeScript interfaces of the config document (`root` ""): `Config` and one interface per
// section; of a request's section (`root` "plan"): `PlanConfig` and one per subsection.
std::string fields_typescript(const std::string& root = "");
// The CLI's flags that set a field, one entry per field in table order ("  -ngl, --ngl N   meaning
// (path: accepted; default d)"), wrapped to `width` columns (the generated part of `vramcalc --help`).
// `table`: request_fields() for the flags of a request's own section (`vramcalc plan --help`).
std::string fields_flag_help(size_t width = 100, FieldList table = config_fields());
// Both tables as JSON (`vramcalc fields --format json`; request fields carry "request": true).
nlohmann::json fields_json();
// The generated text for a block's FORMAT ("md", "ts") and ARG (a section for md; none or a
// request's section for ts); false when unknown.
bool generated_block(const std::string& format, const std::string& arg, std::string& out);
// Rewrites every generated block of `text`; `changed` names the first block that differed.
// False (with `error`) when a marker is malformed.
bool regenerate(std::string& text, std::string& changed, std::string& error);

}  // namespace vc::io
