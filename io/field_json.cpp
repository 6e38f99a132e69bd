// vramcalc io: the field table's JSON reads and writes (see field_json.hpp).
#include "field_json.hpp"

#include <cmath>

#include <cstring>
#include <vector>

namespace vc::io {

using nlohmann::json;

namespace {

// The key of `f` inside its section (a pointer into the table's static path).
const char* key_of(const FieldDef& f) {
    const char* dot = std::strrchr(f.path, '.');
    return dot ? dot + 1 : f.path;
}

bool read_toggle(ObjectReader& r, const char* key, Toggle& out) {
    if (!r.has(key)) return r.ok();
    bool b = false;
    if (!r.boolean(key, b)) return false;
    out = b ? Toggle::On : Toggle::Off;
    return true;
}

const Config& default_config() {
    static const Config c{};
    return c;
}

}  // namespace

namespace {

// The key of a field of `section` (section_fields: its path is "section.key"), found without a
// search for the last dot (a config read asks it of every field of each section it reads).
const char* key_in(const std::string& section, const FieldDef& f) { return f.path + (section.empty() ? 0 : section.size() + 1); }

bool read_field_at(ObjectReader& r, const FieldDef& f, const char* key, Config& cfg);

}  // namespace

bool only_section_keys(ObjectReader& r, const std::string& section, FieldList table) {
    const auto& fields = section_fields(section, table);
    std::vector<const char*> keys;
    keys.reserve(fields.size());
    for (const FieldDef* f : fields) keys.push_back(key_in(section, *f));
    return r.only_keys(keys);
}

bool read_field(ObjectReader& r, const FieldDef& f, Config& cfg) { return read_field_at(r, f, key_of(f), cfg); }

namespace {

bool read_field_at(ObjectReader& r, const FieldDef& f, const char* key, Config& cfg) {
    switch (f.kind) {
        case FieldKind::Int: {
            if (!f.int_at) return r.ok();
            // A fraction or a number past int's range (a context of 1e12) is refused with the
            // field's own range in its unit, as the engine words it, not int's.
            if (r.ok() && r.has(key) && r.at(key).is_number()) {
                const double d = r.at(key).get<double>();
                Error e;
                if (std::isfinite(d) && (std::floor(d) != d || std::fabs(d) > 2147483647.0) && !check_number(f, d, e))
                    return r.fail(key, e.message);
            }
            return r.integer(key, *f.int_at(cfg));
        }
        case FieldKind::Number: {
            if (!f.number_at) return r.ok();
            if (f.scale == 1 && !f.read_nonnegative) return r.number(key, *f.number_at(cfg));
            if (!r.has(key)) return r.ok();
            double v = 0;
            if (!r.number(key, v)) return false;
            if (f.read_nonnegative && v < 0) return r.fail(key, r.path(key) + " must be at least 0 (" + f.unit + ")");
            *f.number_at(cfg) = v * f.scale;
            return true;
        }
        case FieldKind::Bool: return !f.bool_at || r.boolean(key, *f.bool_at(cfg));
        case FieldKind::Toggle: return !f.toggle_at || read_toggle(r, key, *f.toggle_at(cfg));
        case FieldKind::Text: return !f.text_at || r.string(key, *f.text_at(cfg), f.text_max ? f.text_max : kMaxTextFieldBytes);
        case FieldKind::Enum: {
            if (!f.enum_set) return r.ok();
            std::string s;
            if (!r.string(key, s)) return false;
            if (!r.has(key)) return true;
            int v = 0;
            if (!enum_value(f.names, s, v)) return r.fail(key, r.path(key) + " must be one of " + enum_choices(f.names) + ", got \"" + s + "\"");
            f.enum_set(cfg, v);
            return true;
        }
        case FieldKind::Object:
        case FieldKind::List: break;
    }
    return r.ok();
}

}  // namespace

bool read_section(ObjectReader& r, const std::string& section, Config& cfg) {
    for (const FieldDef* f : section_fields(section))
        if (!f->by_hand && f->has_member()) read_field_at(r, *f, key_in(section, *f), cfg);
    return r.ok();
}

json field_json(const Config& cfg, const FieldDef& f) {
    Config& c = const_cast<Config&>(cfg);  // the accessors take Config&; nothing is written here
    switch (f.kind) {
        case FieldKind::Int: return f.int_at ? json(*f.int_at(c)) : json();
        case FieldKind::Number: {
            if (!f.number_at) return json();
            const double v = *f.number_at(c);
            if (f.null_when_negative && v < 0) return json(nullptr);
            return json(f.scale == 1 ? v : v / f.scale);
        }
        case FieldKind::Bool: return f.bool_at ? json(*f.bool_at(c)) : json();
        case FieldKind::Toggle: {
            if (!f.toggle_at) return json();
            const Toggle t = *f.toggle_at(c);
            return t == Toggle::Auto ? json(nullptr) : json(t == Toggle::On);
        }
        case FieldKind::Text: return f.text_at ? json(*f.text_at(c)) : json();
        case FieldKind::Enum: return f.enum_get ? json(enum_name(f.names, f.enum_get(cfg))) : json();
        case FieldKind::Object:
        case FieldKind::List: break;
    }
    return json();
}

void write_section(const Config& cfg, const std::string& section, json& j) {
    for (const FieldDef* f : section_fields(section)) {
        if (f->by_hand || !f->has_member()) continue;
        json v = field_json(cfg, *f);
        if (f->omit_default && v == field_json(default_config(), *f)) continue;
        j[key_of(*f)] = std::move(v);
    }
}

}  // namespace vc::io
