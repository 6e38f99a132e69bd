// vramcalc io: docs and declarations generated from the field table (see fields_doc.hpp).
#include "fields_doc.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/fields.hpp"
#include "field_json.hpp"

namespace vc::io {

using nlohmann::json;

namespace {

const char* kind_word(const FieldDef& f) {
    switch (f.kind) {
        case FieldKind::Int: return "int";
        case FieldKind::Number: return f.whole ? "int" : "number";
        case FieldKind::Bool: return "bool";
        case FieldKind::Toggle: return "bool or null";
        case FieldKind::Text: return "string";
        case FieldKind::Enum: return "string";
        case FieldKind::Object: return f.ts_type && std::string(f.ts_type).rfind("boolean | ", 0) == 0 ? "bool or object" : "object";
        case FieldKind::List: return "array";
    }
    return "";
}

std::string code(const std::string& s) { return "`" + s + "`"; }

// The default as docs show it: the field's words, else the default Config's value.
std::string default_text(const FieldDef& f) {
    if (f.def) return f.def;
    if (f.kind == FieldKind::Object || f.kind == FieldKind::List || !f.has_member()) return "";
    static const Config c = Config();  // copy-initialised: `c{}` gives GCC 12 -O3 a false -Wmaybe-uninitialized
    const json v = field_json(c, f);
    if (v.is_null()) return "null";
    if (v.is_string()) return v.get<std::string>().empty() ? "none" : code(v.get<std::string>());
    if (v.is_number_float()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.10g", v.get<double>());
        return buf;
    }
    return v.dump();
}

std::string accepted_text(const FieldDef& f) {
    if (f.kind == FieldKind::Enum) {
        std::string listed, also;
        for (const auto& n : f.names) (n.listed ? listed : also) += (n.listed ? (listed.empty() ? "" : ", ") : (also.empty() ? "" : ", ")) + code(n.name);
        return also.empty() ? listed : listed + " (also " + also + ")";
    }
    return field_range_text(f);
}

std::string cell(std::string s) {
    for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
    return s;
}

std::string key_of(const FieldDef& f) { return f.key(); }

// The table a section belongs to: a request's own section (plan, plan.search, ...) or the config's.
FieldList table_of(const std::string& section) {
    return !section.empty() && find_request_field(section.c_str()) ? request_fields() : config_fields();
}

// "inference.llamacpp.mmproj" -> "InferenceLlamacppMmprojConfig"; "" -> "Config".
std::string interface_name(const std::string& section) {
    std::string out;
    bool up = true;
    for (char c : section) {
        if (c == '.' || c == '_') {
            up = true;
            continue;
        }
        out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        up = false;
    }
    return out + "Config";
}

std::string ts_type(const FieldDef& f) {
    if (f.ts_type) return f.ts_type;
    switch (f.kind) {
        case FieldKind::Int:
        case FieldKind::Number: return f.null_when_negative ? "number | null" : "number";
        case FieldKind::Bool: return "boolean";
        case FieldKind::Toggle: return "boolean | null";
        case FieldKind::Text: return "string";
        case FieldKind::Enum: {
            std::string s;
            for (const auto& n : f.names) s += (s.empty() ? "'" : " | '") + std::string(n.name) + "'";
            return s;
        }
        case FieldKind::Object: return interface_name(f.path);
        case FieldKind::List: return "unknown[]";
    }
    return "unknown";
}

std::string ts_comment(const FieldDef& f) {
    std::string s = f.meaning;
    const std::string d = default_text(f), a = f.kind == FieldKind::Enum ? "" : accepted_text(f);
    std::string extra;
    if (!d.empty()) extra += "default " + d;
    if (!a.empty()) extra += (extra.empty() ? "" : "; ") + a;
    if (!extra.empty()) s += " (" + extra + ")";
    for (size_t i = 0; (i = s.find("*/", i)) != std::string::npos;) s.replace(i, 2, "* /");
    std::string out;
    for (char c : s) out += c == '`' ? '\'' : c;
    return out;
}

}  // namespace

std::string fields_markdown(const std::string& section) {
    std::string out = "| field | type | default | accepted | meaning |\n| --- | --- | --- | --- | --- |\n";
    for (const FieldDef* f : section_fields(section, table_of(section)))
        out += "| " + code(key_of(*f)) + " | " + kind_word(*f) + " | " + cell(default_text(*f)) + " | " + cell(accepted_text(*f)) + " | " +
               cell(f->meaning) + " |\n";
    return out;
}

std::string fields_typescript(const std::string& root) {
    const FieldList table = table_of(root);
    std::string out;
    // Sections in table order, the document (or the request's section) first; an object typed
    // "boolean | ItsInterface" gets its interface too.
    std::vector<std::string> sections{root};
    for (const auto& f : table)
        if (f.kind == FieldKind::Object && f.path != root && (!f.ts_type || std::string(f.ts_type).find(interface_name(f.path)) != std::string::npos))
            sections.push_back(f.path);
    for (const std::string& s : sections) {
        out += s.empty() ? "/** The config document (docs/config.md). Every field is optional; unknown fields are errors. */\n"
                         : "/** \"" + s + "\": " + std::string(find_any_field(s.c_str())->meaning) + " */\n";
        out += "export interface " + interface_name(s) + " {\n";
        // A field whose default is "required" must be given whenever its object is.
        for (const FieldDef* f : section_fields(s, table))
            out += "    /** " + ts_comment(*f) + " */\n    " + key_of(*f) + (f->def && std::string(f->def) == "required" ? ": " : "?: ") + ts_type(*f) + ";\n";
        if (s.empty()) out += "    /** Requests of other entry points (plan()) add their own sections. */\n    [section: string]: unknown;\n";
        out += "}\n";
        if (&s != &sections.back()) out += "\n";
    }
    return out;
}

std::string fields_flag_help(size_t width, FieldList table) {
    constexpr size_t kIndent = 25;  // the text column, as the hand-written part of --help has it
    auto plain = [](std::string t) {
        std::string out;
        for (char c : t)
            if (c != '`') out += c;
        return out;
    };
    std::string out;
    for (const auto& f : table) {
        if (!f.flags) continue;
        std::string left = "  ";
        std::istringstream spellings(f.flags);
        bool first = true;
        for (std::string w; spellings >> w; first = false) left += (first ? "" : ", ") + w;
        // An object set by a flag is switched on by it (plan.pareto): no value.
        left += f.kind == FieldKind::Object ? "" : f.kind == FieldKind::Enum ? " NAME" : f.kind == FieldKind::Text || f.kind == FieldKind::List ? " TEXT" : " N";
        std::string text = std::string(f.meaning) + " (" + f.path;
        const std::string a = plain(accepted_text(f)), d = plain(default_text(f));
        if (!a.empty()) text += ": " + a;
        if (!d.empty()) text += (a.empty() ? ": default " : "; default ") + d;
        text += ")";
        // Word-wrapped, continuation lines under the text column.
        std::string line = left.size() + 1 < kIndent ? left + std::string(kIndent - left.size(), ' ') : left + "\n" + std::string(kIndent, ' ');
        size_t col = line.size() - (line.rfind('\n') == std::string::npos ? 0 : line.rfind('\n') + 1);
        std::istringstream words(text);
        bool at_start = true;
        for (std::string w; words >> w;) {
            if (!at_start && col + 1 + w.size() > width) {
                line += "\n" + std::string(kIndent, ' ');
                col = kIndent;
                at_start = true;
            }
            if (!at_start) {
                line += ' ';
                ++col;
            }
            line += w;
            col += w.size();
            at_start = false;
        }
        out += line + "\n";
    }
    return out;
}

json fields_json() {
    json out = json::array();
    // The config table, then the request table (marked "request": true: plan.*).
    for (const FieldList table : {config_fields(), request_fields()})
        for (const auto& f : table) {
            json j = {{"path", f.path}, {"type", kind_word(f)}, {"meaning", f.meaning}, {"default", default_text(f)}, {"accepted", accepted_text(f)}};
            if (*f.unit) j["unit"] = f.unit;
            if (f.flags) j["flags"] = f.flags;
            if (const char* why = off_page_reason(f)) j["off_page"] = why;
            if (f.ranged) j["range"] = {f.min, f.max};
            if (f.kind == FieldKind::Enum) {
                json names = json::array();
                for (const auto& n : f.names) names.push_back(n.name);
                j["values"] = names;
            }
            if (table.first == request_fields().first) j["request"] = true;
            out.push_back(j);
        }
    return out;
}

bool generated_block(const std::string& format, const std::string& arg, std::string& out) {
    if (format == "ts" && (arg.empty() || find_request_field(arg.c_str()))) {
        out = fields_typescript(arg);
        return true;
    }
    if (format == "md") {
        const std::string section = arg == "." ? "" : arg;
        if (!section.empty() && !find_any_field(section.c_str())) return false;
        out = fields_markdown(section);
        return true;
    }
    return false;
}

bool regenerate(std::string& text, std::string& changed, std::string& error) {
    static const std::string kBegin = "generated: vramcalc fields ", kEnd = "end generated";
    std::string out;
    size_t pos = 0;
    while (true) {
        const size_t b = text.find(kBegin, pos);
        if (b == std::string::npos) break;
        const size_t line_end = text.find('\n', b);
        if (line_end == std::string::npos) return error = "a begin marker ends the file", false;
        // "md training -->" or "ts": the words up to the end of the line, less a closing comment.
        std::istringstream words(text.substr(b + kBegin.size(), line_end - b - kBegin.size()));
        std::string format, arg;
        words >> format >> arg;
        if (arg == "-->") arg.clear();
        const size_t e = text.find(kEnd, line_end);
        if (e == std::string::npos) return error = "no \"" + kEnd + "\" after the block " + format + " " + arg, false;
        const size_t e_line = text.rfind('\n', e);
        std::string block;
        if (!generated_block(format, arg, block)) return error = "unknown generated block \"" + format + " " + arg + "\"", false;
        const std::string old = text.substr(line_end + 1, e_line + 1 - (line_end + 1));
        if (old != block && changed.empty()) changed = format + " " + (arg.empty() ? "(all)" : arg);
        out += text.substr(pos, line_end + 1 - pos) + block;
        pos = e_line + 1;
    }
    out += text.substr(pos);
    text = out;
    return true;
}

}  // namespace vc::io
