# ctest's check of the installed package (tests/CMakeLists.txt: example_cpp): install the build
# into BUILD/package-test/prefix, configure and build examples/cpp against it, run it.
#   cmake -DBUILD=<build dir> -DSOURCE=<source dir> -DGENERATOR=<generator> -P consume.cmake
set(work "${BUILD}/package-test")
file(REMOVE_RECURSE "${work}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${work}/prefix"
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
foreach(file lib/cmake/gaeval/gaevalConfig.cmake lib/cmake/gaeval/gaevalTargets.cmake
             include/gaeval/gaeval.hpp share/gaeval/scenarios/demo_10v10.json)
  if(NOT EXISTS "${work}/prefix/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}/examples/cpp" -B "${work}/example"
                        -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
                        "-DCMAKE_PREFIX_PATH=${work}/prefix"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring examples/cpp against the installed package failed")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${work}/example" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building examples/cpp failed")
endif()
# Run from elsewhere, without the source tree's scenarios: the installed ones must be found.
execute_process(COMMAND "${work}/example/gaeval_example" WORKING_DIRECTORY "${work}"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "gaeval_example exited with ${rc}")
endif()
# The Python package installed into the prefix's site folder imports from there.
if(PYTHON AND PYTHON_SITE)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${work}/prefix/${PYTHON_SITE}"
                          "${PYTHON}" -c "import gaeval, sys; assert gaeval.__file__.startswith(sys.argv[1]), gaeval.__file__; print('installed module', gaeval.__version__, gaeval.Game.open('tictactoe').perft(4, gaeval.Backend.cpu(1)))" "${work}/prefix"
                  WORKING_DIRECTORY "${work}" RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "importing the installed Python module failed")
  endif()
endif()
