// vramcalc CLI: flags. Each flag is written into the same JSON document a config file gives, so
// the CLI, the web page and the JS API share one validation path (io/config_json).
#include "flags.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

#include <algorithm>

#include "core/catalog/gpus.hpp"
#include "core/fields.hpp"
#include "core/model/model.hpp"
#include "core/model/presets.hpp"
#include "core/quant/quant.hpp"
#include "core/solve.hpp"
#include "core/text.hpp"
#include "../io/api_json.hpp"
#include "../io/config_json.hpp"
#include "../io/fields_doc.hpp"
#include "../io/json_syntax.hpp"
#include "../io/report.hpp"
#include "../io/solve_json.hpp"
#include "../io/text_input.hpp"
#include "model_file.hpp"

using nlohmann::json;

namespace vc::cli {

namespace {

// The hand-written part of --help: the commands, the flags that are not one field's value, and the
// output flags. The flags that set a field come from the field table (io::fields_flag_help).
const char* const kUsageIntro = R"(usage: vramcalc [options]                 estimate memory per GPU
       vramcalc solve QUESTION [options]  answer a what-fits question (--list-questions lists them)
       vramcalc validate FILE.csv         estimate vs measured per row (calibration CSV)
       vramcalc batch FILE.jsonl [--solve] one JSON config per line in, one JSON result per line out
       vramcalc suggest [options]          the smallest changes that make it fit --gpu within the target
       vramcalc fit-models [options] [--fitting]  every preset x format on --gpu, best quality first, what fits
       vramcalc plan [options]            rank every parallel layout of a cluster (plan --help)
       vramcalc fields [--format json|md|ts]   the config field table (docs/config.md)

Inputs (see docs/config.md):
  --config FILE|-        read a JSON config (flags below override its fields)
  --set PATH=VALUE       any config field by dotted path, VALUE as JSON (e.g. --set guide.bytes=1)
  --model-file PATH      the model from a local file: config.json, .gguf, .safetensors or
                         model.safetensors.index.json (only the header is read; repeat it to give
                         config.json with a weights file); flags override what it sets (docs/import.md)
  --checkpointing        quick: activation checkpointing on (checkpointing = true)
  -c, --ctx N            llama-server -c: context over all slots (inference.context = N / -np; also --ctx-size)
  -fa, --flash-attn on|off|auto  auto: on, off with -nkvo     (inference.llamacpp.flash_attn)
  -ts, --tensor-split A,B,...   one share per GPU              (inference.llamacpp.tensor_split)
  --cpu-moe, -cmoe       every layer's routed experts in system RAM
                         (inference.llamacpp.n_cpu_moe past the last layer; printed as --cpu-moe)
  -ot, --override-tensor PATTERN=TYPE[,...]   tensors whose GGUF name PATTERN matches go to buffer
                         type TYPE (CPU, CUDA0, CUDA1, ROCm0, Metal ...), first match wins; several
                         -ot add up (inference.llamacpp.override_tensor; docs/local.md has the regex subset)
  -nkvo, --no-kv-offload every layer's KV cache in system RAM (inference.llamacpp.no_kv_offload;
                         -kvo, --kv-offload: on the GPUs, the default)
  -fit, --fit on|off     llama-server's --fit (on): -ngl unset, it places the layers (inference.llamacpp.fit)
  -fitt, --fit-target MiB  memory --fit leaves free per GPU (inference.constants.ollama_fit_target_mib)
Fields (each flag sets the config field it names; llama-server's and vllm serve's own spellings
work too, so a launch command's flags read back):
)";

const char* const kUsageOutput = R"(Output:
  --format table|json    human table (default) or JSON with the breakdown in bytes
  --print-config         print the effective config as JSON and exit
  --print-import         print what --model-file read (architecture, missing keys, exact weights) and exit
  --list-presets --list-gpus --list-questions   (as JSON with --format json)
  --help --version
Exit status: 0 ok, 1 invalid input (the message names the field), 2 usage error.
)";

}  // namespace

std::string usage() { return kUsageIntro + io::fields_flag_help() + kUsageOutput; }

