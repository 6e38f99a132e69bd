// Catch2 v2 main for the unit tests, native and WebAssembly (where exceptions are off).
#define CATCH_CONFIG_MAIN
#include <catch.hpp>

#if defined(CATCH_CONFIG_DISABLE_EXCEPTIONS)
#include <cstdio>
#include <cstdlib>
namespace Catch {
[[noreturn]] void throw_exception(std::exception const& e) {
    std::fprintf(stderr, "Catch2 internal error: %s\n", e.what());
    std::abort();
}
}  // namespace Catch
#endif
