# pkgs/libcds.sh - how the libcds cases build (sourced before a case.sh
# whose PKG is libcds): the library's Linux sources (CMakeLists.txt's
# SOURCES less the HP-UX, OS X and Windows files; -mcx16 as its public
# flags) with the case's application, all with the mode's flags, no CMake.
# libcds_build BIN APP: BIN from this tree and the case's APP (a .cpp file).
libcds_build() {
    rb_cc_prog "$1" "-I. -mcx16" "-pthread" "$2" \
        src/init.cpp src/hp.cpp src/dhp.cpp src/thread_data.cpp \
        src/topology_linux.cpp src/urcu_gp.cpp src/urcu_sh.cpp
}
