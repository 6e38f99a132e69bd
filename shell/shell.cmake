# vramcalc shell: Dear ImGui (from IMGUI_DIR, GLFW + OpenGL3 backends), the embedded fonts and the
# shell library (UI). Included by web/web.cmake (WebGL2 page) and, when GLFW and OpenGL are
# installed, by a native build (a desktop window). main.cpp is added by the including file. The
# shell's pure state (vc_shell_state: app, scenario, URL, reports, sweeps) is defined in
# shell/state.cmake, which the native build includes too for its unit tests.
if(NOT EXISTS "${IMGUI_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui source not found in ${IMGUI_DIR}: run scripts/setup.sh (it fetches it)")
endif()

add_library(imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp ${IMGUI_DIR}/imgui_widgets.cpp
  ${IMGUI_DIR}/backends/imgui_impl_glfw.cpp ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR} ${IMGUI_DIR}/backends)
# No demo window, no imgui.ini or other file access (the page has no file system).
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS IMGUI_DISABLE_DEBUG_TOOLS IMGUI_DISABLE_FILE_FUNCTIONS
  IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
target_compile_options(imgui PRIVATE -w)

# Real fonts, subset at build time to the characters the UI draws (scripts/embed_font.mjs).
set(VC_FONT_DIR "/usr/share/fonts/truetype/dejavu" CACHE PATH "Where fonts-dejavu-core puts its TTFs")
# Unicode ranges (hex) kept in the embedded fonts: ASCII (the engine's and the UI's strings; Latin-1
# would add ~8 KB gzip) and the symbols the UI draws: degree, micro, middle dot, times, dashes,
# bullet, ellipsis, arrows, minus, math signs, small triangles, a dot, a check mark.
set(VC_FONT_RANGES "20-7E,B0,B5,B7,D7,2009,2013-2014,2022,2026,2190-2193,2212,2248,2264-2265,25B4,25B8,25BE,25CF,2713")
find_program(NODE_EXECUTABLE node REQUIRED)
set(VC_FONT_SOURCES "")
foreach(pair "DejaVuSans.ttf:Font" "DejaVuSans-Bold.ttf:FontBold")
  string(REPLACE ":" ";" parts ${pair})
  list(GET parts 0 ttf)
  list(GET parts 1 symbol)
  set(out "${CMAKE_BINARY_DIR}/generated/embedded_${symbol}.cpp")
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated
    COMMAND ${NODE_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/embed_font.mjs ${VC_FONT_DIR}/${ttf} ${out} ${VC_FONT_RANGES} ${symbol}
    DEPENDS ${CMAKE_SOURCE_DIR}/scripts/embed_font.mjs ${VC_FONT_DIR}/${ttf}
    COMMENT "Embedding a subset of ${ttf}" VERBATIM)
  list(APPEND VC_FONT_SOURCES ${out})
endforeach()

include(${CMAKE_SOURCE_DIR}/shell/state.cmake)

file(GLOB VC_SHELL_UI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/shell/ui*.cpp)
add_library(vc_shell STATIC ${VC_SHELL_UI_SOURCES} ${VC_FONT_SOURCES})
# The page's copy of the shell state where it has one (web/web.cmake VC_PAGE_SHELL_STATE).
if(NOT VC_PAGE_SHELL_STATE)
  set(VC_PAGE_SHELL_STATE vc_shell_state)
endif()
target_link_libraries(vc_shell PUBLIC ${VC_PAGE_SHELL_STATE} imgui)
