// vramcalc core: the config field table. Every field of the config document (docs/config.md) is
// declared once here: its dotted path, kind, default, accepted range in its unit, one-line
// meaning, enum names, and where it lives in Config. Everything else reads this table:
//   io/field_json.cpp     JSON read and write of every field with a member (the rest is marked
//                         `by_hand`: io reads it with its cross-field rule)
//   io/fields_doc.cpp     docs/config.md's field tables and the .d.ts config types
//                         (`vramcalc fields --check|--update`, ctest `fields_generated`)
//   cli/flags.cpp         --set checks its path here; -ngl etc. name a field's path
//   shell/                widget ids are these paths; tooltips and ranges come from here
// Core knows no JSON text: a field is a path and a member, never a JSON value.
//
// Adding a field: one line in core/fields.cpp (its section's block), the engine code that reads
// the member, and a test. Nothing else (docs/config.md and the .d.ts are regenerated). A request's
// own section (plan.*) is the request table's: the same, plus a line in its reader (io/plan_json.cpp).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/status.hpp"

namespace vc {

enum class FieldKind {
    Int,     // a whole number (int member)
    Number,  // a number (double member; `scale` converts the document's unit to the member's)
    Bool,
    Toggle,  // true, false or null (null: the framework profile decides)
    Text,    // one line of UTF-8
    Enum,    // one of `names`
    Object,  // a section: its fields follow with this path as prefix
    List,    // an array (ts_type says of what)
};

// One accepted spelling of an enum value. The first entry of a value is the one written back;
// an entry with listed = false is accepted but left out of messages and the docs' list.
struct EnumName {
    const char* name;
    int value;
    bool listed;
};

struct EnumNames {
    const EnumName* items = nullptr;
    size_t count = 0;
    const EnumName* begin() const { return items; }
    const EnumName* end() const { return items + count; }
};

template <size_t N>
constexpr EnumNames enum_names(const EnumName (&a)[N]) {
    return EnumNames{a, N};
}

struct FieldDef {
    const char* path = "";       // dotted, "inference.vllm.max_num_seqs"
    FieldKind kind = FieldKind::Number;
    const char* meaning = "";    // one line: what it is and what it does to memory
    const char* unit = "";       // the unit of the document's value: "tokens", "GiB", "bytes", ""
    bool ranged = false;         // [min, max] below is the accepted range, in `unit`
    double min = 0, max = 0;
    double step = 1;             // the page's -/+ step in `unit` (doubling rows ignore it; an open min starts a step above it)
    bool open_min = false;       // (min, max]: min itself is not accepted
    const char* accepts = nullptr;   // the accepted values in words, when not a plain range
    const char* def = nullptr;   // the default in words, when not the default Config's value
    const char* ts_type = nullptr;   // TypeScript type of a List (or a by_hand field)
    const char* flags = nullptr; // the CLI's spellings that set it, space-separated ("-ngl --ngl")
    EnumNames names{};           // Enum: the accepted spellings
    double scale = 1;            // member = document value x scale (GiB fields hold bytes)
    bool null_when_negative = false;  // a negative member (unset override) is written as null
    bool read_nonnegative = false;    // a negative document value is refused on reading ("at least 0")
    bool omit_default = false;        // written only when it differs from the default Config's
    bool whole = false;               // a Number member that must hold a whole number
    bool by_hand = false;        // io/ reads and writes it itself (cross-field rules, objects)
    unsigned text_max = 0;       // Text: the most bytes accepted (0: io/text_input.hpp's kMaxTextFieldBytes, 256)
    // Why the page has no row for it (a section's reason covers the fields inside it): `vramcalc
    // fields --format json` writes it as "off_page", and tests/cli/page_controls.test.mjs holds the
    // page to it (no control for such a field; every other field has one).
    const char* off_page = nullptr;
    // Where it lives: the one accessor of its kind (none for Object, List and some by_hand fields).
    int* (*int_at)(Config&) = nullptr;
    double* (*number_at)(Config&) = nullptr;
    bool* (*bool_at)(Config&) = nullptr;
    Toggle* (*toggle_at)(Config&) = nullptr;
    std::string* (*text_at)(Config&) = nullptr;
    int (*enum_get)(const Config&) = nullptr;
    void (*enum_set)(Config&, int) = nullptr;

