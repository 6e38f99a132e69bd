# vramcalc web build (included by the top-level CMakeLists.txt when EMSCRIPTEN): the ImGui shell
# over Emscripten's GLFW on WebGL2, plus the Embind bindings, linked as app.js + app.wasm and packed
# into build/wasm/site/app.js (wasm inside, see below) next to our own index.html and JS glue.
# Emscripten 3.1.6 quirks:
# the team's toolchain notes (NODE_PATH for acorn; -o app.js, not .html, at -O2 and above).

# Copies of core/ and io/ with their own compile flags (the JS library's -O2 copies below, the page's
# link-time-optimised ones): vc_core_<suffix> and vc_io_<suffix>, built only when something links them.
function(vc_engine_copy suffix)
  add_library(vc_core_${suffix} STATIC EXCLUDE_FROM_ALL ${VC_CORE_SOURCES})
  target_include_directories(vc_core_${suffix} PUBLIC ${CMAKE_SOURCE_DIR})
  target_compile_definitions(vc_core_${suffix} PUBLIC VRAMCALC_VERSION="${PROJECT_VERSION}")
  add_library(vc_io_${suffix} STATIC EXCLUDE_FROM_ALL ${VC_IO_SOURCES})
  target_include_directories(vc_io_${suffix} SYSTEM PUBLIC ${SHIM_DIR})
  target_link_libraries(vc_io_${suffix} PUBLIC vc_core_${suffix})
  target_compile_definitions(vc_io_${suffix} PUBLIC JSON_NOEXCEPTION=1)
endfunction()

# Link-time optimisation of the page (issue 15; docs/performance.md "Link-time optimisation of the
# page alone": -9.2 KB gzip): with -flto the objects are LLVM bitcode, and every program linking them
# has an LTO link (one core). The wasm unit tests, the wasm CLI (the parity suite) and bench_training
# link vc_core, vc_io and vc_shell_state, so the page gets its own bitcode copies of them (vc_core_page,
# vc_io_page, vc_shell_state_page; ImGui and vc_shell are the page's alone; bench/'s page benchmarks
# link the copies, as the page does) and those links stay as they were. Named VC_PAGE_LTO before
# (OFF, and shared by all those links): a build folder configured then still holds that OFF.
option(VC_PAGE_LINK_LTO "Link the page (app.wasm) with link-time optimisation, from its own bitcode copies of core/io/shell state" ON)
set(VC_PAGE_LTO_FLAG "")
set(VC_PAGE_CORE vc_core)  # what the page links (and bench/'s page benchmarks)
set(VC_PAGE_IO vc_io)
set(VC_PAGE_SHELL_STATE vc_shell_state)  # what vc_shell links (shell/shell.cmake)
set(VC_PAGE_OWN_LIBS imgui vc_shell)  # the libraries only the page (and bench/'s bare page) links
if(VC_PAGE_LINK_LTO)
  set(VC_PAGE_LTO_FLAG -flto)
  vc_engine_copy(page)
  add_library(vc_shell_state_page STATIC EXCLUDE_FROM_ALL ${VC_SHELL_STATE_SOURCES})
  target_link_libraries(vc_shell_state_page PUBLIC vc_io_page)
  # The page's copy of the field tables keeps only the texts the page can show (core/fields.hpp;
  # docs/performance.md "The page's strings"): the CLI, the tests and the JS library link vc_core.
  target_compile_definitions(vc_core_page PRIVATE VRAMCALC_PAGE_BUILD)
  # (io/json_syntax.cpp: the page's "not valid JSON" names no line and column: -1.1 KB gzip.)
  target_compile_definitions(vc_io_page PRIVATE VRAMCALC_PAGE_BUILD)
  set(VC_PAGE_CORE vc_core_page)
  set(VC_PAGE_IO vc_io_page)
  set(VC_PAGE_SHELL_STATE vc_shell_state_page)
  list(APPEND VC_PAGE_OWN_LIBS vc_core_page vc_io_page vc_shell_state_page)
endif()
include(${CMAKE_SOURCE_DIR}/shell/shell.cmake)

