# vramcalc shell state: the shell's pure part (no ImGui, no browser): application state, shared
# inputs across methods, the URL fragment, summaries and exports, chart series. Built for the web
# app and natively for the unit tests (tests/unit/test_shell_*.cpp).
if(NOT TARGET vc_shell_state)
  file(GLOB VC_SHELL_STATE_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/shell/app.cpp ${CMAKE_SOURCE_DIR}/shell/state/*.cpp)
  add_library(vc_shell_state STATIC ${VC_SHELL_STATE_SOURCES})
  target_link_libraries(vc_shell_state PUBLIC vc_io)
endif()