    // The last path component ("max_num_seqs") and the section ("inference.vllm", "" at the top).
    std::string key() const;
    std::string section() const;
    bool has_member() const { return int_at || number_at || bool_at || toggle_at || text_at || enum_get; }
    // The member as a double (Int, Number in the document's unit, Bool 0/1, Enum value).
    double number_of(const Config& c) const;
};

// The page's build (VRAMCALC_PAGE_BUILD: the page's own copy of core/, web/web.cmake) keeps of the
// tables only what the page can show (issue 15, its download): no def, flags, ts_type or off_page
// text, and no meaning for a section or a field off the page (the page shows a meaning only as the
// tooltip of a field's row). The CLI, the docs, the JS library and the tests read the whole table.
// Every field, sections in document order, each section's keys in the order its reader accepts them.
struct FieldList {
    const FieldDef* first;
    const FieldDef* last;
    const FieldDef* begin() const { return first; }
    const FieldDef* end() const { return last; }
    size_t size() const { return static_cast<size_t>(last - first); }
};
FieldList config_fields();
// Request-only fields: the sections a request adds to a config document (the planner's "plan.*").
// They live in no Config member (their readers hold them: io/plan_json.cpp) and a config document
// refuses them; the engine checks them (check_value, check_members) and the page's rows and link
// keys use their paths like a config field's.
FieldList request_fields();
// The config field at a dotted path, or nullptr (a binary search of an index built on the first call).
const FieldDef* find_field(const char* path);
const FieldDef* find_field(const std::string& path);
// The request field at a dotted path ("plan.gpus"), or nullptr.
const FieldDef* find_request_field(const char* path);
// A config field, else a request field (the checks and the page's rows read either).
const FieldDef* find_any_field(const char* path);
// The reason a field has no row on the page: its own off_page, else its nearest section's; nullptr
// when it has a row (always nullptr in the page's build, which keeps no such text).
const char* off_page_reason(const FieldDef& f);
// The field of `table` a CLI flag sets (its `flags` spellings, e.g. "-ngl"), or nullptr.
const FieldDef* find_flag_field(const std::string& flag, FieldList table = config_fields());
// The fields of `table` directly inside `section` ("" for the top level, "inference.vllm", "plan").
const std::vector<const FieldDef*>& section_fields(const std::string& section, FieldList table = config_fields());

// Enum names: the value of a spelling, the name written for a value, the listed spellings.
bool enum_value(const EnumNames& names, const std::string& s, int& out);
const char* enum_name(const EnumNames& names, int value);
std::string enum_choices(const EnumNames& names);  // "a, b, c" (listed spellings)

// The enum tables (one place: io/ and the docs read these).
extern const EnumNames kMethodNames, kTaskNames, kQuickPrecisionNames, kQuickOptimizerNames, kMlpNames, kNormNames,
    kTrainPrecisionNames, kTrainOptimizerNames, kRecomputeNames, kAttentionNames, kFinetuneNames, kBaseQuantNames, kHeadNames,
    kShardingNames, kScheduleNames, kEngineNames, kSplitModeNames, kHfAttentionNames, kGptqKernelNames, kBnbComputeNames, kProfileLogitsNames,
    kLlamaProfileNames, kPlanRankNames;

// The field's accepted range in words, in its unit: "[1, 1048576] tokens", "(0, 1]".
std::string field_range_text(const FieldDef& f);
// Checks the member against the field's range; the message names the path and the range in the
// field's unit (as check_range / check_int_range word it). True when not ranged, and for a negative
// member of a null_when_negative field (unset).
bool check_field(const Config& c, const FieldDef& f, Error& err);
// The same check of a value `v` held apart from a Config.
bool check_number(const FieldDef& f, double v, Error& err);
// The same check of a value the engine holds apart from a Config (a resolved model, the quick
// method's inputs): `path` must name a ranged field (else the Error says so).
bool check_value(const char* path, double v, Error& err);
// A member checked against the field at `path`, as the member holds it (bytes for a GiB field: it
// is divided by the field's scale). The engine's own checks are lists of these: the ranges live in
// the table only. A negative member of a null_when_negative field is "unset" and passes.
struct FieldValue {
    const char* path;
    double member;
    template <typename T>
    FieldValue(const char* p, T m) : path(p), member(static_cast<double>(m)) {}
};
// Checks each in order; false at the first refused (err names its path and the table's range).
bool check_members(std::initializer_list<FieldValue> values, Error& err);

}  // namespace vc
