// vramcalc core: units. The engine works in bytes; GB and GiB exist only for display.
#pragma once

namespace vc {

inline constexpr double kBytesPerGB = 1e9;                         // decimal gigabyte
inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;   // binary gibibyte, 2^30
inline constexpr double kBytesPerMiB = 1024.0 * 1024.0;           // 2^20

inline constexpr double gb_to_bytes(double gb) { return gb * kBytesPerGB; }
inline constexpr double gib_to_bytes(double gib) { return gib * kBytesPerGiB; }
inline constexpr double mib_to_bytes(double mib) { return mib * kBytesPerMiB; }
inline constexpr double bytes_to_gb(double bytes) { return bytes / kBytesPerGB; }
inline constexpr double bytes_to_gib(double bytes) { return bytes / kBytesPerGiB; }

}  // namespace vc
