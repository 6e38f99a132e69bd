// vramcalc shell state: URL fragment encoding (see url.hpp).
//
// [SECTIONS]
//   percent    percent-encoding of keys and values
//   flatten    JSON <-> dotted key/value pairs
//   encode     config + view -> fragment
//   decode     fragment -> config + view
#include "url.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"
#include "core/model/presets.hpp"
#include "core/stable_sort.hpp"
#include "io/config_json.hpp"
#include "io/text_input.hpp"
#include "scenario.hpp"

namespace vc::shell {
namespace {

using nlohmann::json;

// [SECTION] percent -------------------------------------------------------------------------------
// Kept as is: unreserved characters and a few that read well and that browsers leave alone in a
// fragment. Everything else (notably & = # % space and non-ASCII bytes) becomes %XX.
bool kept(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
           c == '~' || c == ',' || c == ':' || c == '[' || c == ']' || c == '/';
}

std::string percent_encode(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (kept(c)) {
            out += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// '+' stays '+' (a fragment is not a form); a malformed escape is kept literally.
std::string percent_decode(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

// [SECTION] flatten -------------------------------------------------------------------------------
using Flat = std::map<std::string, json>;

void flatten(const json& j, const std::string& prefix, Flat& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
        return;
    }
    out[prefix] = j;
}

// Sets `value` at the dotted `path` of `doc`, creating objects on the way. False when the path
// runs through a value that is not an object.
bool set_path(json& doc, const std::string& path, const json& value) {
    json* at = &doc;
    size_t start = 0;
    while (true) {
        const size_t dot = path.find('.', start);
        const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (key.empty() || !at->is_object()) return false;
        if (dot == std::string::npos) {
            (*at)[key] = value;
            return true;
        }
        at = &(*at)[key];
        if (at->is_null()) *at = json::object();
        start = dot + 1;
    }
}

// Removes the value at the dotted `path` (absent already is fine). False when the path runs
// through a value that is not an object.
bool erase_path(json& doc, const std::string& path) {
    json* at = &doc;
    size_t start = 0, dot;
    while ((dot = path.find('.', start)) != std::string::npos) {
        const std::string key = path.substr(start, dot - start);
        if (!at->is_object()) return false;
        if (!at->contains(key)) return true;
        at = &(*at)[key];
        start = dot + 1;
    }
    if (!at->is_object()) return false;
    at->erase(path.substr(start));
    return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        const size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return parts;
        start = at + 1;
    }
}

// A value as the fragment writes it: strings bare unless they would read back as something else.
std::string value_text(const json& v) {
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        const json reread = json::parse(s, nullptr, false);
        if (!s.empty() && reread.is_discarded() && s.front() != '"') return s;
        return io::dump(v);  // never throws (invalid UTF-8 is replaced, though the reader lets none in)
    }
    // Whole numbers as integers ("8", not "8.0"); others in the shortest form that reads back.
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d == std::floor(d) && std::fabs(d) < 1e15) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.0f", d);
            return buf;
        }
    }
    return io::dump(v);
}

// A fragment value read back: JSON when it parses as JSON, else the bare string.
json value_from_text(const std::string& s) {
    json j = json::parse(s, nullptr, false);
    if (j.is_discarded()) return json(s);
    return j;
}

// The model as a link writes it: a preset by its id (with the fields that differ from it), a
// parameter count alone, or the whole architecture.
json model_json(const Config& cfg) {
    switch (model_mode(cfg)) {
        case ModelMode::Preset: {
            // The id, and whatever the link changed of the preset (a name, a vocabulary size).
            json j{{"preset", cfg.model.id}};
            const ModelSpec* p = find_preset(cfg.model.id);
            const json now = io::model_to_json(cfg.model), was = p ? io::model_to_json(*p) : json::object();
            for (auto it = now.begin(); it != now.end(); ++it)
                if (!was.contains(it.key()) || was[it.key()] != it.value()) j[it.key()] = it.value();
            return j;
        }
        // The count and what the model has beside it (a name, a context window), as the config
        // JSON writes a count-only model (a count alone lost a named model's name through its link).
        case ModelMode::ParamsOnly: return io::model_to_json(cfg.model);
        case ModelMode::Custom: break;
    }
    return io::config_to_json(cfg)["model"];  // with params_b when a count was typed
}

