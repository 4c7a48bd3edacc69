// readconf.cpp - the yaml-cpp-surrogate case's application (benchmark
// code): loads the YAML file argv[1] with YAML::LoadFile and prints its
// "name" entry; a YAML::Exception is caught and reported (exit 1).
#include <iostream>
#include <string>
#include "yaml-cpp/yaml.h"

int main(int argc, char** argv)
{
    if (argc < 2) return 2;
    try {
        YAML::Node conf = YAML::LoadFile(argv[1]);
        std::cout << "name: " << conf["name"].as<std::string>() << "\n";
    } catch (const YAML::Exception& e) {
        std::cout << "config error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
