// numfmt.cc - the double-conversion cases' application (benchmark code):
// reads each argument as a double with StringToDoubleConverter (as a JSON
// or JavaScript reader does) and prints it back in the shortest form that
// reads back the same (EcmaScriptConverter().ToShortest).
#include <cstdio>
#include <cstring>
#include "double-conversion/double-conversion.h"
using namespace double_conversion;

int main(int argc, char** argv)
{
    StringToDoubleConverter reader(StringToDoubleConverter::ALLOW_TRAILING_JUNK, 0.0, 0.0, "Infinity", "NaN");
    const DoubleToStringConverter& writer = DoubleToStringConverter::EcmaScriptConverter();
    for (int i = 1; i < argc; i++) {
        int used = 0;
        double d = reader.StringToDouble(argv[i], (int)strlen(argv[i]), &used);
        char buf[64];
        StringBuilder out(buf, sizeof buf);
        writer.ToShortest(d, &out);
        printf("%s -> %s\n", argv[i], out.Finalize());
    }
    return 0;
}