// The config's JSON without the model (written apart) and the parameter count the model implies.
json config_json(const Config& cfg) {
    json j = io::config_to_json(cfg);
    j.erase("model");
    j.erase("params_b");
    j.erase("schema_version");
    return j;
}

bool parse_theme(const std::string& s, ThemeChoice& out) {
    if (s == "auto") out = ThemeChoice::Auto;
    else if (s == "light") out = ThemeChoice::Light;
    else if (s == "dark") out = ThemeChoice::Dark;
    else return false;
    return true;
}

const char* theme_name(ThemeChoice t) {
    switch (t) {
        case ThemeChoice::Light: return "light";
        case ThemeChoice::Dark: return "dark";
        case ThemeChoice::Auto: break;
    }
    return "auto";
}

}  // namespace

// [SECTION] encode --------------------------------------------------------------------------------
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// The config keys of `cfg` that differ from `base`. `minimal`: a key the base document lacks (a
// section its task or method leaves out) is compared with that section's defaults, and a key only
// the base has is written as null only when a starting state of `cfg`'s task and method has it
// too. Otherwise every key either document lacks is written (the form that always reads back).
Pairs config_pairs(const Config& cfg, const Config& base, bool minimal) {
    Pairs pairs;
    Flat now, was, ref;
    flatten(config_json(cfg), "", now);
    flatten(config_json(base), "", was);
    if (minimal) {
        // What a link's reader takes for a key the base document lacks: the config reader's default
        // once the task and method are the link's (decode_fragment reads over the base document).
        json d = config_json(base);
        d["task"] = task_name(cfg.task);
        d["method"] = method_name(cfg.method);
        d["model"] = model_json(base);
        const auto r = io::config_from_json(d);
        if (r.ok) flatten(config_json(r.value), "", ref);
    }
    // Keys in the order the config document has them (method and task first, then the rest).
    for (const auto& [key, value] : now) {
        auto it = was.find(key);
        if (it != was.end() && it->second == value) continue;
        if (it == was.end() && minimal) {
            auto r = ref.find(key);
            if (r != ref.end() && r->second == value) continue;
        }
        pairs.emplace_back(key, value_text(value));
    }
    for (const auto& [key, value] : was)
        if (!now.count(key) && (!minimal || ref.count(key))) pairs.emplace_back(key, "null");
    return pairs;
}

std::string encode_pairs(const Config& cfg, const UiState& ui, const Config& base, Pairs pairs);

}  // namespace

std::string encode_fragment(const Config& cfg, const UiState& ui, const Config& base) {
    // Only what differs from the starting state (issue 14: a task switch once wrote every default of
    // the serving section, nulls included: 1,611 characters); the long form only when the short
    // one would not read back to the same config.
    const std::string short_form = encode_pairs(cfg, ui, base, config_pairs(cfg, base, true));
    Config back;
    UiState view = ui;
    Error err;
    if (decode_fragment(short_form, base, back, view, err) && err.field.empty() && config_json(back) == config_json(cfg) &&
        model_json(back) == model_json(cfg))
        return short_form;
    return encode_pairs(cfg, ui, base, config_pairs(cfg, base, false));
}

namespace {

std::string encode_pairs(const Config& cfg, const UiState& ui, const Config& base, Pairs pairs) {
    // A link that sets the task and names no optimizer reads as the task's default optimizer (see
    // decode): name it when this state's differs (a serving state with adamw-mixed).
    const bool task_written = std::any_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == "task"; });
    const bool optimizer_written = std::any_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == "optimizer"; });
    if (task_written && !optimizer_written) {
        const auto task_default = io::config_from_json(json{{"task", task_name(cfg.task)}});
        if (!task_default.ok || task_default.value.quick.optimizer != cfg.quick.optimizer)
            pairs.emplace_back("optimizer", io::quick_optimizer_name(cfg.quick.optimizer));
    }
    const json model_now = model_json(cfg);
    if (model_now != model_json(base)) {
        Flat m;
        flatten(model_now, "model", m);
        for (const auto& [key, value] : m) pairs.emplace_back(key, value_text(value));
    }
    if (ui.show_gib) pairs.emplace_back("units", "gib");
    if (ui.theme != ThemeChoice::Auto) pairs.emplace_back("theme", theme_name(ui.theme));
    planner_fragment_pairs(ui.planner, pairs);
    if (pairs.empty()) return "";

    // Readable order: method, task, model first.
    auto rank = [](const std::string& k) {
        if (k == "method") return 0;
        if (k == "task") return 1;
        if (k.rfind("model.", 0) == 0) return 2;
        if (k == "units" || k == "theme") return 4;
        if (k == "view" || k.rfind("plan.", 0) == 0) return 5;
        return 3;
    };
    stable_sort_by(pairs, [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
    std::string out = "v=" + std::to_string(kFragmentVersion);
    for (const auto& [key, value] : pairs) out += "&" + percent_encode(key) + "=" + percent_encode(value);
    return out;
}

}  // namespace

