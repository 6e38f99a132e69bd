// vramcalc shell: what the shell asks of its host. On the web, web/platform_web.cpp implements
// these through the page's JS glue (web/vramcalc.js): the clipboard, downloads, the URL fragment
// and history, the accessible summary. The shell never touches the browser itself.
#pragma once

#include <string>

namespace vc::shell::platform {

// Copies `text` to the clipboard (navigator.clipboard on the web; GLFW's clipboard is a stub).
void copy_text(const std::string& text);
// Offers `content` as a file download named `filename` (a Blob URL on the web).
void download(const std::string& filename, const std::string& mime, const std::string& content);
// Publishes the state: the URL fragment (a history entry, or a replaced one when `replace`, e.g.
// after the page followed back/forward) and the accessible summary (JSON, see state/report.hpp
// accessible_summary_json) that the page renders into its hidden aria-live region.
void publish(const std::string& fragment, const std::string& summary_json, bool replace);
// The page's address without its fragment, for links.
std::string page_url();
// The fragment the page was opened with (without '#'), read once at start.
std::string initial_fragment();
// The browser's colour-scheme preference (prefers-color-scheme: dark).
bool prefers_dark();
// Opens the browser's file picker for a model file (web/import.js reads only its header and
// imports it); false where there is none (the desktop build, a page without web/import.js).
bool pick_model_file();

// Wakes the main loop to draw (the loop is idle while nothing changes). Implemented by main.cpp.
void request_frames();

}  // namespace vc::shell::platform
