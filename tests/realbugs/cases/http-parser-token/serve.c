/* serve.c - the http-parser cases' application (benchmark code): a
 * server's request reader. Parses the request in the file argv[1] with
 * http_parser (HTTP_REQUEST, every callback set), prints each callback,
 * and answers 400 when the parser reports an error, 200 otherwise. */
#include <stdio.h>
#include <string.h>
#include "http_parser.h"

static size_t body_bytes;

static int on_message_begin(http_parser *p) { (void)p; puts("message begin"); return 0; }
static int on_url(http_parser *p, const char *at, size_t n) { (void)p; printf("url %.*s\n", (int)n, at); return 0; }
static int on_header_field(http_parser *p, const char *at, size_t n) { (void)p; printf("field %.*s\n", (int)n, at); return 0; }
static int on_header_value(http_parser *p, const char *at, size_t n) { (void)p; printf("value %.*s\n", (int)n, at); return 0; }
static int on_headers_complete(http_parser *p) { printf("headers complete (flags %#x)\n", p->flags); return 0; }
static int on_body(http_parser *p, const char *at, size_t n) { (void)p; (void)at; body_bytes += n; printf("body %zu bytes\n", n); return 0; }
static int on_message_complete(http_parser *p) { (void)p; puts("message complete"); return 0; }
static int on_chunk_header(http_parser *p) { printf("chunk of %llu\n", (unsigned long long)p->content_length); return 0; }
static int on_chunk_complete(http_parser *p) { (void)p; puts("chunk complete"); return 0; }

int main(int argc, char **argv)
{
    static char buf[65536];
    http_parser_settings s;
    http_parser p;
    size_t n, done;
    FILE *f;
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    memset(&s, 0, sizeof s);
    s.on_message_begin = on_message_begin; s.on_url = on_url;
    s.on_header_field = on_header_field; s.on_header_value = on_header_value;
    s.on_headers_complete = on_headers_complete; s.on_body = on_body;
    s.on_message_complete = on_message_complete;
    s.on_chunk_header = on_chunk_header; s.on_chunk_complete = on_chunk_complete;
    http_parser_init(&p, HTTP_REQUEST);
    done = http_parser_execute(&p, &s, buf, n);
    if (HTTP_PARSER_ERRNO(&p) != HPE_OK) {
        printf("HTTP/1.1 400 Bad Request (%s: %s, at byte %zu)\n",
               http_errno_name(HTTP_PARSER_ERRNO(&p)),
               http_errno_description(HTTP_PARSER_ERRNO(&p)), done);
        return 1;
    }
    printf("HTTP/1.1 200 OK (%zu body bytes)\n", body_bytes);
    return 0;
}
