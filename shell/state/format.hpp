// vramcalc shell state: numbers for display. Sizes are bytes in the engine and GB (1e9) or GiB
// (2^30) here, always with the unit's label.
#pragma once

#include <string>

namespace vc::shell {

// "14.00 GB", "1,234.5 GB", "12,345 GiB": two decimals below 1,000, one below 10,000, none above.
std::string format_size(double bytes, bool gib);
// The number alone, as format_size writes it ("14.00").
std::string format_size_value(double bytes, bool gib);
inline const char* unit_label(bool gib) { return gib ? "GiB" : "GB"; }
// "306,432,000,000 bytes"
std::string format_exact_bytes(double bytes);
// Whole numbers with thousands separators ("131,072"); others with up to 4 significant digits.
std::string format_count(double v);
// "47.3%"
std::string format_percent(double share);
// A metric or answer value in its unit: bytes as a size, seconds as ms or s, tokens/s, counts.
std::string format_value(double v, const std::string& unit, bool gib);
// "$14.40/h"
std::string format_price_per_hour(double usd);
// The engine's text (formulas, explanations, notes) with every size written "<number> GB" or
// "<number> GiB" restated in the unit shown: "2.10 GB per layer" -> "1.96 GiB per layer". Names
// such as "H100 80GB" (no space) and other units stay as they are.
std::string sizes_in_unit(const std::string& text, bool gib);
// An engine message "..., got 2147483647" restated with the value a user typed ("got 1e+30",
// "got not a number"): a whole-number field clamps what it cannot hold before the engine sees it.
std::string with_typed_value(const std::string& message, double typed);

}  // namespace vc::shell
