// vramcalc shell: the application state, in plain structs. The UI (ui*.cpp) edits `inputs` and
// `ui`, marks the state changed, and draws `results`, which recompute() derives from the inputs
// only when they changed. The web bindings read the same structs for the page's test hook.
// Knows core/ only: no ImGui, no GLFW, no browser.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "core/fields.hpp"
#include "core/result.hpp"
#include "core/advice.hpp"
#include "core/fit_models.hpp"
#include "core/solve.hpp"
#include "core/status.hpp"
#include "state/sweep.hpp"
#include "state/view.hpp"

namespace vc::shell {

// Where a widget was drawn, in window (CSS) pixels: lets tests click the real widget. Ids are the
// config field an input edits ("batch", "parallel.tp"), with "/part" for its parts ("batch/inc"),
// or a named control ("task/inference", "copy_link").
struct WidgetRect {
    std::string id;
    float x = 0, y = 0, w = 0, h = 0;
};

// An input row as the page drew it this frame, for the page's text form (web/vramcalc.js mirrors
// the rows in HTML for screen readers): the config path it edits, its label, its choices (id,
// label) when it has any, and the error shown beside it. The row's range comes from the field
// table (core/fields.cpp) when the form is written (shell/state/report.cpp).
struct FormRow {
    std::string path, label;
    std::vector<std::pair<std::string, std::string>> options;
    std::string error;
    bool open = true;  // choices drawn now belong to it (closed at the row's end)
};

// How the UI is embedded. The page sets it (web/embed.js, from the URL fragment); the defaults are
// the full page.
struct EmbedOptions {
    bool compact = false;             // one narrow column (>= 320 px) for a docs page: no page header
    bool light = false;               // the widget's theme: light colours instead of dark (compact only;
                                      // the full page follows UiState::theme)
    std::vector<std::string> locked;  // config fields the visitor cannot edit ("batch", "model.layers";
                                      // "model" locks every model field)
};

// One method's result for the comparison strip.
struct MethodResult {
    Method method = Method::Quick;
    bool ok = false;
    Estimate estimate;
    Error error;
};

// One "what fits" question and its answer (or why it has none).
struct SolveResult {
    std::string question;
    std::string label;
    bool ok = false;
    Answer answer;
    Error error;
};

// One catalog GPU against the result: the method's own verdict where it gives one, else the
// per-GPU total over that GPU's memory (GPUs needed unknown: 0).
struct CatalogFit {
    GpuFit fit;
    bool from_method = false;
    // Training: the GPUs column is the detailed model's "Fewest GPUs" answer for this GPU (the
    // same solver as the answer shown for the chosen GPU), with its explanation.
    bool from_solver = false;
    std::string solver_note;
};

// Everything derived from the inputs. Kept while the inputs are invalid: the last valid result
// stays visible beside the error.
struct Results {
    bool valid = false;              // a result exists (the first valid inputs were seen)
    Estimate estimate;               // the chosen method's result
    double target_utilization = 0.75;  // the headroom target it was computed for (its budget, fits and answers)
    std::vector<CatalogFit> gpus;    // every catalog GPU, in catalog order
    std::vector<MethodResult> methods;   // Quick, Guide, Detailed on the same scenario
    std::vector<SolveResult> answers;    // what fits, on the chosen GPU
    std::vector<Suggestion> suggestions; // when it does not fit within the target: what to change (core/advice.hpp)
    Sweep by_batch, by_seq;          // chart series
    unsigned long generation = 0;    // bumps on every recompute that produced a new result
    bool complete = false;           // methods, answers and chart series are computed for the present inputs
    double compute_ms = 0;           // how long the last recompute took (all of the above)
    double compute_parts_ms[3] = {};  // ... of which: estimate + catalog, methods + answers, chart series
};

// A number row that shows its field in another unit than the field table's (the headroom target
// in %, bytes in MiB), as the row registers it (ui_widgets.cpp number()): the engine's message on
// that field is worded in the row's unit (recompute), as is the row's tooltip.
struct ShownUnit {
    std::string field;
    double per_unit = 1;  // shown value = the table's value x per_unit
    std::string unit;     // the row's unit ("%")
};
// The field as such a row shows it: its range (a negative sentinel minimum kept) and step scaled,
// in the row's unit (which `unit` must outlive the result).
FieldDef shown_field(const FieldDef& f, double per_unit, const char* unit);
struct App;
// An error on a field a row shows in another unit (App::shown_units), worded in that unit: "must be
// a number in [5, 100] %, got 300" for a share the link set to 3. Other errors stay as they are.
void word_in_shown_unit(const App& a, Error& e);
// The line above the form for a link read in part: its first left-out field with the reason (worded
// as its row shows it), then the others' fields. Empty when the last link was read whole.
std::string link_error_text(const App& a);

struct App {
    Config inputs;              // what the user set (every method reads its parts)
    UiState ui;
    Results results;
    Error error;                // why the current inputs have no result (field empty: none)
    std::vector<ShownUnit> shown_units;  // the rows in another unit than the table's (kept: a field's unit never changes)
    // A whole-number field given what it cannot hold (NaN, 1e30): the value as typed, for the
    // message beside the field (the engine sees the clamped int).
    std::string typed_field;
    double typed_value = 0;
    // A number being typed into (its field id and the value its text reads so far): nothing
    // applies until Enter or leaving the field, so "1e30" never applies its prefix "1e3" and the
    // last valid result stays the one before the edit (Escape drops the edit).
    std::string typing_field;
    double typing_value = 0;
    bool dirty = true;          // inputs changed since the last recompute
    // NOTE: at start the first frame shows the estimate, and the comparison, the answers and the
    // chart series (several times the estimate's work, cold code) follow on the next frame.
    bool defer_extras = false;
    unsigned long version = 0;  // bumps on every change of the inputs
    bool publish = true;        // the URL fragment and the accessible summary need an update
    bool publish_replace = true;  // ... replacing the history entry (state came from the URL itself)
    std::string notice;         // a one-line message for the user (e.g. "Link copied")
    std::string link_error;     // why a shared link (or part of it) could not be read (shown until the next edit)
    std::vector<Error> link_left_out;  // ... every key of it not applied (field, why), each marked beside its field;
                                       // also a widget `set` message's values not applied (web/shell_bindings.cpp)
    std::string left_out_from = "the link";  // where link_left_out came from, as its fields' marks say
    // The last model file imported on the page (state/model_file.hpp): what was read, or why not,
    // shown in the model panel until the next import or a choice of model; `import_problem` shows
    // it as an error (a file that could not be read, or keys the architecture lacks).
    std::string import_message;
    bool import_problem = false;
    unsigned long frames_drawn = 0;   // frames rendered since start (the page is idle when this stays flat)
    unsigned long complete_frames = 0;  // ... of which drawn with every result (see defer_extras)
    bool idle = false;          // the main loop is paused: every frame an event asked for is drawn
    std::vector<WidgetRect> widgets;  // filled by the UI every frame
    std::vector<std::vector<std::string>> wrapped;  // ... and the lines of each text it wrapped (tests read where lines break)
    std::vector<FormRow> form_rows;   // ... and the input rows, in the order drawn
    // The widget keyboard navigation is on (its registry id, "" for none) and whether its focus
    // outline shows (a key moved it: ImGui hides it after a mouse click).
    std::string focus_id;
    bool focus_visible = false;
    EmbedOptions embed;
    // "Models that fit" (core/fit_models.hpp): computed only while its panel is open (hundreds of
    // estimates), for the inputs of `model_fits_version`; `model_fits_error` says why there is none.
    ModelFits model_fits;
    std::string model_fits_error;
    unsigned long model_fits_version = 0;
    bool model_fits_ready = false;
    unsigned long revision = 0;       // counts recompute() calls: the page posts the result when it moves
    float content_height_px = 0;      // height the UI's content needs at the current width (iframe auto-size)
    bool embed_requested = false;     // the Embed button was pressed; the page copies a snippet and clears it
};

// The one application state (the shell's main and the web bindings share it).
App& app();

// The starting inputs (also what a link's fragment is written against).
Config default_inputs();

// Whether the visitor may not edit `field` (EmbedOptions::locked names it or a section above it).
bool is_locked(const App& a, const std::string& field);

// Asks the main loop to draw the next few frames (main.cpp): call after changing the App from
// outside the UI (the page's JS, through web/shell_bindings.cpp).
void wake();

// Marks the inputs changed: the next results() call recomputes.
inline void mark_changed(App& a) {
    a.dirty = true;
    a.version++;
    a.publish = true;
    a.link_error.clear();
    a.link_left_out.clear();
    a.notice.clear();
}

// Applies a URL fragment (a shared link, back/forward): the state becomes the link's, except for the
// keys that could not be read (`a.link_error` names the first with its reason and the others'
// fields, `a.link_left_out` lists each with its reason, marked beside its field); when nothing of it
// can be applied (an unknown version, too long) the state is left as it is. Returns whether it
// applied (decode_fragment).
bool apply_fragment(App& a, const std::string& fragment);

// Every catalog GPU against an estimate (see CatalogFit).
std::vector<CatalogFit> catalog_fits(const Estimate& e, double target_utilization);

// Runs the engine on `a.inputs`: on success replaces the results and clears the error (the rest
// follows with complete_results() unless `a.defer_extras`), otherwise keeps the last valid results
// and records the error.
void recompute(App& a);

// The rest of the results for the present inputs (the comparison of methods, the what-fits
// answers, the chart series), unless they are computed already.
void complete_results(App& a);

// The results, recomputed first when the inputs changed.
inline const Results& results(App& a) {
    if (a.dirty) recompute(a);
    return a.results;
}

}  // namespace vc::shell
