// limits.cpp - the pugixml-dblprec case's application (benchmark code):
// stores a computed limit (argv[1] + argv[2]) as a double attribute with
// xml_attribute::set_value(double), saves the document to a string (as a
// program saves its settings), loads it back and reads the limit with
// as_double. Exit 0 when it reads back the same double, 1 when not.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include "pugixml.hpp"

__attribute__((noinline)) static void apply_limit(double v)
{
    printf("limit %.17g applied\n", v);
}

__attribute__((noinline)) static void report_drift(double wanted, double back)
{
    printf("limit changed in the round trip: %.17g -> %.17g\n", wanted, back);
}

__attribute__((noinline)) static int sync_limit(const pugi::xml_document& doc, double wanted)
{
    double back = doc.child("limits").attribute("max").as_double();
    if (back == wanted) {
        apply_limit(back);
        return 0;
    }
    report_drift(wanted, back);
    return 1;
}

int main(int argc, char** argv)
{
    if (argc < 3) return 2;
    double wanted = strtod(argv[1], 0) + strtod(argv[2], 0);
    pugi::xml_document doc;
    doc.append_child("limits").append_attribute("max").set_value(wanted);
    std::ostringstream saved;
    doc.save(saved);
    pugi::xml_document back;
    if (!back.load_string(saved.str().c_str())) return 2;
    return sync_limit(back, wanted);
}