// [SECTION] decode --------------------------------------------------------------------------------
namespace {

// The value at the dotted `path` of `doc`, or nullptr.
const json* get_path(const json& doc, const std::string& path) {
    const json* at = &doc;
    for (const std::string& key : split(path, '.')) {
        if (!at->is_object() || !at->contains(key)) return nullptr;
        at = &(*at)[key];
    }
    return at;
}

// Whether the reader's error on `field` is about the link's key `key` (the same path, or one
// inside the other: "inference" and "inference.context").
bool about(const std::string& field, const std::string& key) {
    auto inside = [](const std::string& a, const std::string& b) { return a.size() > b.size() && a.compare(0, b.size(), b) == 0 && a[b.size()] == '.'; };
    return field == key || inside(field, key) || inside(key, field);
}

// Takes back what the key `path` set in `doc`: the value `was` has there, else nothing, and the
// objects the key created on its way ("a.b" = 1 over a document without "a" leaves no "a": {}).
void take_back(json& doc, const json& was, const std::string& path) {
    erase_path(doc, path);
    if (const json* v = get_path(was, path)) {
        set_path(doc, path, *v);
        return;
    }
    for (size_t dot = path.rfind('.'); dot != std::string::npos && dot > 0; dot = path.rfind('.', dot - 1)) {
        const std::string up = path.substr(0, dot);
        const json* at = get_path(doc, up);
        if (!at || !at->is_object() || !at->empty() || get_path(was, up)) break;
        erase_path(doc, up);
    }
}

// Reads the config document `doc` with `model` as its model. A field the reader rejects that one of
// the `given` keys set goes back to `base`'s value (a model key is dropped from the given model),
// `note` is told why, and the rest is read again, until it reads. `task_given` and no
// `optimizer_given`: the task's own optimizer applies (the config reader's default for the task, as
// the task buttons do), not the starting state's. `check_ranges`: a given number outside its field's
// range is left out as well. False when the reader rejects what no given key set.
template <typename Note>
bool read_given(const Config& base, const json& base_doc, json doc, json model, std::vector<std::string> given, bool task_given,
                bool optimizer_given, bool check_ranges, Note&& note, Config& cfg) {
    auto read = [&](json d, json m) {
        d["model"] = std::move(m);
        if (task_given && !optimizer_given) d.erase("optimizer");
        return io::config_from_json(d);
    };
    Outcome<Config> parsed;
    while (true) {
        parsed = read(doc, model);
        Error bad = parsed.error;
        if (parsed.ok && !check_ranges) break;
        if (parsed.ok) {
            // A value that reads but is outside its field's range (core/fields.cpp) is left out too,
            // so the rest gives a result: one range check per field, the table's. Not when the
            // state holds that value without it (a copied link writes an incomplete model's 0 vocab).
            struct Outside {
                const FieldDef* f;
                Error why;
            };
            std::vector<Outside> outside;
            json d = doc, m = model;  // the state without every such value: one more read, not one each
            for (const std::string& key : given) {
                const FieldDef* f = find_field(key);
                Error why;
                if (!f || !f->has_member() || check_field(parsed.value, *f, why)) continue;
                outside.push_back({f, why});
                if (key.rfind("model.", 0) == 0) take_back(m, json::object(), key.substr(6));
                else take_back(d, base_doc, key);
            }
            if (outside.empty()) break;
            const auto without = read(d, m.empty() ? model_json(base) : m);
            const Outside* first = nullptr;
            for (const Outside& o : outside)
                if (!first && !(without.ok && o.f->number_of(without.value) == o.f->number_of(parsed.value))) first = &o;
            if (!first) break;
            bad = first->why;
        } else if (const FieldDef* f = find_field(bad.field)) {
            // "seq must be a number": with the range it accepts, as a range check words it.
            const std::string tail = " must be a number";
            const std::string range = field_range_text(*f);
            if (f->ranged && !f->accepts && bad.message.size() >= tail.size() &&
                bad.message.compare(bad.message.size() - tail.size(), tail.size(), tail) == 0)
                bad.message += " in " + range;
        }
        note(bad);
        bool dropped = false;
        for (auto it = given.begin(); it != given.end();) {
            if (!about(bad.field, *it)) {
                ++it;
                continue;
            }
            if (*it == "model") {
                model = model_json(base);
            } else if (it->rfind("model.", 0) == 0) {
                take_back(model, json::object(), it->substr(6));
                if (model.empty()) model = model_json(base);
            } else {
                take_back(doc, base_doc, *it);
                optimizer_given &= *it != "optimizer";
                task_given &= *it != "task";
            }
            it = given.erase(it);
            dropped = true;
        }
        if (!dropped) return false;
    }
    cfg = parsed.value;
    // A parameter count alone (no architecture): the filled architecture the other methods read,
    // as the engine resolves it (resolve_model keeps the model's name and context window).
    if (cfg.model.params_override_b > 0 && cfg.model.id.empty() && cfg.model.layers == 0) {
        const ModelSpec read = cfg.model;
        use_params_only(cfg, read.params_override_b);
        if (!read.name.empty()) cfg.model.name = read.name;
        cfg.model.context_limit = read.context_limit;
    } else {
        sync_model(cfg);
    }
    return true;
}

}  // namespace

