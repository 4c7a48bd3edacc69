// fmtlib-latin1pad's application: a payroll run's bank export. The payees
// come from an old HR system whose names are Latin-1 (one byte a letter,
// not UTF-8). Each payment is one fixed-width record, formatted with fmt:
// the name left-aligned in 20 columns, the amount in cents right-aligned in
// 10, the account in 12 (the bank reads them by byte position). After
// writing the file the application reads it back the way the bank's
// importer does (columns 20-29 the amount) and checks the batch total
// before sending it. Exit 0 when the totals agree, 1 otherwise.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <fmt/format.h>

struct payment {
    std::string name;
    long cents;
    std::string account;
};

static std::vector<payment> payroll()
{
    std::vector<payment> v;
    static const char *first[] = {"Anna", "Ben", "Carl", "Dora", "Emil", "Fay", "Gus", "Hugo"};
    static const char *last[] = {"Berg", "Holm", "Lind", "Strand", "Dahl", "Nord", "Wik"};
    for (int i = 0; i < 60; i++) {
        payment p;
        if (i == 41)
            p.name = "Jos\xe9 Mu\xf1oz";   // Latin-1: e acute, n tilde
        else
            p.name = std::string(first[i % 8]) + " " + last[i % 7];
        p.cents = 180000 + 1375 * i;
        p.account = fmt::format("SE{:010d}", 4400000 + 37 * i);
        v.push_back(p);
    }
    return v;
}

static long write_export(const char *path, const std::vector<payment> &v)
{
    FILE *f = std::fopen(path, "wb");
    if (!f)
        std::exit(2);
    long total = 0;
    for (const payment &p : v) {
        std::string rec = fmt::format("{:<20}{:>10}{:>12}\n", p.name, p.cents, p.account);
        std::fwrite(rec.data(), 1, rec.size(), f);
        total += p.cents;
    }
    std::fclose(f);
    return total;
}

// the bank's importer: fixed byte positions
static long import_total(const char *path, int *records)
{
    FILE *f = std::fopen(path, "rb");
    if (!f)
        std::exit(2);
    char line[128];
    long total = 0;
    *records = 0;
    while (std::fgets(line, sizeof line, f)) {
        char amount[11];
        std::memcpy(amount, line + 20, 10);
        amount[10] = '\0';
        total += std::strtol(amount, nullptr, 10);
        (*records)++;
    }
    std::fclose(f);
    return total;
}

int main()
{
    std::vector<payment> v = payroll();
    long sent = write_export("payments.txt", v);
    int n = 0;
    long read = import_total("payments.txt", &n);
    if (read != sent) {
        std::fprintf(stderr, "payments.txt: %d records total %ld cents, the payroll %ld\n", n,
                     read, sent);
        return 1;
    }
    std::printf("%d payments, %ld cents\n", n, sent);
    return 0;
}
