// vramcalc io: where and why a text is not JSON, for the messages of the readers that take JSON
// text (a config, a plan request, a model's config.json).
#pragma once

#include <string>

namespace vc::io {

// "line 3, column 5: syntax error while parsing object key - unexpected '}'; expected string
// literal" for text that is not JSON; "" for text that is (nlohmann's own parse error, read
// without exceptions through its SAX interface). The page's build (VRAMCALC_PAGE_BUILD) returns ""
// always.
std::string json_syntax_error(const std::string& text);

// ": " + json_syntax_error(text), or "" when it has none.
std::string json_syntax_suffix(const std::string& text);
// `what` + " is not valid JSON" + json_syntax_suffix(text): "the config is not valid JSON: line 1, ...".
std::string not_json_message(const std::string& what, const std::string& text);

}  // namespace vc::io
