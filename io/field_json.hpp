// vramcalc io: JSON read and write of the config fields core/fields.hpp declares. A section's
// keys, the reading of every field with a member and its writing come from the table; what a
// field marked `by_hand` needs (cross-field rules, objects written only when set) stays with the
// section's reader (config_json.cpp, training_json.cpp, inference_json.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"
#include "json_read.hpp"

namespace vc::io {

// Every key the table declares in `section` ("" for the top level): an unknown key is an error
// that lists them, in table order. `table`: request_fields() for a request's own section (plan.*).
bool only_section_keys(ObjectReader& r, const std::string& section, FieldList table = config_fields());
// Reads one field from `r` (an object at the field's section) into `cfg`.
bool read_field(ObjectReader& r, const FieldDef& f, Config& cfg);
// Reads every field of `section` that has a member and is not by_hand, in table order.
bool read_section(ObjectReader& r, const std::string& section, Config& cfg);
// The member as the document writes it (GiB fields in GiB, enums by name, null toggles).
nlohmann::json field_json(const Config& cfg, const FieldDef& f);
// Writes every field of `section` that has a member and is not by_hand into `j` (omit_default
// fields only when they differ from the default Config's).
void write_section(const Config& cfg, const std::string& section, nlohmann::json& j);

}  // namespace vc::io
