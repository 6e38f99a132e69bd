# vramcalc shell: Dear ImGui (from IMGUI_DIR, GLFW + OpenGL3 backends), the embedded font and the
# shell library (state + UI). Included by web/web.cmake (WebGL2 page) and, when GLFW and OpenGL are
# installed, by the native build (a desktop window). main.cpp is added by the including file.
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

# A real font, subset at build time to the characters the UI draws (scripts/embed_font.mjs).
set(VC_FONT_TTF "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" CACHE FILEPATH "TTF embedded in the shell (fonts-dejavu-core)")
# ASCII and a few symbols: the engine's and the UI's strings are ASCII (Latin-1 would add ~8 KB gzip).
set(VC_FONT_RANGES "20-7E,B0,B5,B7,D7,2013-2014,2022,2026,2190-2193,2248,2264-2265")  # Unicode ranges (hex) kept in the embedded font
set(VC_FONT_CPP "${CMAKE_BINARY_DIR}/generated/embedded_font.cpp")
find_program(NODE_EXECUTABLE node REQUIRED)
add_custom_command(OUTPUT ${VC_FONT_CPP}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated
  COMMAND ${NODE_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/embed_font.mjs ${VC_FONT_TTF} ${VC_FONT_CPP} ${VC_FONT_RANGES}
  DEPENDS ${CMAKE_SOURCE_DIR}/scripts/embed_font.mjs ${VC_FONT_TTF}
  COMMENT "Embedding a subset of ${VC_FONT_TTF}" VERBATIM)

add_library(vc_shell STATIC ${CMAKE_SOURCE_DIR}/shell/app.cpp ${CMAKE_SOURCE_DIR}/shell/ui.cpp ${VC_FONT_CPP})
target_link_libraries(vc_shell PUBLIC vc_io imgui)
