/* libcsv-tabempty's application: a stock import. The warehouse export
 * (stock.tsv, tab-separated, as the warehouse system writes it: the
 * application writes it first, as an earlier step would) has four columns,
 * sku, description, qty and bin; an item not yet described has an empty
 * description. Each row is read with libcsv (tab as the delimiter) and must
 * have four fields; the quantities are summed per bin. Exit 0 when every
 * row is well-formed, 1 at the first row that is not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "csv.h"

#define NCOL 4
#define NROW 40

struct import {
    int row;              /* rows ended so far (the header is row 0) */
    int nfield;           /* fields of the current row */
    char field[NCOL][64]; /* the current row's first NCOL fields */
    long qty[8];          /* quantity per bin A..H */
    int bad_row;          /* first malformed row, or -1 */
    int bad_count;
};

static void write_export(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        exit(2);
    fprintf(f, "sku\tdescription\tqty\tbin\n");
    for (int i = 0; i < NROW; i++) {
        if (i == 23)   /* a new item, not described yet */
            fprintf(f, "SKU%04d\t\t%d\t%c\n", 1000 + i, 5 + i % 7, 'A' + i % 8);
        else
            fprintf(f, "SKU%04d\tpart %d, grade %c\t%d\t%c\n", 1000 + i, i,
                    'a' + i % 3, 5 + i % 7, 'A' + i % 8);
    }
    fclose(f);
}

static void on_field(void *s, size_t len, void *data)
{
    struct import *im = data;
    if (im->nfield < NCOL) {
        size_t n = len < 63 ? len : 63;
        memcpy(im->field[im->nfield], s, n);
        im->field[im->nfield][n] = '\0';
    }
    im->nfield++;
}

static void on_row(int c, void *data)
{
    struct import *im = data;
    (void)c;
    if (im->nfield != NCOL) {
        if (im->bad_row < 0) {
            im->bad_row = im->row;
            im->bad_count = im->nfield;
        }
    } else if (im->row > 0) {
        int bin = im->field[3][0] - 'A';
        if (bin >= 0 && bin < 8)
            im->qty[bin] += strtol(im->field[2], NULL, 10);
    }
    im->row++;
    im->nfield = 0;
}

int main(void)
{
    struct csv_parser p;
    struct import im;
    char buf[1024];
    size_t n;

    write_export("stock.tsv");
    memset(&im, 0, sizeof im);
    im.bad_row = -1;
    if (csv_init(&p, CSV_APPEND_NULL) != 0)
        return 2;
    csv_set_delim(&p, CSV_TAB);
    FILE *f = fopen("stock.tsv", "r");
    if (!f)
        return 2;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (csv_parse(&p, buf, n, on_field, on_row, &im) != n)
            return 2;
    csv_fini(&p, on_field, on_row, &im);
    csv_free(&p);
    fclose(f);
    if (im.bad_row >= 0) {
        fprintf(stderr, "stock.tsv:%d: %d fields, expected %d\n", im.bad_row + 1,
                im.bad_count, NCOL);
        return 1;
    }
    long total = 0;
    for (int b = 0; b < 8; b++)
        total += im.qty[b];
    printf("%d items imported, %ld units in 8 bins\n", im.row - 1, total);
    return 0;
}
