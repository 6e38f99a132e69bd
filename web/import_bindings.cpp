// vramcalc web: the page's local model import (docs/import.md), called by web/import.js.
//   importIntoPage(bytes, name, size) -> the import document (io::import_to_json) of the first
//       bytes of a file of `size` bytes; {"ok":false, "need_bytes":N} asks for a longer slice.
//       Otherwise the page takes what was read (shell/state/model_file.hpp): `applied` says whether
//       the inputs changed, `page_message` is the line the model panel shows.
//   importFailed(message)             -> a file the browser could not read: the model panel says so
//   importMessage()                   -> {"message", "problem"}: the model panel's import line
// Nothing here fetches anything: the bytes come from File.slice in the page.
#include <emscripten/bind.h>

#include <string>

#include "io/config_json.hpp"
#include "io/model_import.hpp"
#include "shell/app.hpp"
#include "shell/platform.hpp"
#include "shell/state/model_file.hpp"

namespace {

using nlohmann::json;

void show(vc::shell::App& a, const std::string& message, bool problem) {
    a.import_message = message;
    a.import_problem = problem;
    vc::shell::platform::request_frames();
}

std::string import_into_page(const std::string& bytes, const std::string& name, double file_size) {
    const std::uint64_t size = file_size > 0 && file_size < 1.8e19 ? static_cast<std::uint64_t>(file_size) : 0;
    const vc::io::ModelImport r = vc::io::import_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name, size);
    json doc = vc::io::import_to_json(r);
    if (!r.ok && r.need_bytes > 0) return vc::io::dump(doc);
    vc::shell::App& a = vc::shell::app();
    vc::Config next;
    const vc::shell::ImportOutcome o = vc::shell::apply_import(a.inputs, r, next);
    if (o.applied) {
        a.inputs = next;
        vc::shell::mark_changed(a);
        a.publish_replace = false;  // an import is a new history entry: Back returns to the model before
    }
    show(a, o.message, o.problem);
    doc["applied"] = o.applied;
    doc["page_message"] = o.message;
    return vc::io::dump(doc);
}

void import_failed(const std::string& message) {
    show(vc::shell::app(), "Import failed, nothing changed: " + message, true);
}

std::string import_message() {
    const vc::shell::App& a = vc::shell::app();
    return vc::io::dump(json{{"message", a.import_message}, {"problem", a.import_problem}});
}

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc_import) {
    // std::string takes a Uint8Array's bytes as they are (Embind copies them, no UTF-8 decoding).
    emscripten::function("importIntoPage", &import_into_page);
    emscripten::function("importFailed", &import_failed);
    emscripten::function("importMessage", &import_message);
}