bool decode_fragment(const std::string& fragment, const Config& start, Config& cfg, UiState& ui, Error& err, std::vector<Error>* left_out) {
    err = Error{};
    std::vector<Error> left;  // every key left out, first one first
    // The limit comes before any copy: a link can be megabytes long.
    if (fragment.size() > io::kMaxLinkChars) {
        err = Error{"link", "the link's state is longer than " + std::to_string(io::kMaxLinkChars) + " characters; it is not read"};
        return false;
    }
    std::string text = fragment;
    if (!text.empty() && text[0] == '#') text.erase(0, 1);
    // A v=1 link was written when the page opened on the quick method: without a method it is the quick one.
    Config base = start;
    for (const std::string& part : split(text, '&'))
        if (part == "v=1") base.method = Method::Quick;
    const json base_doc = config_json(base);
    json doc = base_doc;
    json model = model_json(base);
    bool model_given = false;
    bool optimizer_given = false, task_given = false;
    std::vector<std::string> given;  // the config keys the link set, in order
    UiState view = ui;
    view.show_gib = false;
    view.theme = ThemeChoice::Auto;
    // A bad key is left out and the rest applied; `err` keeps the first one, `left` each one.
    auto note = [&err, &left](const Error& e) {
        if (err.field.empty()) err = e;
        if (std::none_of(left.begin(), left.end(), [&](const Error& b) { return b.field == e.field; })) left.push_back(e);
    };
    view.planner = PlannerView{};

    for (const std::string& part : split(text, '&')) {
        if (part.empty()) continue;
        const size_t eq = part.find('=');
        const std::string key = percent_decode(part.substr(0, eq));
        const std::string raw = eq == std::string::npos ? "" : percent_decode(part.substr(eq + 1));
        Error bad;
        // Every text of a link is checked before it goes further (nlohmann-json writes UTF-8 only).
        if (!io::check_text("link key \"" + io::quoted_excerpt(key) + "\"", key, io::kMaxTextFieldBytes, bad)) {
            note(Error{io::quoted_excerpt(key), bad.message});
            continue;
        }
        if (key == "v") {  // any other version: nothing of the link is read
            if (raw != std::to_string(kFragmentVersion) && raw != "1") {
                err = Error{"v", "the link's version v=" + io::quoted_excerpt(raw) + " is not known (this page reads v=1 to v=" +
                                     std::to_string(kFragmentVersion) + ")"};
                return false;
            }
            continue;
        }
        if (key == "config" || key == "lock" || key == "origins" || key == "id") continue;  // web/embed.js reads them (docs/embed.md)
        if (!io::check_text(key, raw, io::kMaxLinkChars, bad)) {
            note(bad);
            continue;
        }
        if (key == "units") {
            if (raw == "gb" || raw == "gib") view.show_gib = raw == "gib";
            else note(Error{"units", "units must be gb or gib, got \"" + io::quoted_excerpt(raw) + "\""});
        } else if (key == "theme") {
            if (!parse_theme(raw, view.theme)) note(Error{"theme", "theme must be auto, light or dark, got \"" + io::quoted_excerpt(raw) + "\""});
        } else if (key == "view" || key.rfind("plan.", 0) == 0) {
            Error e;
            if (!planner_fragment_key(key, raw, view.planner, e)) note(e);
        } else if (key.rfind("model.", 0) == 0) {
            json next = model_given ? model : json::object();
            if (!set_path(next, key.substr(6), value_from_text(raw))) {
                note(Error{key, key + " is not a field of the model"});
                continue;
            }
            model = next;
            model_given = true;
            given.push_back(key);
        } else {
            const json value = value_from_text(raw);
            // null: a key the defaults have and this state does not.
            if (!(value.is_null() ? erase_path(doc, key) : set_path(doc, key, value))) {
                note(Error{key, key + " is not a config field"});
                continue;
            }
            optimizer_given |= key == "optimizer";
            task_given |= key == "task";
            given.push_back(key);
        }
    }

    Config out;
    if (!read_given(base, base_doc, doc, model, given, task_given, optimizer_given, true, note, out)) return false;
    cfg = out;
    if (left_out) *left_out = left;
    ui.show_gib = view.show_gib;
    ui.theme = view.theme;
    ui.planner = view.planner;
    return true;
}

