// vramcalc web: the page's local model import (docs/import.md), called by web/import.js.
//   applyImport(docText) -> the page takes an import document (what web/api.js's importFile gives:
//       io::import_to_json, through the page's own importModel, web/engine_bindings.cpp) into its
//       inputs (shell/state/model_file.hpp); returns {"applied", "page_message"}.
//   importFailed(message) -> a file the browser could not read: the model panel says so
//   importMessage()       -> {"message", "problem"}: the model panel's import line
// Nothing here fetches anything: the bytes come from File.slice in the page.
#include <emscripten/bind.h>

#include <string>

#include "io/config_json.hpp"
#include "io/text_input.hpp"
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

std::string apply_import(const std::string& doc_text) {
    vc::shell::App& a = vc::shell::app();
    // The document is the library's own output; still read as untrusted text (a page script could
    // call this): valid UTF-8 JSON, parsed without exceptions.
    const json doc = vc::io::valid_utf8(doc_text) ? json::parse(doc_text, nullptr, /*allow_exceptions=*/false) : json();
    vc::Config next;
    const vc::shell::ImportOutcome o = vc::shell::apply_import(a.inputs, doc.is_discarded() ? json() : doc, next);
    if (o.applied) {
        a.inputs = next;
        vc::shell::mark_changed(a);
        a.publish_replace = false;  // an import is a new history entry: Back returns to the model before
    }
    show(a, o.message, o.problem);
    return vc::io::dump(json{{"applied", o.applied}, {"page_message", o.message}});
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
    emscripten::function("applyImport", &apply_import);
    emscripten::function("importFailed", &import_failed);
    emscripten::function("importMessage", &import_message);
}
