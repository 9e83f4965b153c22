# The Python module `gaeval` (python/): pybind11 over the public API, with Debian's interpreter
# (/usr/bin/python3, not a pyenv shim on PATH). AUTO builds it when pybind11 is found.
set(GAEVAL_HAVE_PYTHON OFF)
if(NOT GAEVAL_PYTHON STREQUAL "OFF")
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  set(PYBIND11_FINDPYTHON ON)
  if(GAEVAL_PYTHON STREQUAL "ON")
    find_package(Python COMPONENTS Interpreter Development.Module REQUIRED)
    find_package(pybind11 CONFIG REQUIRED)
  else()
    find_package(Python QUIET COMPONENTS Interpreter Development.Module)
    if(Python_FOUND)
      find_package(pybind11 CONFIG QUIET)
    endif()
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(GAEVAL_HAVE_PYTHON ON)
  endif()
endif()
message(STATUS "gaeval: Python module ${GAEVAL_HAVE_PYTHON}")

if(GAEVAL_HAVE_PYTHON)
  # The package folder, in the build tree (PYTHONPATH=build/<preset>/python) and installed.
  set(GAEVAL_PYTHON_BUILD_DIR "${PROJECT_BINARY_DIR}/python/gaeval")
  set(GAEVAL_PYTHON_INSTALL_DIR
      "${CMAKE_INSTALL_LIBDIR}/python${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}/site-packages"
      CACHE STRING "Where `cmake --install` puts the Python package (relative to the prefix)")
  pybind11_add_module(gaeval_python NO_EXTRAS python/module.cpp)
  target_link_libraries(gaeval_python PRIVATE gaeval_library gaeval_flags)
  set_target_properties(gaeval_python PROPERTIES
    OUTPUT_NAME _gaeval
    LIBRARY_OUTPUT_DIRECTORY "${GAEVAL_PYTHON_BUILD_DIR}"
    # installed: site-packages/gaeval/ -> lib/ (libgaeval.so)
    INSTALL_RPATH "$ORIGIN/../../..")
  foreach(file __init__.py _gaeval.pyi py.typed)
    configure_file("${PROJECT_SOURCE_DIR}/python/gaeval/${file}" "${GAEVAL_PYTHON_BUILD_DIR}/${file}" COPYONLY)
  endforeach()
  install(TARGETS gaeval_python LIBRARY DESTINATION "${GAEVAL_PYTHON_INSTALL_DIR}/gaeval")
  install(FILES python/gaeval/__init__.py python/gaeval/_gaeval.pyi python/gaeval/py.typed
          DESTINATION "${GAEVAL_PYTHON_INSTALL_DIR}/gaeval")
endif()