// [SECTION] patch ---------------------------------------------------------------------------------
bool patch_config(const Config& base, const nlohmann::json& patch, Config& out, Error& err, std::vector<Error>* refused) {
    err = Error{};
    if (refused) refused->clear();
    if (!patch.is_object()) {
        err = Error{"config", "the inputs must be a JSON object (a config patch, docs/config.md)"};
        return false;
    }
    // Each value of the patch by its dotted path, as a link's keys are read (decode_fragment): one
    // that cannot be read is refused alone, with its reason, and the others apply.
    const json base_doc = config_json(base);
    json doc = base_doc;
    json model = model_json(base);
    std::vector<std::string> given;
    std::vector<Error> bad;
    Error last;  // the reader's last word: when nothing could be dropped for it, nothing applies
    auto note = [&bad, &last](const Error& e) {
        last = e;
        if (std::none_of(bad.begin(), bad.end(), [&](const Error& b) { return b.field == e.field; })) bad.push_back(e);
    };
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.key() == "model") {
            // A model replaces the model whole, as a link's model.* keys do (a preset is not mixed
            // with the old architecture); each of its keys can be refused alone.
            model = it.value();
            Flat m;
            if (model.is_object()) flatten(model, "model", m);
            if (m.empty()) given.push_back("model");
            for (const auto& kv : m) given.push_back(kv.first);
            continue;
        }
        Flat leaves;
        flatten(it.value(), it.key(), leaves);
        for (const auto& [key, value] : leaves) {
            // null removes a field (a JSON merge patch); a path through a value is no field.
            if (!(value.is_null() ? erase_path(doc, key) : set_path(doc, key, value))) {
                const std::string name = key.empty() ? "\"\"" : io::quoted_excerpt(key);
                note(Error{name, name + " is not a config field"});
                continue;
            }
            given.push_back(key);
        }
    }
    Config read;
    const bool ok = read_given(base, base_doc, doc, model, given, false, false, refused != nullptr, note, read);
    if (ok && (refused || bad.empty())) out = read;
    if (!bad.empty()) err = ok ? bad.front() : last;
    if (refused) *refused = bad;
    return ok && (refused || bad.empty());
}

