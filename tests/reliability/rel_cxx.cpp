/*
 * rel_cxx.cpp - reliability checks (c) and (f): C++ exceptions thrown
 * through instrumented frames, and C++ names full of markup characters
 * (operators, templates, string-like template arguments).
 * Usage: rel_cxx DEPTH ROUNDS [alt]   prints "caught N sum S"
 */
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace hostile {
struct A { int v; };
__attribute__((noinline)) bool operator<(const A &x, const A &y) { return x.v < y.v; }
__attribute__((noinline)) bool operator>>(const A &x, int y) { return x.v > y; }
template <typename T, int N> struct Box {
    __attribute__((noinline)) static int get(T t) { return (int)sizeof(t) + N; }
};
}

static volatile int sink;

__attribute__((noinline)) int dive(int depth, int alt)
{
    if (depth == 0) {
        if (alt)
            throw std::runtime_error("</script>\x1b[31m alt");
        throw 42;
    }
    int r = dive(depth - 1, alt);
    sink += r;      /* never reached: keeps the frame a real one */
    return r + 1;
}

__attribute__((noinline)) int round_trip(int depth, int alt)
{
    try {
        return dive(depth, alt);
    } catch (int e) {
        return e;
    } catch (const std::exception &e) {
        return (int)std::string(e.what()).size();
    }
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 100, rounds = argc > 2 ? atoi(argv[2]) : 10;
    int alt = argc > 3;
    long sum = 0;
    int caught = 0;
    hostile::A a{1}, b{2};
    for (int i = 0; i < rounds; i++) {
        sum += round_trip(depth, alt);
        caught++;
        sum += (a < b) + (a >> 0) + hostile::Box<const char *, 3>::get("x") +
               hostile::Box<hostile::A, -1>::get(a);
    }
    printf("caught %d sum %ld\n", caught, sum);
    return 0;
}
