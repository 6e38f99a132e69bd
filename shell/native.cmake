# vramcalc desktop window: the same ImGui shell over the system GLFW and OpenGL 3 (optional; built
# when libglfw3-dev, the OpenGL headers and the fetched ImGui source are present).
option(VRAMCALC_NATIVE_SHELL "Build vramcalc-gui, the desktop window (needs libglfw3-dev)" ON)
if(VRAMCALC_NATIVE_SHELL)
  find_package(glfw3 3.3 QUIET)
  find_package(OpenGL QUIET)
  if(glfw3_FOUND AND OPENGL_FOUND AND EXISTS "${IMGUI_DIR}/imgui.cpp")
    include(${CMAKE_SOURCE_DIR}/shell/shell.cmake)
    add_executable(vramcalc-gui ${CMAKE_SOURCE_DIR}/shell/main.cpp ${CMAKE_SOURCE_DIR}/shell/platform_native.cpp)
    target_link_libraries(vramcalc-gui PRIVATE vc_shell glfw OpenGL::GL)
  else()
    message(STATUS "vramcalc-gui (desktop window) not built: needs libglfw3-dev, OpenGL and ${IMGUI_DIR}")
  endif()
endif()
