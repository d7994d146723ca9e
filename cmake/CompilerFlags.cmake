# Warnings and sanitizers for pagesieve's own targets. Third-party headers are
# included as system headers (imported targets), so -Werror only bites our code.

add_library(pagesieve_warnings INTERFACE)
# -Wmissing-field-initializers is off: GCC 12 fires it on designated
# initializers ({.url = ...}) even for members with default initializers.
target_compile_options(pagesieve_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local
                                                    -Wno-missing-field-initializers)
# GCC 12 at -O3 (Release) reports -Wrestrict inside libstdc++ whenever a
# string literal is prepended to a temporary std::string ("a" + s): a known
# false positive (GCC bug 105329, fixed in 13). Off there, so that a Release
# build with -Werror builds.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(pagesieve_warnings INTERFACE -Wno-restrict)
endif()
# Off by default: a user's compiler may warn where ours does not. The
# project's own test command (scripts/test-all) turns it on.
if(PAGESIEVE_WERROR)
  target_compile_options(pagesieve_warnings INTERFACE -Werror)
endif()

# x86-64-v2 (POPCNT, SSE4.2; every x86 server CPU since about 2009) makes the
# SimHash distance one instruction instead of a libgcc call.
set(PAGESIEVE_ARCH "x86-64-v2" CACHE STRING "-march= target on x86_64 (empty: compiler default)")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" AND PAGESIEVE_ARCH)
  add_compile_options(-march=${PAGESIEVE_ARCH})
endif()

if(PAGESIEVE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# pagesieve_library(<name> SOURCES ... DEPS ...)
# One static library per lib/ module, named pagesieve_<name>; includes are
# rooted at lib/ so code writes #include "common/status.h".
function(pagesieve_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(pagesieve_${name} STATIC ${ARG_SOURCES})
  target_include_directories(pagesieve_${name} PUBLIC ${PROJECT_SOURCE_DIR}/lib)
  target_link_libraries(pagesieve_${name} PUBLIC ${ARG_DEPS} PRIVATE pagesieve_warnings)
endfunction()