bool patch_config_text(const Config& base, const std::string& text, Config& out, Error& err, std::vector<Error>* refused) {
    if (text.size() > io::kMaxMessageBytes) {
        err = Error{"inputs", "the inputs are " + std::to_string(text.size()) + " bytes of JSON; at most " +
                                  std::to_string(io::kMaxMessageBytes) + " are read"};
        return false;
    }
    if (!io::valid_utf8(text)) {
        err = Error{"inputs", "the inputs must be valid UTF-8 text"};
        return false;
    }
    const json patch = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (patch.is_discarded() || !patch.is_object()) {
        err = Error{"config", "the inputs must be a JSON object (a config patch)"};
        return false;
    }
    return patch_config(base, patch, out, err, refused);
}

// [SECTION] embedding keys ------------------------------------------------------------------------
namespace {

// "https://docs.example.com", "http://127.0.0.1:8080": an origin as URL.origin writes it.
bool exact_origin(const std::string& o) {
    struct Scheme {
        const char* name;
        const char* default_port;
    };
    static const Scheme kSchemes[] = {{"https", "443"}, {"http", "80"}, {"wss", "443"}, {"ws", "80"}, {"ftp", "21"}};
    for (const Scheme& scheme : kSchemes) {
        const std::string prefix = std::string(scheme.name) + "://";
        if (o.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = o.substr(prefix.size());
        size_t host_end = rest.size();
        if (!rest.empty() && rest[0] == '[') {  // an IPv6 address
            host_end = rest.find(']');
            if (host_end == std::string::npos || host_end == 1) return false;
            for (size_t i = 1; i < host_end; ++i) {
                const char c = rest[i];
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == ':' || c == '.')) return false;
            }
            ++host_end;
        } else {
            host_end = rest.find(':');
            if (host_end == std::string::npos) host_end = rest.size();
            if (host_end == 0) return false;
            for (size_t i = 0; i < host_end; ++i) {
                const char c = rest[i];
                if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
            }
        }
        if (host_end == rest.size()) return true;
        if (rest[host_end] != ':') return false;
        const std::string port = rest.substr(host_end + 1);
        if (port.empty() || port.size() > 5 || port[0] == '0' || port == scheme.default_port) return false;
        for (const char c : port)
            if (c < '0' || c > '9') return false;
        return std::stol(port) <= 65535;
    }
    return false;
}

// "a, b,,c" -> {"a", "b", "c"}
std::vector<std::string> list_items(const std::string& s) {
    std::vector<std::string> out;
    for (const std::string& item : split(s, ',')) {
        const size_t a = item.find_first_not_of(" \t\n\r\f\v");
        if (a == std::string::npos) continue;
        out.push_back(item.substr(a, item.find_last_not_of(" \t\n\r\f\v") - a + 1));
    }
    return out;
}

}  // namespace

EmbedKeys decode_embed_keys(const std::string& fragment, Error& err) {
    err = Error{};
    EmbedKeys out;
    if (fragment.size() > io::kMaxLinkChars) return out;  // decode_fragment names it
    auto note = [&err](const Error& e) {
        if (err.field.empty()) err = e;
    };
    std::string text = fragment;
    if (!text.empty() && text[0] == '#') text.erase(0, 1);
    for (const std::string& part : split(text, '&')) {
        const size_t eq = part.find('=');
        const std::string key = percent_decode(part.substr(0, eq));
        if (key != "lock" && key != "origins" && key != "id") continue;
        const std::string raw = eq == std::string::npos ? "" : percent_decode(part.substr(eq + 1));
        Error bad;
        if (!io::check_text(key, raw, io::kMaxLinkChars, bad)) {
            note(bad);
            continue;
        }
        if (key == "lock") {
            out.locked = list_items(raw);
        } else if (key == "origins") {
            for (const std::string& o : list_items(raw)) {
                if (exact_origin(o)) out.origins.push_back(o);
                else note(Error{"origins", "\"" + io::quoted_excerpt(o) + "\" is not an origin (scheme://host[:port])"});
            }
        } else {
            out.id = raw;
        }
    }
    return out;
}

}  // namespace vc::shell
