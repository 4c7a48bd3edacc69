# pkgs/libjsoncpp.sh - how the libjsoncpp cases build (sourced before a
# case.sh whose PKG is libjsoncpp): the library's three files and
# jsontestrunner (the package's own test program), no CMake.
build() {
    rb_cc_prog "$2/jsontestrunner" "-std=c++11 -Iinclude -Isrc/lib_json" "" \
        src/lib_json/json_reader.cpp src/lib_json/json_value.cpp \
        src/lib_json/json_writer.cpp src/jsontestrunner/main.cpp
}
