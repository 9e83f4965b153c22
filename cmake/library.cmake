# libgaeval.so: the public API (include/gaeval/, implemented in host/api/) over gaeval_host, which
# it links whole and privately: its users see include/gaeval/ alone and link one library.
# `cmake --install` installs it, the headers, the shipped scenarios and the CMake package
# (find_package(gaeval) gives gaeval::gaeval).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

file(GLOB GAEVAL_API_SOURCES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/host/api/*.cpp")
add_library(gaeval_library SHARED ${GAEVAL_API_SOURCES})
add_library(gaeval::gaeval ALIAS gaeval_library)
set_target_properties(gaeval_library PROPERTIES
  OUTPUT_NAME gaeval EXPORT_NAME gaeval
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
target_include_directories(gaeval_library PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(gaeval_library PRIVATE gaeval_host ${CMAKE_DL_LIBS})
set(GAEVAL_API_DEFINITIONS
  GAEVAL_SOURCE_SCENARIOS="${PROJECT_SOURCE_DIR}/scenarios"
  GAEVAL_INSTALLED_SCENARIOS="${CMAKE_INSTALL_DATADIR}/gaeval/scenarios"
  GAEVAL_LIBDIR="${CMAKE_INSTALL_LIBDIR}")
target_compile_definitions(gaeval_library PRIVATE ${GAEVAL_API_DEFINITIONS})
target_compile_features(gaeval_library PUBLIC cxx_std_17)

install(TARGETS gaeval_library EXPORT gaevalTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/gaeval" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/scenarios/" DESTINATION ${CMAKE_INSTALL_DATADIR}/gaeval/scenarios
        FILES_MATCHING PATTERN "*.json")
install(TARGETS gaeval RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT gaevalTargets NAMESPACE gaeval:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gaeval)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/gaevalConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/gaevalConfig.cmake" INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gaeval)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/gaevalConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/gaevalConfig.cmake" "${PROJECT_BINARY_DIR}/gaevalConfigVersion.cmake"
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gaeval)
