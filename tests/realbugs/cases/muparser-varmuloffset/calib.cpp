// calib.cpp - benchmark application for tests/realbugs/cases/
// muparser-varmuloffset: a sensor calibration tool. The calibration
// formula (a muParser expression of the raw reading) is parsed once;
// each reading of a batch is calibrated with it and checked against the
// sensor's valid range. Prints the calibrated values; exit 0 when all
// are in range, 1 when one is not (a reading the formula maps outside
// the range is a calibration error).
#include <muParser.h>
#include <cstdio>

namespace {

const double kMin = 2.0, kMax = 200.0;

struct Calibration {
    mu::Parser parser;
    double raw = 0;

    explicit Calibration(const char *formula)
    {
        parser.DefineVar("raw", &raw);
        parser.SetExpr(formula);
    }

    double apply(double reading)
    {
        raw = reading;
        return parser.Eval();
    }
};

// out of line in both builds (noinline: an error path, kept out of the loop)
[[gnu::noinline]] void report_out_of_range(int row, double reading, double value)
{
    std::printf("row %d: reading %g calibrates to %g, outside [%g, %g]\n",
                row, reading, value, kMin, kMax);
}

[[gnu::noinline]] bool check_reading(int row, double reading, double value)
{
    if (value >= kMin && value <= kMax)
        return true;
    report_out_of_range(row, reading, value);
    return false;
}

} // namespace

int main()
{
    // gain 3, offset 1, then the amplifier's factor 2: 6 * raw + 2
    Calibration cal("(3 * raw + 1) * 2");
    const double readings[] = { 12, 7, 0, 15, 3 };
    int bad = 0;

    for (int i = 0; i < 5; i++) {
        double v = cal.apply(readings[i]);
        std::printf("row %d: %g -> %g\n", i, readings[i], v);
        if (!check_reading(i, readings[i], v))
            bad++;
    }
    std::printf("%d of 5 readings out of range\n", bad);
    return bad ? 1 : 0;
}