namespace {

bool read_all(const std::string& path, std::string& out) {
    if (path == "-") {
        out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        return true;
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

// Sets doc[a][b]... = value for a dotted path, creating objects on the way.
bool set_path(json& doc, const std::string& path, const json& value) {
    json* node = &doc;
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (key.empty()) return false;
        if (!node->is_object()) *node = json::object();
        if (dot == std::string::npos) {
            (*node)[key] = value;
            return true;
        }
        node = &(*node)[key];
        start = dot + 1;
    }
}

// A flag's value as JSON: numbers and booleans keep their type, anything else is a string.
json flag_value(const std::string& s) {
    json v = json::parse(s, nullptr, false);
    if (v.is_discarded()) return json(s);
    return v;
}

// A bad flag value is one line naming the flag and what it takes, as an unknown option is (below):
// the 140 lines of usage after it pushed the message off the screen.
int usage_error(const std::string& msg) {
    std::fprintf(stderr, "vramcalc: %s (vramcalc --help lists every option)\n", msg.c_str());
    return 2;
}

// Every option --help names (the field table's flags and this file's own), read from the usage
// text itself so the list cannot drift from it.
std::vector<std::string> known_options() {
    std::vector<std::string> out;
    const std::string u = usage();
    for (size_t i = 0; i < u.size(); ++i) {
        if (u[i] != '-' || (i > 0 && u[i - 1] != ' ' && u[i - 1] != ',' && u[i - 1] != '\n' && u[i - 1] != '(')) continue;
        size_t j = i;
        while (j < u.size() && u[j] == '-') ++j;
        if (j - i > 2 || j >= u.size() || !(u[j] >= 'a' && u[j] <= 'z')) continue;
        size_t k = j;
        while (k < u.size() && ((u[k] >= 'a' && u[k] <= 'z') || (u[k] >= '0' && u[k] <= '9') || u[k] == '-')) ++k;
        std::string name = u.substr(i, k - i);
        while (!name.empty() && name.back() == '-') name.pop_back();
        bool seen = false;
        for (const auto& o : out) seen = seen || o == name;
        if (!seen) out.push_back(name);
        i = k;
    }
    return out;
}

// An option no table or branch knows: its name, the nearest known ones, and where the list is
// (the whole usage after one mistyped flag would push the message off the screen).
int unknown_option(const std::string& a) {
    std::fprintf(stderr, "vramcalc: unknown option %s%s (vramcalc --help lists every option)\n", a.c_str(), did_you_mean(a, known_options()).c_str());
    return 2;
}

// A --set path checked against the field table: a declared field, or inside an object whose
// inside the table leaves to its reader (inference.weights_file.parts). Paths outside the config's
// sections (plan.* of `vramcalc plan`) are left to their reader. False with `err` naming the path,
// the nearest declared key and the section's keys.
bool check_set_path(const std::string& path, Error& err) {
    if (find_field(path)) return true;
    const size_t first = path.find('.');
    if (first == std::string::npos ? true : !find_field(path.substr(0, first))) {
        if (first != std::string::npos) return true;  // another request's section (plan.*)
    }
    // The deepest declared ancestor: opaque (a list or a typed object) takes anything inside.
    std::string section = path;
    const FieldDef* parent = nullptr;
    while (!parent) {
        const size_t dot = section.rfind('.');
        section = dot == std::string::npos ? "" : section.substr(0, dot);
        if (section.empty()) break;
        parent = find_field(section);
    }
    if (parent && (parent->kind != FieldKind::Object || parent->ts_type)) return true;
    const std::string key = path.substr(section.empty() ? 0 : section.size() + 1);
    std::string best, keys;
    const std::string typed = key.substr(0, key.find('.'));
    // A launch argument's own name (vLLM's max_model_len) for a field kept elsewhere: the field one of
    // whose CLI spellings it is (--max-model-len: inference.context).
    std::string flag = "--" + typed;
    std::replace(flag.begin(), flag.end(), '_', '-');
    if (const FieldDef* held = find_flag_field(flag)) {
        err = Error{path, "unknown field " + path + ": " + flag + " sets " + held->path + " (--set " + held->path + "=VALUE or " + flag +
                              " VALUE; docs/config.md)"};
        return false;
    }
    std::vector<std::string> names;
    for (const FieldDef* f : section_fields(section)) {
        names.push_back(f->key());
        keys += (keys.empty() ? "" : ", ") + names.back();
    }
    // A suggestion within a third of the key's edits; a prefix ("gpu_mem") counts as one edit.
    if (const auto near = nearest_names(typed, names, 1); !near.empty()) best = near[0];
    const std::string where = section.empty() ? "" : section + ".";
    err = Error{path, "unknown field " + path + (best.empty() ? "" : " (did you mean " + where + best + "?)") + "; " +
                          (section.empty() ? "top-level fields" : section) + ": " + keys + " (docs/config.md)"};
    return false;
}

// "3,1" or "10,6.5" as a JSON array of numbers (--tensor-split); false when a part is not a number.
bool number_list(const std::string& s, json& out) {
    out = json::array();
    size_t start = 0;
    while (true) {
        const size_t comma = s.find(',', start);
        const std::string part = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const json v = json::parse(part, nullptr, false);
        if (v.is_discarded() || !v.is_number()) return false;
        out.push_back(v);
        if (comma == std::string::npos) return true;
        start = comma + 1;
    }
}

// One line per preset: the count derived from its architecture beside the one its card states
// (as JSON: io/api_json.hpp, the documents the JS library gives).
void list_presets(bool as_json) {
    if (as_json) {
        std::printf("%s\n", io::dump(io::presets_to_json(), 2).c_str());
        return;
    }
    std::printf("%-20s %-28s %-10s %8s %5s %-9s %10s %10s\n", "id", "name", "family", "context", "dtype", "stored", "derived", "published");
    for (const auto& m : model_presets()) {
        auto r = resolve_model(m);
        const double derived_b = r.ok ? model_params(r.value).total / 1e9 : 0;
        // context: the model's context window in tokens; dtype: its checkpoint's ("-" when unknown); stored: the
        // quantized format its checkpoint stores ("-": unquantized)
        const std::string context = m.context_limit > 0 ? std::to_string(m.context_limit) : "-";
        const std::string dtype = m.checkpoint_dtype.empty() ? "-" : m.checkpoint_dtype;
        const std::string stored = m.checkpoint_format.empty() ? "-" : m.checkpoint_format;
        std::printf("%-20s %-28s %-10s %8s %5s %-9s %9.3fB %9.3fB\n", m.id.c_str(), m.name.c_str(), m.family.c_str(), context.c_str(),
                    dtype.c_str(), stored.c_str(), derived_b, m.published_params_b);
    }
}

void list_gpus(bool as_json) {
    if (as_json) {
        std::printf("%s\n", io::dump(io::gpus_to_json(), 2).c_str());
        return;
    }
    // Columns as wide as the longest id and name ("apple-m2-ultra-192gb" is past 16 bytes).
    int id_w = 0, name_w = 0;
    for (const auto& g : gpu_catalog()) id_w = std::max(id_w, static_cast<int>(g.id.size())), name_w = std::max(name_w, static_cast<int>(g.name.size()));
    for (const auto& g : gpu_catalog())
        std::printf("%-*s %-*s %s\n", id_w, g.id.c_str(), name_w, g.name.c_str(), io::format_bytes(g.memory_bytes, true).c_str());
}

// The what-fits questions of `vramcalc solve` and the tasks each answers.
void list_questions(bool as_json) {
    if (as_json) {
        std::printf("%s\n", io::dump(io::questions_to_json(), 2).c_str());
        return;
    }
    for (const auto& q : solve_questions()) std::printf("%-22s %-48s %s\n", q.id, q.label, q.tasks);
}

// The dotted paths of `j`'s leaves (an array is one leaf: -ts), as the field table spells them.
void leaf_paths(const json& j, const std::string& prefix, std::vector<std::string>& out) {
    if (!j.is_object()) {
        out.push_back(prefix);
        return;
    }
    for (auto it = j.begin(); it != j.end(); ++it) leaf_paths(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
}

}  // namespace

int parse_flags(int argc, char** argv, int first, Options& opt) {
    json overrides = json::object();
    std::string listing;
    std::vector<std::string> model_files;
    bool print_import = false;
    long long ctx_total = 0;  // -c: the context over all slots (0: not given)
    bool fa_auto = false;     // -fa auto (off with -nkvo, below)
    std::string override_tensor;  // -ot values so far, joined by commas
    Error bad_set;            // the first --set path the field table does not know
    Error bad_config;         // a --config file that is not a JSON object
    for (int i = first; i < argc; ++i) {
        std::string a = argv[i];
        std::string v;
        auto need = [&](std::string& out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        if (a == "--help" || a == "-h") {
            std::fputs(usage().c_str(), stdout);
            return 0;
        } else if (a == "--version") {
            std::printf("vramcalc %s (config schema %d)\n", VRAMCALC_VERSION, io::kSchemaVersion);
            return 0;
        } else if (a == "--list-presets" || a == "--list-gpus" || a == "--list-questions") {
            listing = a;  // printed after every flag is read, in the --format given anywhere
        } else if (a == "--config") {
            if (!need(v)) return usage_error("--config needs a FILE or -");
            std::string text;
            if (!read_all(v, text)) {
                std::fprintf(stderr, "vramcalc: cannot read config file %s\n", v.c_str());
                return 2;
            }
            opt.doc = json::parse(text, nullptr, false);
            // Reported once every flag is read, so --format json (given before or after) applies.
            // (The JS library's words for the same text.)
            if (opt.doc.is_discarded())
                bad_config = Error{"config", io::not_json_message("the config", text)};
            else if (!opt.doc.is_object())
                bad_config = Error{"config", std::string("the config must be a JSON object, got a JSON ") + opt.doc.type_name()};
            if (!bad_config.field.empty()) opt.doc = json::object();
        } else if (a == "--format") {
            if (!need(opt.format) || (opt.format != "table" && opt.format != "json")) {
                // --format names the output; a weight format typed here (q4_k_m, gptq-int4) is --weights'.
                const bool weights = !opt.format.empty() && find_weight_format(opt.format) != nullptr;
                return usage_error("--format must be table or json (the output's format" +
                                   std::string(weights ? "; the weights' format \"" + opt.format + "\" is --weights" : "") + ")");
            }
        } else if (a == "-c" || a == "--ctx" || a == "--ctx-size") {
            // llama-server's -c is the context of all slots together; each of the -np slots gets
            // -c / -np (llama_context: n_ctx_seq = n_ctx / n_seq_max), set once every flag is read.
            json n;
            if (!need(v) || !(n = flag_value(v)).is_number_integer() || n.get<long long>() < 1)
                return usage_error(a + " needs a whole number of tokens, at least 1 (the context of all slots, as llama-server's -c; each slot's " +
                                   "inference.context = -c / -np, in " + field_range_text(*find_field("inference.context")) + ")" +
                                   (v.empty() ? std::string() : ", got \"" + v + "\""));
            ctx_total = n.get<long long>();
        } else if (a == "-fa" || a == "--flash-attn") {
            if (!need(v) || (v != "on" && v != "off" && v != "auto"))
                return usage_error(a + " needs on, off or auto (auto: on, as llama.cpp turns it on where supported)");
            set_path(overrides, "inference.llamacpp.flash_attn", v != "off");
            fa_auto = v == "auto";
        } else if (a == "--cpu-moe" || a == "-cmoe") {
            // llama-server --cpu-moe: every layer's routed experts in system RAM, i.e. --n-cpu-moe
            // past the last layer.
            set_path(overrides, "inference.llamacpp.n_cpu_moe", find_field("inference.llamacpp.n_cpu_moe")->max);
        } else if (a == "-ot" || a == "--override-tensor") {
            // llama-server -ot pattern=buffer_type[,...]: several flags add up in order (common/arg.cpp
            // pushes each pair onto tensor_buft_overrides), so their values join with commas. The
            // engine checks the patterns and buffer types (inference.llamacpp.override_tensor).
            if (!need(v) || v.empty()) return usage_error(a + " needs pattern=buffer_type pairs separated by commas (e.g. -ot \".ffn_.*_exps.=CPU\")");
            override_tensor += (override_tensor.empty() ? "" : ",") + v;
            set_path(overrides, "inference.llamacpp.override_tensor", override_tensor);
        } else if (a == "-nkvo" || a == "--no-kv-offload" || a == "-kvo" || a == "--kv-offload") {
            // llama-server's switch pair (common/arg.cpp: {"-kvo", "--kv-offload"}, {"-nkvo", "--no-kv-offload"}).
            set_path(overrides, "inference.llamacpp.no_kv_offload", a == "-nkvo" || a == "--no-kv-offload");
        } else if (a == "-fit" || a == "--fit") {
            // llama-server -fit on|off (on by default): -ngl unset, --fit places the layers.
            if (!need(v) || (v != "on" && v != "off")) return usage_error(a + " needs on or off (llama-server's --fit: with -ngl unset it places the layers)");
            set_path(overrides, "inference.llamacpp.fit", v == "on");
        } else if (a == "-fitt" || a == "--fit-target") {
            // llama-server -fitt MiB: the memory --fit leaves free per device (one value for all).
            json n;
            if (!need(v) || !(n = flag_value(v)).is_number() || n.get<double>() < 0)
                return usage_error(a + " needs one number of MiB, at least 0 (the memory --fit leaves free on each GPU; inference.constants.ollama_fit_target_mib)" +
                                   (v.empty() ? std::string() : ", got \"" + v + "\""));
            set_path(overrides, "inference.constants.ollama_fit_target_mib", n);
        } else if (a == "-ts" || a == "--tensor-split") {
            json list;
            if (!need(v) || !number_list(v, list)) return usage_error(a + " needs numbers separated by commas, one per GPU (e.g. 3,1)");
            set_path(overrides, "inference.llamacpp.tensor_split", list);
        } else if (a == "--checkpointing") {
            overrides["checkpointing"] = true;
        } else if (a == "--model-file") {
            if (!need(v)) return usage_error("--model-file needs a PATH");
            model_files.push_back(v);
        } else if (a == "--print-import") {
            print_import = true;
        } else if (a == "--print-config") {
            opt.print_config = true;
        } else if (a == "--set") {
            if (!need(v)) return usage_error("--set needs PATH=VALUE");
            auto eq = v.find('=');
            Error bad;
            // Text is checked where it enters (io/text_input.hpp): one line of UTF-8.
            if (eq != std::string::npos && (!io::check_text("--set path", v.data(), eq, io::kMaxTextFieldBytes, bad) ||
                                            !io::check_text(v.substr(0, eq), v.data() + eq + 1, v.size() - eq - 1, io::kMaxMessageBytes, bad)))
                return usage_error(bad.message);
            if (eq == std::string::npos || !set_path(overrides, v.substr(0, eq), flag_value(v.substr(eq + 1))))
                return usage_error("--set needs PATH=VALUE, got " + io::quoted_excerpt(v));
            if (bad_set.field.empty()) check_set_path(v.substr(0, eq), bad_set);
        } else {
            const FieldDef* field = find_flag_field(a);
            if (!field) return unknown_option(a);
            if (!need(v)) {
                const std::string range = field->kind == FieldKind::Enum ? enum_choices(field->names) : field_range_text(*field);
                return usage_error(a + " needs a value (" + field->path + (range.empty() ? "" : ": " + range) + ")");
            }
            Error bad;
            if (!io::check_text(field->path, v, io::kMaxMessageBytes, bad)) return usage_error(bad.message);
            // A text or enum field takes the word as typed (--gpu 4090 is the id "4090", not a number).
            const bool word = field->kind == FieldKind::Text || field->kind == FieldKind::Enum;
            set_path(overrides, field->path, word ? json(v) : flag_value(v));
        }
    }
    if (!bad_config.field.empty() && listing.empty()) {
        print_error(opt, bad_config);
        return 1;
    }
    if (!bad_set.field.empty() && listing.empty()) {
        print_error(opt, bad_set);
        return 1;
    }
    if (!listing.empty()) {
        const bool as_json = opt.format == "json";
        if (listing == "--list-presets") list_presets(as_json);
        else if (listing == "--list-gpus") list_gpus(as_json);
        else list_questions(as_json);
        return 0;
    }
    if (print_import && model_files.empty()) return usage_error("--print-import needs --model-file PATH");
    if (!model_files.empty()) {
        std::vector<io::ModelImport> parts;
        for (const auto& f : model_files) parts.push_back(import_file(f));
        const io::ModelImport r = io::merge_imports(parts);
        const json doc = io::import_to_json(r);
        if (print_import) {
            std::printf("%s\n", io::dump(doc, 2).c_str());
            return r.ok && r.complete ? 0 : 1;
        }
        if (!r.ok) {
            print_error(opt, r.error);
            return 1;
        }
        if (!r.complete) {
            print_error(opt, Error{"model", doc["message"].get<std::string>()});
            return 1;
        }
        // The file's model replaces the config's; its serving fields go under what the config has.
        const json& fragment = doc["config"];
        if (fragment.contains("model")) opt.doc["model"] = fragment["model"];
        if (fragment.contains("inference")) {
            if (!opt.doc.contains("inference") || !opt.doc["inference"].is_object()) opt.doc["inference"] = json::object();
            json merged = fragment["inference"];
            merged.merge_patch(opt.doc["inference"]);
            opt.doc["inference"] = merged;
        }
    }
    // llama-server's -ctk sets the K cache alone (V stays f16 without -ctv); the config's kv_dtype
    // is both unless kv_dtype_v says otherwise.
    const bool ctk = overrides.contains("inference") && overrides["inference"].contains("kv_dtype");
    const json& in_doc = opt.doc.contains("inference") ? opt.doc["inference"] : json();
    const bool ctv = (overrides.contains("inference") && overrides["inference"].contains("llamacpp") &&
                      overrides["inference"]["llamacpp"].contains("kv_dtype_v")) ||
                     (in_doc.is_object() && in_doc.contains("llamacpp") && in_doc["llamacpp"].is_object() && in_doc["llamacpp"].contains("kv_dtype_v"));
    if (ctk && !ctv) set_path(overrides, "inference.llamacpp.kv_dtype_v", json("f16"));
    // -fa auto with -nkvo: llama.cpp turns flash attention off (llama-context.cpp's auto check finds
    // the FA op on the CPU, off its layer's device: "fa_device_mismatch logic is wrong for
    // --no-kv-offload"), so the pair reads as -fa off.
    if (fa_auto && overrides.contains("inference") && overrides["inference"].contains("llamacpp") &&
        overrides["inference"]["llamacpp"].value("no_kv_offload", false))
        set_path(overrides, "inference.llamacpp.flash_attn", false);
    leaf_paths(overrides, "", opt.typed);
    opt.doc.merge_patch(overrides);
    if (ctx_total > 0) {
        // -c over -np slots (the config's concurrency, 1 when absent).
        const json* np = nullptr;
        if (opt.doc.contains("inference") && opt.doc["inference"].is_object() && opt.doc["inference"].contains("concurrency"))
            np = &opt.doc["inference"]["concurrency"];
        const long long slots = np && np->is_number_integer() && np->get<long long>() > 0 ? np->get<long long>() : 1;
        if (ctx_total < slots) return usage_error("-c " + std::to_string(ctx_total) + " gives each of the " + std::to_string(slots) + " slots (-np) no token");
        set_path(opt.doc, "inference.context", json(ctx_total / slots));
        opt.typed.push_back("inference.context");
    }
    return -1;
}

void print_error(const Options& opt, const Error& err) {
    if (opt.format == "json") std::printf("%s\n", io::dump(io::error_to_json(err), 2).c_str());
    // Most messages begin with their field's name ("gpu \"x\" is not in the catalog"): not twice.
    const bool named = !err.field.empty() && err.message.compare(0, err.field.size(), err.field) == 0;
    if (named) std::fprintf(stderr, "vramcalc: %s\n", err.message.c_str());
    else std::fprintf(stderr, "vramcalc: %s: %s\n", err.field.c_str(), err.message.c_str());
}

bool load_config(const Options& opt, Config& out) {
    // No --method: the detailed model when the flags or the config set what only it reads (and no
    // --task with only inference fields: the inference task).
    json doc = opt.doc;
    io::complete_document(doc);
    auto cfg = io::config_from_json(doc);
    if (!cfg.ok) {
        print_error(opt, cfg.error);
        return false;
    }
    out = cfg.value;
    return true;
}

}  // namespace vc::cli
