# vramcalc web build (included by the top-level CMakeLists.txt when EMSCRIPTEN): the ImGui shell
# over Emscripten's GLFW on WebGL2, plus the Embind bindings, linked as app.js + app.wasm into
# build/wasm/site/ next to our own index.html and JS glue. Emscripten 3.1.6 quirks:
# /work/shared/TOOLCHAIN.md (NODE_PATH for acorn; -o app.js, not .html, at -O2 and above).
include(${CMAKE_SOURCE_DIR}/shell/shell.cmake)

set(VC_SITE_DIR "${CMAKE_BINARY_DIR}/site")
set(VC_WEB_FLAGS -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
target_compile_definitions(imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)  # WebGL2 = GL ES 3.0, GLSL "#version 300 es"

add_executable(app ${CMAKE_SOURCE_DIR}/shell/main.cpp ${CMAKE_SOURCE_DIR}/web/bindings.cpp)
target_link_libraries(app PRIVATE vc_shell vc_io)
target_compile_options(app PRIVATE -Os)
target_link_options(app PRIVATE ${VC_WEB_FLAGS} -Os --bind
  -sENVIRONMENT=web -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=0
  -sDYNAMIC_EXECUTION=0  # no eval / new Function: the page's Content-Security-Policy forbids them
  --js-library ${CMAKE_SOURCE_DIR}/web/library_vramcalc.js)
set_property(TARGET app APPEND PROPERTY LINK_DEPENDS ${CMAKE_SOURCE_DIR}/web/library_vramcalc.js)
set_target_properties(app PROPERTIES OUTPUT_NAME app SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${VC_SITE_DIR})

# The page and its glue are our own files, copied next to app.js.
set(VC_WEB_STATIC index.html vramcalc.js)
set(VC_SITE_FILES "")
foreach(f ${VC_WEB_STATIC})
  add_custom_command(OUTPUT ${VC_SITE_DIR}/${f}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${CMAKE_SOURCE_DIR}/web/${f} ${VC_SITE_DIR}/${f}
    DEPENDS ${CMAKE_SOURCE_DIR}/web/${f} VERBATIM)
  list(APPEND VC_SITE_FILES ${VC_SITE_DIR}/${f})
endforeach()
add_custom_target(site ALL DEPENDS ${VC_SITE_FILES} app)
