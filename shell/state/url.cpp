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

#include "io/config_json.hpp"
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
        return v.dump();
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

// The model as a link writes it: a preset by its id alone, a parameter count alone, or the whole
// architecture.
json model_json(const Config& cfg) {
    switch (model_mode(cfg)) {
        case ModelMode::Preset: return json{{"preset", cfg.model.id}};
        case ModelMode::ParamsOnly: return json{{"params_b", cfg.model.params_override_b}};
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
std::string encode_fragment(const Config& cfg, const UiState& ui, const Config& base) {
    std::vector<std::pair<std::string, std::string>> pairs;
    Flat now, was;
    flatten(config_json(cfg), "", now);
    flatten(config_json(base), "", was);
    // Keys in the order the config document has them (method and task first, then the rest).
    for (const auto& [key, value] : now) {
        auto it = was.find(key);
        if (it == was.end() || it->second != value) pairs.emplace_back(key, value_text(value));
    }
    for (const auto& [key, value] : was)
        if (!now.count(key)) pairs.emplace_back(key, "null");
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
    std::stable_sort(pairs.begin(), pairs.end(), [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
    std::string out = "v=" + std::to_string(kFragmentVersion);
    for (const auto& [key, value] : pairs) out += "&" + percent_encode(key) + "=" + percent_encode(value);
    return out;
}

// [SECTION] decode --------------------------------------------------------------------------------
bool decode_fragment(const std::string& fragment, const Config& base, Config& cfg, UiState& ui, Error& err) {
    std::string text = fragment;
    if (!text.empty() && text[0] == '#') text.erase(0, 1);
    json doc = config_json(base);
    json model = model_json(base);
    bool model_given = false;
    bool optimizer_given = false, task_given = false;
    UiState view = ui;
    view.show_gib = false;
    view.theme = ThemeChoice::Auto;
    view.planner = PlannerView{};

    for (const std::string& part : split(text, '&')) {
        if (part.empty()) continue;
        const size_t eq = part.find('=');
        const std::string key = percent_decode(part.substr(0, eq));
        const std::string raw = eq == std::string::npos ? "" : percent_decode(part.substr(eq + 1));
        if (key == "config" || key == "lock" || key == "origins" || key == "id") {
            continue;  // the embedding keys: web/embed.js reads them (docs/embed.md)
        } else if (key == "v") {
            if (raw != std::to_string(kFragmentVersion)) {
                err = Error{"v", "the link's version v=" + raw + " is not known (this page reads v=" + std::to_string(kFragmentVersion) + ")"};
                return false;
            }
        } else if (key == "units") {
            if (raw != "gb" && raw != "gib") {
                err = Error{"units", "units must be gb or gib, got \"" + raw + "\""};
                return false;
            }
            view.show_gib = raw == "gib";
        } else if (key == "theme") {
            if (!parse_theme(raw, view.theme)) {
                err = Error{"theme", "theme must be auto, light or dark, got \"" + raw + "\""};
                return false;
            }
        } else if (key == "view" || key.rfind("plan.", 0) == 0) {
            if (!planner_fragment_key(key, raw, view.planner, err)) return false;
        } else if (key.rfind("model.", 0) == 0) {
            if (!model_given) model = json::object();
            model_given = true;
            if (!set_path(model, key.substr(6), value_from_text(raw))) {
                err = Error{key, key + " is not a field of the model"};
                return false;
            }
        } else {
            const json value = value_from_text(raw);
            optimizer_given |= key == "optimizer";
            task_given |= key == "task";
            // null: a key the defaults have and this state does not.
            if (!(value.is_null() ? erase_path(doc, key) : set_path(doc, key, value))) {
                err = Error{key, key + " is not a config field"};
                return false;
            }
        }
    }

    doc["model"] = model;
    // A link that sets the task and names no optimizer gets the task's own (as the task buttons
    // do): the config reader's default, not the starting state's training optimizer.
    if (task_given && !optimizer_given) doc.erase("optimizer");
    auto parsed = io::config_from_json(doc);
    if (!parsed.ok) {
        err = parsed.error;
        return false;
    }
    Config out = parsed.value;
    // A parameter count alone: rebuild the filled architecture the other methods read.
    if (out.model.params_override_b > 0 && out.model.id.empty() && out.model.layers == 0) use_params_only(out, out.model.params_override_b);
    else sync_model(out);
    cfg = out;
    ui.show_gib = view.show_gib;
    ui.theme = view.theme;
    ui.planner = view.planner;
    return true;
}

// [SECTION] patch ---------------------------------------------------------------------------------
bool patch_config(const Config& base, const nlohmann::json& patch, Config& out, Error& err) {
    if (!patch.is_object()) {
        err = Error{"config", "the inputs must be a JSON object (a config patch, docs/config.md)"};
        return false;
    }
    json doc = config_json(base);
    json model = model_json(base);
    json rest = patch;
    if (rest.contains("model")) {
        // A model in the patch replaces the model whole, as a link's model.* keys do (a preset is
        // not mixed with the old architecture).
        model = rest["model"];
        rest.erase("model");
    }
    doc.merge_patch(rest);
    if (!model.is_null()) doc["model"] = model;
    auto parsed = io::config_from_json(doc);
    if (!parsed.ok) {
        err = parsed.error;
        return false;
    }
    out = parsed.value;
    if (out.model.params_override_b > 0 && out.model.id.empty() && out.model.layers == 0) use_params_only(out, out.model.params_override_b);
    else sync_model(out);
    return true;
}

}  // namespace vc::shell
