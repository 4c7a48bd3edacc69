# ttcapConfig.cmake - find_package(ttcap) for tt's capture library, installed
# by `make install` into <prefix>/lib/cmake/ttcap. Targets:
#   ttcap::ttcap         libttcap.so: compile flags -finstrument-functions
#                        -fno-plt, the include directory, and the library
#                        kept under --as-needed whatever the linker flags
#   ttcap::ttcap_static  the same with libttcap.a
#   ttcap::values        values mode (x86-64: arguments and return values):
#                        -pg -mfentry (and gcc's flags that keep functions
#                        traced, as ttcap-values.pc) on the compile only (CMake does not
#                        pass a target's compile options to the link, so
#                        gprof's gcrt1.o stays out), libttcap.so kept
#                        under --as-needed
# Usage: find_package(ttcap REQUIRED)
#        target_link_libraries(app PRIVATE ttcap::ttcap)
get_filename_component(_ttcap_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET ttcap::ttcap)
  add_library(ttcap::ttcap INTERFACE IMPORTED)
  set_target_properties(ttcap::ttcap PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_ttcap_prefix}/include"
    INTERFACE_COMPILE_OPTIONS "-finstrument-functions;-fno-plt"
    INTERFACE_LINK_LIBRARIES
      "-Wl,--push-state,--no-as-needed;${_ttcap_prefix}/lib/libttcap.so;-Wl,--pop-state")
endif()

if(NOT TARGET ttcap::ttcap_static)
  add_library(ttcap::ttcap_static INTERFACE IMPORTED)
  set_target_properties(ttcap::ttcap_static PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_ttcap_prefix}/include"
    INTERFACE_COMPILE_OPTIONS "-finstrument-functions;-fno-plt"
    INTERFACE_LINK_LIBRARIES "${_ttcap_prefix}/lib/libttcap.a;-lpthread;-ldl")
endif()

# values mode's gcc flags (the Makefile's VALUES_GCC_FLAGS, as in
# ttcap-values.pc's Cflags): gcc only, clang rejects them
set(_ttcap_values_gcc "-fno-inline-functions-called-once;-fno-ipa-sra;-fno-partial-inlining;-fno-ipa-ra")
if(NOT TARGET ttcap::values)
  add_library(ttcap::values INTERFACE IMPORTED)
  set_target_properties(ttcap::values PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_ttcap_prefix}/include"
    INTERFACE_COMPILE_OPTIONS "-pg;-mfentry;$<$<COMPILE_LANG_AND_ID:C,GNU>:${_ttcap_values_gcc}>;$<$<COMPILE_LANG_AND_ID:CXX,GNU>:${_ttcap_values_gcc}>"
    INTERFACE_LINK_LIBRARIES
      "-Wl,--push-state,--no-as-needed;${_ttcap_prefix}/lib/libttcap.so;-Wl,--pop-state")
endif()

set(ttcap_INCLUDE_DIRS "${_ttcap_prefix}/include")
set(ttcap_LIBRARIES ttcap::ttcap)
unset(_ttcap_prefix)
unset(_ttcap_values_gcc)