# The page's download is the budget (issue 5; issue 15 asks 360 KB gzip; the budget's figure is in
# tests/browser/size.test.mjs):
# everything the page links is compiled for size (but for the planner's hot path below) and the app
# is linked with VC_PAGE_LINK_OPT: -O2 (was -Oz, 9 KB gzip less than -Os when it was chosen; with the
# planner's -O2 sources below, binaryen's -Oz pass made the planner ~1.9x slower than an -O2 link for
# 1.3 KB gzip; -O3 would cost 30 KB, docs/planner.md "Speed"). NOTE: compiling for size makes an
# estimate ~3x slower than a speed build (irrelevant for one estimate per keystroke); bench/ builds
# its own -O2 copy of core/ to time the engine itself.
# -Oz since branch sz (1.2 KB gzip less than -Os, docs/performance.md); named VC_PAGE_OPT
# before, a name a build folder configured then still holds at -Os: this one starts at -Oz there too.
set(VC_PAGE_LIB_OPT "-Oz" CACHE STRING "Optimisation flag the page's libraries are compiled with")
set(VC_PAGE_LINK_OPT "-O2" CACHE STRING "Optimisation flag the page is linked with (binaryen's passes at link)")
# No RTTI in the page (issue 15: 1.4 KB gzip of type names and typeinfo; nothing of ours uses typeid
# or dynamic_cast). Embind then keys its types by address and needs EMSCRIPTEN_HAS_UNBOUND_TYPE_NAMES=0
# (emscripten 3.1.6 system/include/emscripten/wire.h); its error for a type never bound names no type.
set(VC_PAGE_RTTI -fno-rtti)
# vc_core, vc_io and vc_shell_state as the wasm unit tests and CLI link them (the page too without
# LTO); bitcode (VC_PAGE_LTO_FLAG) only in what the page alone links.
foreach(t vc_core vc_io vc_shell_state)
  target_compile_options(${t} PRIVATE ${VC_PAGE_LIB_OPT} ${VC_PAGE_RTTI})
endforeach()
foreach(t ${VC_PAGE_OWN_LIBS})
  target_compile_options(${t} PRIVATE ${VC_PAGE_LIB_OPT} ${VC_PAGE_LTO_FLAG} ${VC_PAGE_RTTI})
endforeach()
# The cluster planner's hot path inside the page at -O2 (issue 11: the page's search within 2x of
# native; at -Os it was 3.8-8.5x): a layout is the training engine's memory (core/train, the model's
# parameter counts, the field table's range checks it runs on every call) and the step time
# (core/plan). Source options come after the target's, so -O2 wins on these files; the size this
# costs is in docs/planner.md.
set(VC_PAGE_SPEED_SOURCES core/plan/search.cpp core/plan/step_time.cpp core/plan/collectives.cpp core/train/training.cpp
  core/train/training_activations.cpp core/train/training_profiles.cpp core/model/model.cpp core/fields.cpp core/status.cpp
  core/catalog/cuda_context.cpp)
list(TRANSFORM VC_PAGE_SPEED_SOURCES PREPEND ${CMAKE_SOURCE_DIR}/)
set_source_files_properties(${VC_PAGE_SPEED_SOURCES} PROPERTIES COMPILE_OPTIONS -O2)

