# muparser-varmuloffset: a fault patch (fault.patch) of a real bug class (a
# field of one operand taken for its twin, data for data2): the
# byte-code optimizer's `(a*x+b)*c -> (a*c)*x + b*c` folding multiplies
# the offset b by the constant's unused multiplicand (0), not by its
# value; the wrong offset is stored in the byte code when the formula is
# parsed and read back at every evaluation: a calibration maps a reading
# out of range (README.md argues the ground truth)
PKG=muparser
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='\(anonymous namespace\)::check_reading\('
TRUTH_CAUSE='mu::ParserByteCode::AddOp\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# the library's sources (no CMake: no OpenMP, the DLL interface and the
# self-test left out) and calib.cpp
build() {
    rb_cc_prog "$2/calib" "-Iinclude" "" \
        src/muParser.cpp src/muParserBase.cpp src/muParserBytecode.cpp \
        src/muParserCallback.cpp src/muParserError.cpp src/muParserTokenReader.cpp \
        "$CASE/calib.cpp"
}

run_good() { "$1/calib"; }
run_bad() { run_good "$@"; }