set(VC_SITE_DIR "${CMAKE_BINARY_DIR}/site")
set(VC_WEB_FLAGS -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
target_compile_definitions(imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)  # WebGL2 = GL ES 3.0, GLSL "#version 300 es"

# The engine's Embind functions (web/engine_bindings.cpp) are the JS library's too; the shell's own
# (state, links, embedding) are web/shell_bindings.cpp.
add_executable(app ${CMAKE_SOURCE_DIR}/shell/main.cpp ${CMAKE_SOURCE_DIR}/web/engine_bindings.cpp
  ${CMAKE_SOURCE_DIR}/web/shell_bindings.cpp ${CMAKE_SOURCE_DIR}/web/import_bindings.cpp
  ${CMAKE_SOURCE_DIR}/web/platform_web.cpp ${CMAKE_SOURCE_DIR}/web/imgui_no_default_font.cpp)
target_link_libraries(app PRIVATE vc_shell ${VC_PAGE_IO})
target_compile_definitions(app PRIVATE VRAMCALC_PAGE_BUILD)  # web/engine_bindings.cpp: the page's subset
target_compile_definitions(app PRIVATE GLFW_INCLUDE_ES3)     # GLFW includes GL ES 3 (WebGL2), not desktop GL
target_compile_options(app PRIVATE ${VC_PAGE_LIB_OPT} ${VC_PAGE_LTO_FLAG} ${VC_PAGE_RTTI})
target_compile_definitions(app PRIVATE EMSCRIPTEN_HAS_UNBOUND_TYPE_NAMES=0)  # with -fno-rtti (above); -fno-rtti at the link too: emcc then links libembind's no-RTTI variant, whose builtin types (std::string, val) carry the same ids (tools/system_libs.py libembind with_rtti)
# The JS glue goes through the Closure compiler (issue 15: 27.5 -> 17.0 KB gzip). Debian's Emscripten
# has none: npm's google-closure-compiler, the version Emscripten 3.1.6 was tested with
# (package.json; scripts/setup.sh runs npm ci), named to emcc by EM_CLOSURE_COMPILER.
find_program(VC_CLOSURE_COMPILER google-closure-compiler HINTS ${CMAKE_SOURCE_DIR}/node_modules/.bin NO_DEFAULT_PATH)
if(NOT VC_CLOSURE_COMPILER)
  message(FATAL_ERROR "google-closure-compiler not found in node_modules/.bin: run scripts/setup.sh (npm ci)")
endif()
set_property(TARGET app PROPERTY RULE_LAUNCH_LINK "${CMAKE_COMMAND} -E env EM_CLOSURE_COMPILER=${VC_CLOSURE_COMPILER}")
target_link_options(app PRIVATE ${VC_WEB_FLAGS} ${VC_PAGE_LINK_OPT} ${VC_PAGE_LTO_FLAG} ${VC_PAGE_RTTI} --closure 1 --bind
  -Wl,--wrap=_ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig  # web/imgui_no_default_font.cpp
  -sENVIRONMENT=web -sFILESYSTEM=0 -sMALLOC=emmalloc -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=0
  -sDYNAMIC_EXECUTION=0  # no eval / new Function: the page's Content-Security-Policy forbids them
  # No WebGL extension enabled at start: Emscripten's GL.initExtensions enables every one the browser
  # offers (src/library_webgl.js, 3.1.6): in Chromium 31 synchronous getExtension round trips to the GPU
  # process, 22-43 ms of main(); ImGui's ES3 renderer uses none (docs/performance.md, "The first frame").
  -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0
  --js-library ${CMAKE_SOURCE_DIR}/web/library_vramcalc.js)
set_property(TARGET app APPEND PROPERTY LINK_DEPENDS ${CMAKE_SOURCE_DIR}/web/library_vramcalc.js)
# A size profile (docs/performance.md): function names kept in the wasm for scripts/wasm_profile.mjs.
option(VC_PAGE_PROFILE "Link the page with --profiling-funcs (a larger wasm, for a size profile)" OFF)
if(VC_PAGE_PROFILE)
  target_link_options(app PRIVATE --profiling-funcs)
endif()
set_target_properties(app PROPERTIES OUTPUT_NAME app SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${VC_SITE_DIR})

# The page and its glue are our own files, copied next to app.js; the glue the page loads goes
# without its whole-line comments (web/pack.mjs glue: 3.4 KB gzip of the budget).
set(VC_WEB_STATIC index.html widget.html embed-demo.html embed-demo.js)
set(VC_WEB_GLUE vramcalc.js embed.js import.js)
set(VC_SITE_FILES "")
foreach(f ${VC_WEB_STATIC} ${VC_WEB_GLUE})
  if(f IN_LIST VC_WEB_GLUE)
    set(vc_copy ${NODE_EXECUTABLE} ${CMAKE_SOURCE_DIR}/web/pack.mjs glue ${CMAKE_SOURCE_DIR}/web/${f} ${VC_SITE_DIR}/${f})
  else()
    set(vc_copy ${CMAKE_COMMAND} -E copy_if_different ${CMAKE_SOURCE_DIR}/web/${f} ${VC_SITE_DIR}/${f})
  endif()
  add_custom_command(OUTPUT ${VC_SITE_DIR}/${f}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${VC_SITE_DIR}
    COMMAND ${vc_copy}
    DEPENDS ${CMAKE_SOURCE_DIR}/web/${f} ${CMAKE_SOURCE_DIR}/web/pack.mjs VERBATIM)
  list(APPEND VC_SITE_FILES ${VC_SITE_DIR}/${f})
endforeach()
add_custom_target(site ALL DEPENDS ${VC_SITE_FILES} app)

# --- embed, offline and the JS library (docs/embed.md) ------------------------------------------
# The widget's Content-Security-Policy forbids every fetch (connect-src 'none'), app.wasm included
# (a sandboxed iframe may not fetch its own server either): the app links into app-link/ and
# web/pack.mjs writes site/app.js with the wasm inside. The same files inlined into one page give
# the offline site/vramcalc.html. The hosted page fetches app.wasm (connect-src 'self').
set(VC_PACK ${CMAKE_SOURCE_DIR}/web/pack.mjs)
set(VC_APP_LINK_DIR "${CMAKE_BINARY_DIR}/app-link")
set_target_properties(app PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${VC_APP_LINK_DIR})
# NOTE: on a fresh build nothing else may have made site/ yet when the packing runs.
add_custom_command(OUTPUT ${VC_SITE_DIR}/app.js
  COMMAND ${CMAKE_COMMAND} -E make_directory ${VC_SITE_DIR}
  COMMAND ${NODE_EXECUTABLE} ${VC_PACK} app ${VC_APP_LINK_DIR}/app.js ${VC_APP_LINK_DIR}/app.wasm ${VC_SITE_DIR}/app.js
          ${CMAKE_SOURCE_DIR}/web/api.js
  DEPENDS app ${VC_PACK} ${CMAKE_SOURCE_DIR}/web/api.js COMMENT "Packing app.js with app.wasm inside" VERBATIM)
# The hosted page (index.html) loads app-stream.js, which fetches app.wasm beside it (issue 15).
add_custom_command(OUTPUT ${VC_SITE_DIR}/app-stream.js ${VC_SITE_DIR}/app.wasm
  COMMAND ${CMAKE_COMMAND} -E make_directory ${VC_SITE_DIR}
  COMMAND ${NODE_EXECUTABLE} ${VC_PACK} stream ${VC_APP_LINK_DIR}/app.js ${VC_APP_LINK_DIR}/app.wasm ${VC_SITE_DIR}/app-stream.js
          ${VC_SITE_DIR}/app.wasm ${CMAKE_SOURCE_DIR}/web/api.js
  DEPENDS app ${VC_PACK} ${CMAKE_SOURCE_DIR}/web/api.js COMMENT "Packing app-stream.js (app.wasm beside it)" VERBATIM)
add_custom_command(OUTPUT ${VC_SITE_DIR}/vramcalc.html
  COMMAND ${NODE_EXECUTABLE} ${VC_PACK} single ${VC_SITE_DIR} index.html ${VC_SITE_DIR}/vramcalc.html
  DEPENDS ${VC_SITE_DIR}/app.js ${VC_SITE_FILES} ${VC_PACK} COMMENT "Writing the single-file vramcalc.html" VERBATIM)
add_custom_target(site_packed DEPENDS ${VC_SITE_DIR}/app.js ${VC_SITE_DIR}/app-stream.js ${VC_SITE_DIR}/vramcalc.html)
add_dependencies(site site_packed)

# The JS library: core + io + Embind, no UI, as an ES module and a classic script (web/lib).
# It is compiled for speed, not size (issue 15: a detailed estimate from JS <= 100 us; -Os left the
# engine and nlohmann-json about 2.5x slower, with libc++'s one-line accessors not inlined): its own
# copies of core/ and io/ at -O2, linked with -O2. The benchmarks' wasm builds use them too (bench/).
vc_engine_copy(speed)
foreach(t vc_core_speed vc_io_speed)
  target_compile_options(${t} PRIVATE -O2)
endforeach()

set(VC_LIB_LINK_DIR "${CMAKE_BINARY_DIR}/lib-link")
set(VC_LIB_DIR "${CMAKE_BINARY_DIR}/lib")
add_executable(vramcalc_lib ${CMAKE_SOURCE_DIR}/web/engine_bindings.cpp)
target_link_libraries(vramcalc_lib PRIVATE vc_io_speed)
target_compile_options(vramcalc_lib PRIVATE -O2)
target_link_options(vramcalc_lib PRIVATE -O2 --bind -sMODULARIZE=1 -sEXPORT_NAME=VramCalcModule
  -sENVIRONMENT=web,worker  # Node runs it too: the wasm is handed in, so no environment I/O is used
  -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1 -sDYNAMIC_EXECUTION=0)
set_target_properties(vramcalc_lib PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${VC_LIB_LINK_DIR})
set(VC_LIB_FILES ${VC_LIB_DIR}/vramcalc.mjs ${VC_LIB_DIR}/vramcalc.js ${VC_LIB_DIR}/vramcalc.d.ts ${VC_LIB_DIR}/package.json)
add_custom_command(OUTPUT ${VC_LIB_FILES}
  COMMAND ${NODE_EXECUTABLE} ${VC_PACK} lib ${VC_LIB_LINK_DIR}/vramcalc_lib.js ${VC_LIB_LINK_DIR}/vramcalc_lib.wasm
          ${CMAKE_SOURCE_DIR}/web/api.js ${CMAKE_SOURCE_DIR}/web/lib/entry.js ${CMAKE_SOURCE_DIR}/web/lib/vramcalc.d.ts
          ${PROJECT_VERSION} ${VC_LIB_DIR}
  DEPENDS vramcalc_lib ${VC_PACK} ${CMAKE_SOURCE_DIR}/web/api.js ${CMAKE_SOURCE_DIR}/web/lib/entry.js
          ${CMAKE_SOURCE_DIR}/web/lib/vramcalc.d.ts
  COMMENT "Packing the JS library into ${VC_LIB_DIR}" VERBATIM)
add_custom_target(vramcalc_js ALL DEPENDS ${VC_LIB_FILES})
